"""Pages: Ask, a source excerpt in its file, Stale, Status. Each calls the core the CLI calls."""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

from kenning.across.answers import stale_each
from kenning.answer.stale import stale_report
from kenning.citation import parse_fact_ref
from kenning.config import CONFIG_NAME, STATE_DIR
from kenning.errors import InvalidQuery
from kenning.files import inside_root
from kenning.freshness import FileCheck, freshness_of
from kenning.ingest.encoding import decode_source
from kenning.ingest.spans import split as split_spans
from kenning.interfaces.web import params
from kenning.interfaces.web.asking import answer_for
from kenning.interfaces.web.cockpit import Cockpit, allowed_of, cockpit_of, render
from kenning.records import Answer, Location, ScopeEntry
from kenning.status import alarms, project_status
from kenning.store import facts as fact_store

ASK_LIMIT = (1, 100)
CONTEXT_LINES = 12
MAX_SHOWN_LINES = 400


def home(request: Request) -> Response:
    return render(request, "ask.html", {"question": "", "scope": "project", "limit": 10, "answer": None})


def ask(request: Request) -> Response:
    """``/ask?q=…&scope=project|all&limit=10``: without ``q``, the empty Ask page. A question the
    core refuses (empty, over its budget, bad syntax: ``InvalidQuery``) is said on the Ask page
    itself, status 400, the text left in the field to be mended (it was a page of its own, the
    text gone)."""
    scope = params.scope(request)
    limit = params.integer(request, "limit", 10, *ASK_LIMIT)
    question = params.question(request)
    page = {"question": question or "", "scope": scope, "limit": limit, "answer": None}
    if question is None:
        return render(request, "ask.html", page)
    try:
        page["answer"] = answer_for(cockpit_of(request), question, scope, limit, allowed_of(request))
    except InvalidQuery as refused:
        return render(request, "ask.html", {**page, "refused": refused.to_json()}, status_code=400)
    return render(request, "ask.html", page)


@dataclass(frozen=True)
class FileWindow:
    """Lines of a file around an excerpt's location, the excerpt's own lines marked."""

    location: Location
    lines: tuple[tuple[int, str, bool], ...]  # number, text, inside the excerpt
    problem: str | None = None


def source(request: Request) -> Response:
    """``/source/<project>/<id>``: the excerpt in its file, its lines highlighted (``#L<n>``)."""
    cockpit = cockpit_of(request)
    project = cockpit.project_named(request.path_params["project"], allowed_of(request))
    fact_id = parse_fact_ref(request.path_params["fact_id"], project.name)  # 400 when malformed or too large
    with cockpit.reading(project) as (conn, fallback):
        fact = fact_store.get(conn, project.name, fact_id)
        files = FileCheck(project.root, conn, split_spans)
        files.preload(loc.path for loc in fact.locations)
        fresh = freshness_of(fact, now=cockpit.clock(), files=files)
    windows = [file_window(project.root, loc) for loc in fact.locations if loc.path]
    return render(
        request,
        "source.html",
        {
            "fact": fact,
            "fresh": fresh,
            "windows": windows,
            "foreign": project.name != cockpit.project.name,
            "fallback": fallback,
        },
    )


def file_window(root: Path, location: Location) -> FileWindow:
    """The excerpt's lines with some context, read now from the file (never outside the root)."""
    target = inside_root(os.path.realpath(root), os.fspath(root / location.path))  # the sync's rule
    if target is None:
        return FileWindow(location, (), "this location points outside the project root")
    try:
        text = decode_source(Path(target).read_bytes())
    except FileNotFoundError:
        return FileWindow(location, (), "the file no longer exists")
    except OSError as exc:
        return FileWindow(location, (), f"the file cannot be read: {exc.strerror or exc}")
    lines = text.splitlines()
    if location.path.endswith(".ipynb"):  # a notebook's text lines, not their JSON (same numbers)
        lines = [notebook_line(line) for line in lines]
    start = location.line_start or 1
    end = location.line_end or start
    first = max(1, start - CONTEXT_LINES)
    last = min(len(lines), end + CONTEXT_LINES, first + MAX_SHOWN_LINES - 1)
    shown = tuple(
        (n, lines[n - 1], start <= n <= end and location.line_start is not None) for n in range(first, last + 1)
    )
    return FileWindow(location, shown, None if shown or not lines else "the lines are past the end of the file")


# A line of a notebook that is one JSON string of a list (a cell's source or output, one line of
# text each as Jupyter writes them): ``    "df = load_data('x')\n",``.
_JSON_STRING_LINE = re.compile(r'^\s*("(?:[^"\\]|\\.)*")\s*,?\s*$')


def notebook_line(line: str) -> str:
    """A notebook file's line as a reader reads it: a cell's line of text unescaped, indented as
    the JSON was; any other line (``"cell_type": "code",``, a bracket) as it is."""
    match = _JSON_STRING_LINE.match(line)
    if match is None:
        return line
    try:
        value = json.loads(match.group(1))
    except ValueError:
        return line
    text = value.removesuffix("\n")
    # a source written as one string holds its line ends: shown as written, one line a number
    return line if "\n" in text or "\r" in text else line[: match.start(1)] + text


@dataclass(frozen=True)
class StaleGroup:
    project: str
    by_type: dict[str, list]
    notes: tuple[str, ...]


def stale(request: Request) -> Response:
    """``/stale?scope=project|all``: what changed or vanished since indexing, by project and type."""
    cockpit = cockpit_of(request)
    scope = params.scope(request)
    answers, excluded = _stale_answers(cockpit, scope, allowed_of(request))
    groups = []
    for answer in answers:
        by_type: dict[str, list] = defaultdict(list)
        for excerpt in answer.excerpts:
            by_type[excerpt.fact.type].append(excerpt)
        notes = (*answer.notes, *(f"degraded: {d}" for d in answer.degradations))
        groups.append(StaleGroup(answer.searched[0], dict(sorted(by_type.items())), notes))
    return render(
        request,
        "stale.html",
        {"scope": scope, "groups": groups, "excluded": excluded, "total": sum(len(a.excerpts) for a in answers)},
    )


def _stale_answers(
    cockpit: Cockpit, scope: str, allowed: frozenset[str] | None
) -> tuple[list[Answer], list[ScopeEntry]]:
    if scope == "project":
        with cockpit.reading() as (conn, fallback):
            return [cockpit.labelled(stale_report(conn, cockpit.project, now=cockpit.clock()), fallback)], []
    answers, opened = stale_each(cockpit.registered(allowed), now=cockpit.clock(), stores=cockpit.stores)
    return answers, sorted(opened.excluded, key=lambda e: e.project)


def status(request: Request) -> Response:
    """``/status``: level, engines, index, degradations, and the projects registered here (a
    token's projects only, when the cockpit is token-gated)."""
    cockpit = cockpit_of(request)
    data = project_status(cockpit.project)
    projects = [
        {
            "name": e.name,
            "path": str(e.path),
            "readable": (Path(e.path) / STATE_DIR / CONFIG_NAME).is_file(),
            "served": e.name == cockpit.project.name,
        }
        for e in cockpit.registered(allowed_of(request))
    ]
    return render(
        request, "status.html", {"status": data, "alarms": alarms(data["degradations"]), "projects": projects}
    )
