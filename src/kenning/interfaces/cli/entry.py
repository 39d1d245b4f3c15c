"""The console script. Five commands are served without importing the CLI library (click
costs more than either of the first two): `kenning hook session-start`, which runs before
every agent session, `kenning search`, `kenning ask` for one project (``plain_ask``), and
`kenning init` and `kenning sync`, a cold index (``plain_project``). Anything they do not
recognise, and every other command, goes to ``main``; `kenning init` and `kenning sync` then
end the process without the interpreter's teardown too."""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable


def run(argv: list[str] | None = None) -> None:
    """``kenning ARGS``. As the console script (``argv`` None), a command served without click
    ends the process as soon as its output is flushed: it holds no open store or file, and
    the interpreter's teardown would add about a fifth to its time. Given ``argv`` (tests,
    in-process use), it raises ``SystemExit`` like any command."""
    args = sys.argv[1:] if argv is None else list(argv)
    code: int | None = None
    if args[:2] != ["hook", "session-start"]:  # the hook never fails; every other command checks
        code = _invalid_text(args)
    if code is not None:
        pass
    elif args[:2] == ["hook", "session-start"]:
        from kenning.interfaces.session_start import fast_main

        code = fast_main(args[2:])
    elif args[:1] == ["search"]:
        from kenning.interfaces.cli.plain import fast_search

        code = fast_search(args[1:])
    elif args[:1] == ["ask"]:
        from kenning.interfaces.cli.plain_ask import fast_ask

        code = fast_ask(args[1:])
    elif args[:1] in _ENDED_NOW:
        from kenning.interfaces.cli.plain_project import fast_project

        code = fast_project(args[0], args[1:])
    if code is None:
        from kenning.interfaces.cli.main import main

        if argv is None and args[:1] in _ENDED_NOW:
            _end_now(_code_of(main, args))
        main(args)
    elif argv is None:
        _end_now(code)
    sys.exit(code)


# Commands that end the process once their output is flushed when run as the console script:
# their store is closed and their files written before they return, and a cold sync leaves
# the interpreter a large heap to tear down (measured: 25-75 ms of a 0.7 s `kenning sync`).
_ENDED_NOW = (["init"], ["sync"])


def _code_of(main: Callable[[list[str]], None], args: list[str]) -> int:
    """The exit code ``main(args)`` ends with (a message instead of a code is printed, as the
    interpreter would)."""
    try:
        main(args)
    except SystemExit as done:
        if done.code is None or isinstance(done.code, int):
            return done.code or 0
        sys.stderr.write(f"{done.code}\n")
        return 1
    return 0


def _invalid_text(args: list[str]) -> int | None:
    """Exit code 2 with a typed message when an argument is not valid UTF-8 (Python hands
    undecodable bytes over as lone surrogates, which nothing can store or print)."""
    for position, arg in enumerate(args, 1):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError as exc:
            from kenning.errors import ValidationError
            from kenning.interfaces.cli.plain import report_failure

            shown = arg.encode("utf-8", "backslashreplace").decode("ascii", "replace")[:80]
            refused = ValidationError(
                f"argument {position} ({shown}) is not valid UTF-8 text (position {exc.start})",
                hint="pass arguments as UTF-8",
            )
            return report_failure(refused, as_json="--json" in args) or 2
    return None


def _end_now(code: int) -> None:
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        pass  # a reader that went away (`| head`) lost nothing it wanted
    os._exit(code)
