"""The console script. `kenning hook session-start` runs before every agent session, so it
is served here without importing the CLI library (click costs more than the hook itself);
every other command goes to ``main``."""

from __future__ import annotations

import sys


def run() -> None:
    args = sys.argv[1:]
    if args[:2] == ["hook", "session-start"]:
        from kenning.interfaces.session_start import fast_main

        code = fast_main(args[2:])
        if code is not None:
            sys.exit(code)
    from kenning.interfaces.cli.main import main

    main()
