"""What the command line shares without its CLI library: the clock, failure reports, and
`kenning search`, which the console script serves straight from here (``fast_search``).

Importing click costs more than a whole search, so the console script answers the common
``kenning search QUERY [options]`` without it. Anything this parser does not recognise
(``--help``, a typo, a value out of range) goes to the click command, the one reference for
options and usage errors; both print the same thing for the same arguments (tested).
"""

from __future__ import annotations

import os
import sys
from datetime import datetime
from pathlib import Path

from kenning.errors import KenningError, UsageError
from kenning.interfaces.exit_codes import exit_code
from kenning.interfaces.terminal_text import terminal_safe
from kenning.store.handle import StoreError, typed_error

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable, Collection

    from kenning.answer.search import SearchOptions
    from kenning.config import Project
    from kenning.records import Answer

# `kenning search` options, as the click command declares them (facts_cmds.search).
_FLAGS = {
    "--include-superseded": "include_superseded",
    "--include-missing": "include_missing",
    "--explain": "explain",
    "--json": "as_json",
}
SHARED_VALUED = ("--limit", "--project")  # the options every fast command takes (``scan_command``)
_VALUED = (*SHARED_VALUED, "--type", "--syntax")
SYNTAXES = ("natural", "fts")
LIMIT_RANGE = (1, 100)
DEFAULT_LIMIT = 10  # `search` and `ask`, fast or through click (``SearchOptions.limit`` is the same)


def now() -> datetime:
    """The clock. ``KENNING_NOW`` (ISO 8601) pins it, for tests and reproducible reports."""
    from kenning.clock import parse_iso, utc_now

    pinned = os.environ.get("KENNING_NOW")
    if pinned:
        try:
            return parse_iso(pinned)
        except ValueError as exc:
            raise UsageError(f"KENNING_NOW is not an ISO 8601 date: {pinned!r}") from exc
    return utc_now()


def resolve_project(project_path: Path | None, *, across: bool = False) -> Project:
    """The project at ``--project``, else the one enclosing the current directory. A
    ``--project`` that does not exist says so (not "no kenning project at or above" it). For a
    command that can ask every registered project (``across``), none here names that way too."""
    from kenning.config import load_project
    from kenning.errors import ProjectNotFound

    if project_path is not None and not project_path.exists():
        raise ProjectNotFound(
            f"--project {project_path}: no such directory",
            hint="check the path; `kenning projects list` shows where each registered project is",
        )
    try:
        return load_project(project_path or Path.cwd())
    except ProjectNotFound as exc:
        if not across or project_path is not None:
            raise
        raise ProjectNotFound(
            exc.message, hint=f"{exc.hint}, or add --all-projects to ask every registered project"
        ) from None


def cli_hints(command: str = "kenning") -> dict[type[KenningError], str]:
    """The default hints in the command line's terms (``KenningError.hint_for``): COMMAND's
    --help, not a tool's inputSchema."""
    from kenning.errors import CursorRejected, NotFound, ValidationError

    return {
        UsageError: f"fix the request (see `{command} --help`), then retry",
        ValidationError: f"fix the value named in the message (its bounds are in `{command} --help`), then retry",
        NotFound: "check the id or name (`kenning search` lists ids, `kenning projects list` projects)",
        CursorRejected: "a guided search's cursors belong to the MCP tool mem_search; on the command line the same "
        "steps are `kenning memory index QUERY`, `kenning memory timeline ID`, `kenning memory get ID`",
    }


def report_failure(exc: BaseException, *, as_json: bool = False, command: str = "kenning") -> int | None:
    """Print a known failure and return its exit code; None if it is not ours. An engine
    failure is first turned into its typed error (``store.handle.typed_error``: the engine's
    wording never reaches a user). The message and hint (a default one in the terms of
    COMMAND, ``cli_hints``) go to stderr; with ``--json``, stdout also carries
    ``{"error": {"type", "message", "hint"}}``, as MCP and the web API do."""
    if isinstance(exc, KeyboardInterrupt):  # its message, when it has one, is a hint
        hint = f"hint: {exc.args[0]}\n" if exc.args and isinstance(exc.args[0], str) else ""
        sys.stderr.write(f"interrupted\n{hint}")
        return 130
    if isinstance(exc, StoreError):
        exc = typed_error(exc)
    if not isinstance(exc, KenningError):
        return None
    error = exc.to_json(cli_hints(command))
    sys.stderr.write(f"error: {error['message']}\nhint: {error['hint']}\n")
    if as_json:
        import json

        sys.stdout.write(json.dumps({"error": error}, indent=2, ensure_ascii=False) + "\n")
    return exit_code(exc)


def unanswered(answer: Answer) -> KenningError | None:
    """The typed error an answer stands for when nothing could be searched: no index
    (``empty_reason: index_missing``: never synced; across projects, none synced), no readable
    project (``project_unreadable``) or, across projects, none to search (``no_project``: none
    registered, or each one confidential). Such an answer is printed all the same, then this
    error's lines, and the command exits with its code: a question asked nowhere never counts as
    "no result" (SPEC §5), so a script cannot take it for an empty search."""
    from kenning.errors import IndexMissing, ProjectNotFound, StoreUnreadable
    from kenning.records import EmptyReason

    where = ", ".join(answer.searched or [e.project for e in answer.excluded]) or "-"
    match answer.empty_reason:
        case EmptyReason.INDEX_MISSING:
            return IndexMissing(f"no index to answer from in {where}: nothing was searched")
        case EmptyReason.PROJECT_UNREADABLE:
            return StoreUnreadable(
                f"no project could be read ({where}): nothing was searched", hint="see `kenning projects list`"
            )
        case EmptyReason.NO_PROJECT if answer.excluded:
            left = "; ".join(f"{e.project}: {e.reason}" for e in answer.excluded)
            return ProjectNotFound(
                f"no project to search across, nothing was searched: every one was left out — {left}",
                hint="ask within one project with --project PATH (a confidential project answers its own questions)",
            )
        case EmptyReason.NO_PROJECT:
            return ProjectNotFound(
                "no project registered on this machine: nothing was searched",
                hint="run `kenning init` in a project (it registers it), or `kenning projects add PATH`",
            )
    return None


def answer_code(answer: Answer) -> int:
    """0, or the exit code of ``unanswered(answer)`` after its ``error:``/``hint:`` lines on stderr."""
    refused = unanswered(answer)
    if refused is None:
        return 0
    sys.stdout.flush()  # the answer first, then why it is empty
    sys.stderr.write(f"error: {refused.message}\nhint: {refused.hint}\n")
    return exit_code(refused)


def search_output(
    query: str, options: SearchOptions, *, project_path: Path | None = None, as_json: bool = False
) -> tuple[str, Answer]:
    """What `kenning search` prints (without the final newline), and the answer it renders."""
    from kenning.answer.search import search_project
    from kenning.interfaces.render import answer_text, to_json_text

    answer = search_project(resolve_project(project_path, across=True), query, options, now=now())
    return (to_json_text(answer.to_json()) if as_json else terminal_safe(answer_text(answer))), answer


def scan_options(args: list[str], flags: Collection[str], valued: Collection[str]) -> list[tuple[str, str]] | None:
    """ARGS as (option, value) pairs in order: a flag with the value "", an option with its
    value (``--opt v`` or ``--opt=v``), anything else as ("", arg). None when an option lacks
    its value: the click command reports that."""
    pairs: list[tuple[str, str]] = []
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in flags:
            pairs.append((arg, ""))
            continue
        name, has_value, value = arg.partition("=")
        if name not in valued:
            pairs.append(("", arg))
            continue
        if not has_value:
            if not rest:
                return None
            value = rest.pop(0)
        pairs.append((name, value))
    return pairs


def scan_command(
    args: list[str],
    flags: dict[str, str],
    valued: Collection[str],
    own: Callable[[str, str, dict[str, object]], bool] | None = None,
) -> tuple[dict[str, object], str] | None:
    """A fast command's ARGS: the keywords of its flags and options, and its one positional
    argument; None when the click command must handle them (help, unknown option, invalid value,
    not exactly one positional argument). ``--limit`` and ``--project`` are read here;
    ``own(name, value, values)`` takes the command's other options (False: an invalid value)."""
    pairs = scan_options(args, flags, valued)
    if pairs is None:
        return None
    values: dict[str, object] = {}
    positional: list[str] = []
    for name, value in pairs:
        if name in flags:
            values[flags[name]] = True
        elif name == "--limit":
            if not (value.isascii() and value.isdecimal()) or not LIMIT_RANGE[0] <= int(value) <= LIMIT_RANGE[1]:
                return None
            values["limit"] = int(value)
        elif name == "--project":
            if os.path.isfile(value):
                return None
            values["project_path"] = Path(value)
        elif name:
            if own is None or not own(name, value, values):
                return None
        elif value.startswith("-"):
            return None
        else:
            positional.append(value)
    return (values, positional[0]) if len(positional) == 1 else None


def parse_search_args(args: list[str]) -> dict[str, object] | None:
    """``search`` ARGS as keywords (the query, ``project_path``, ``as_json`` and the
    ``SearchOptions`` fields given), or None when the click
    command must handle them (help, unknown option, invalid value, not exactly one query)."""
    types: list[str] = []

    def own(name: str, value: str, values: dict[str, object]) -> bool:
        if name == "--type":
            types.append(value)
            return True
        values["syntax"] = value  # --syntax
        return value in SYNTAXES

    found = scan_command(args, _FLAGS, _VALUED, own)
    if found is None:
        return None
    values, query = found
    return {"query": query, "types": tuple(types), **values}


def fast_search(args: list[str]) -> int | None:
    """Serve ``search`` ARGS; None to hand them to the click command."""
    parsed = parse_search_args(args)
    if parsed is None:
        return None
    from kenning.answer.search import SearchOptions

    query, project_path, as_json = parsed.pop("query"), parsed.pop("project_path", None), parsed.pop("as_json", False)
    try:
        # parse_search_args checked each value; typing them (a TypedDict) would import typing here
        options = SearchOptions(**parsed)  # type: ignore[arg-type]
        text, answer = search_output(query, options, project_path=project_path, as_json=as_json)  # type: ignore[arg-type]
    except (KenningError, StoreError, KeyboardInterrupt) as exc:
        return report_failure(exc, as_json=bool(as_json), command="kenning search") or 1
    sys.stdout.write(text + "\n")
    return answer_code(answer)
