"""`kenning ask QUESTION [--limit N] [--explain] [--project DIR] [--json]` served without the CLI
library (``fast_ask``), as `kenning search` is (``plain.fast_search``): one question is one
interpreter, and importing click cost it some 25-40 ms of the 150-200 a question takes
(docs/benchmarks.md, "cliask"). Anything this parser does not recognise (``--all-projects`` and
its window, ``--help``, a typo, a value out of range) goes to the click command, the one
reference for options and usage errors; both print the same for the same arguments (tested).
"""

from __future__ import annotations

import sys

from kenning.errors import KenningError
from kenning.interfaces.cli.plain import (
    DEFAULT_LIMIT,
    SHARED_VALUED,
    answer_code,
    now,
    report_failure,
    resolve_project,
    scan_command,
)
from kenning.interfaces.terminal_text import terminal_safe
from kenning.store.handle import StoreError

# `kenning ask` options without --all-projects, as the click command declares them (ask_cmds.ask).
_FLAGS = {"--explain": "explain", "--json": "as_json"}


def parse_ask_args(args: list[str]) -> dict[str, object] | None:
    """``ask`` ARGS as keywords (``question``, ``limit``, ``explain``, ``project_path``,
    ``as_json``), or None when the click command must handle them."""
    found = scan_command(args, _FLAGS, SHARED_VALUED)
    if found is None:
        return None
    values, question = found
    defaults = {"limit": DEFAULT_LIMIT, "explain": False, "project_path": None, "as_json": False}
    return {"question": question, **defaults, **values}


def fast_ask(args: list[str]) -> int | None:
    """Serve ``ask`` ARGS; None to hand them to the click command."""
    parsed = parse_ask_args(args)
    if parsed is None:
        return None
    from kenning.answer.ask import ask_project
    from kenning.interfaces.render import answer_text, to_json_text

    as_json = bool(parsed["as_json"])
    try:
        project = resolve_project(parsed["project_path"], across=True)  # type: ignore[arg-type]
        answer = ask_project(
            project,
            str(parsed["question"]),
            now=now(),
            limit=parsed["limit"],  # type: ignore[arg-type]
            explain=bool(parsed["explain"]),
        )
    except (KenningError, StoreError, KeyboardInterrupt) as exc:
        return report_failure(exc, as_json=as_json, command="kenning ask") or 1
    text = answer_text(answer, explain=bool(parsed["explain"]))
    sys.stdout.write((to_json_text(answer.to_json()) if as_json else terminal_safe(text)) + "\n")
    return answer_code(answer)
