"""The only layer that knows about terminals, click, MCP and HTTP."""
