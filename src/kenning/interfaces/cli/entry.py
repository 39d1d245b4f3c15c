"""The console script. Two commands are served without importing the CLI library (click
costs more than either): `kenning hook session-start`, which runs before every agent
session, and `kenning search`. Anything they do not recognise, and every other command,
goes to ``main``."""

from __future__ import annotations

import sys


def run(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else list(argv)
    code: int | None = None
    if args[:2] == ["hook", "session-start"]:
        from kenning.interfaces.session_start import fast_main

        code = fast_main(args[2:])
    elif args[:1] == ["search"]:
        from kenning.interfaces.cli.plain import fast_search

        code = fast_search(args[1:])
    if code is not None:
        sys.exit(code)
    from kenning.interfaces.cli.main import main

    main(args)
