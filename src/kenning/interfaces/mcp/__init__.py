"""The MCP server (official `mcp` SDK, v1 line): thin tools over the same core as the CLI."""
