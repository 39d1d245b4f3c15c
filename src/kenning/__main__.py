"""``python -m kenning ARGS``: the console script, for an MCP client or a shell that knows the
interpreter but does not have ``kenning`` on its PATH."""

from kenning.interfaces.cli.entry import run

if __name__ == "__main__":
    run()
