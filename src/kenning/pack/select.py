"""Choose what goes into the pack, from the store and the project files.

- Context: the file named by ``[pack] context`` in ``.kenning/config.toml``, else the
  README's opening (front matter, title line, badges and HTML comments left out; headings
  shown in bold so they do not compete with the pack's own sections).
- Conventions: active facts typed ``convention`` (or tagged so), the sections of conventions
  files (coding-style documents, agent instructions, CONTRIBUTING…), and linters' and
  formatters' settings; each judged by the score of ``pack/judge.py``, kept from its threshold.
- Decisions: active facts typed ``decision`` whose front-matter status is not superseded,
  deprecated or rejected, one entry per decision file (its sections together).

Conventions are ordered by score, then by a stable key (path, then position); decisions by
path. Never by date or id.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path, PurePosixPath

from kenning.errors import UsageError
from kenning.files import inside_root
from kenning.ingest.encoding import decode_source
from kenning.pack import judge, settings_files
from kenning.pack.clean import strip_shells
from kenning.pack.entries import Context, Entry
from kenning.pack.fingerprint import of_parts
from kenning.store import lookups
from kenning.store import pack as pack_store
from kenning.store.handle import Connection
from kenning.store.pack import PackFact

README_NAMES = ("README.md", "README.markdown", "README.rst", "README.txt", "README", "readme.md", "Readme.md")
INACTIVE_STATUSES = frozenset(
    {
        "superseded",
        "deprecated",
        "rejected",
        "retired",
        "obsolete",
        "abandoned",
        "remplacé",
        "remplacée",
        "abandonné",
        "abandonnée",
        "rejeté",
        "rejetée",
    }
)
DECISION_SECTIONS = ("decision", "décision", "decision outcome", "the decision", "chosen option")
CONTEXT_READ_CHARS = 20_000

_HEADING_LINE = re.compile(r"^[ \t]{0,3}#{1,6}[ \t].*$|^[ \t]{0,3}(=+|-+)[ \t]*$", re.M)
_BADGE_LINE = re.compile(r"^\s*(\[!\[|!\[|<img\b|<a\b[^>]*><img\b).*$", re.M | re.I)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TITLE_LINE = re.compile(r"^\s*# [^\n]*\n?")
_RST_TITLE = re.compile(r"\A\s*(?:([=#*~-])\1{2,}[ \t]*\n)?[^\n]+\n([=#*~-])\2{2,}[ \t]*\n")
_ATX = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+(.*?)[ \t]*#*[ \t]*$", re.M)
_FRONT = re.compile(r"\A---[ \t]*\n.*?\n(---|\.\.\.)[ \t]*\n", re.S)


def is_convention_file(path: str) -> bool:
    return judge.source_kind(path) is not None


def context(conn: Connection, root: Path, configured: str | None) -> Context | None:
    """The context file's opening; a configured file that does not read is an error. A file
    whose links lead out of the project is never read (the sync's rule, ``files.inside_root``)."""
    root_real = os.path.realpath(root)
    if configured:
        rel = PurePosixPath(configured.replace("\\", "/"))
        full = inside_root(root_real, os.fspath(root / rel))
        if rel.is_absolute() or full is None or not os.path.isfile(full):
            raise UsageError(
                f"[pack] context = {configured!r} is not a readable file inside the project",
                hint="fix `context` in .kenning/config.toml, or remove it to use the README",
            )
        return _read_context(conn, full, str(rel))
    for name in README_NAMES:
        full = inside_root(root_real, os.fspath(root / name))
        if full is not None and os.path.isfile(full):
            return _read_context(conn, full, name)
    return None


def _read_context(conn: Connection, full: str, rel: str) -> Context:
    with open(full, "rb") as handle:
        raw = handle.read()
    text = decode_source(raw).removeprefix("\ufeff").replace("\r\n", "\n")
    body = _FRONT.sub("", text, count=1)
    skipped_lines = text[: len(text) - len(body)].count("\n")
    opening = body[:CONTEXT_READ_CHARS]
    cleaned = _BADGE_LINE.sub("", _COMMENT.sub("", opening))
    cleaned = _RST_TITLE.sub("", cleaned, count=1)  # before the adornments go with the shells
    cleaned = strip_shells(cleaned)
    cleaned = _TITLE_LINE.sub("", cleaned, count=1) if cleaned.lstrip().startswith("# ") else cleaned
    cleaned = _ATX.sub(lambda m: f"**{m.group(1).strip()}**", cleaned)
    cleaned = re.sub(r"\n{3,}", "\n\n", cleaned).strip()
    last_line = skipped_lines + opening.count("\n") + 1
    ids = tuple(lookups.active_ids_above(conn, rel, last_line))
    return Context(path=rel, text=cleaned, fingerprint=hashlib.sha256(raw).hexdigest(), fact_ids=ids)


def conventions(conn: Connection, project: str, root: Path | None = None) -> list[Entry]:
    """Every candidate that passes ``judge.THRESHOLD``, highest score first."""
    return [e for e in candidates(conn, project, root) if e.score is None or e.score >= judge.THRESHOLD]


def candidates(conn: Connection, project: str, root: Path | None = None) -> list[Entry]:
    """Every conventions candidate with its score and reasons, kept or not, in pack order."""
    paths = [path for path in lookups.manifest_paths(conn) if is_convention_file(path)]
    rows = pack_store.convention_facts(conn, paths)
    scored: list[tuple[int, tuple[str, int, int], Entry]] = []
    for row in sorted(rows, key=_position):
        text = _prose(strip_shells(row.body))
        if not text:
            continue  # a heading (or an HTML shell) alone says nothing
        declared = row.type == "convention" or '"convention"' in (row.tags or "")
        kind = "declared" if declared else judge.source_kind(row.path or "") or "contributing_docs"
        verdict = judge.judge(kind, row.path or "", row.title, text)
        scored.append(
            (
                verdict.score,
                _position(row),
                Entry(
                    kind="convention",
                    key=_key(row),
                    title=row.title,
                    text=text,
                    citation=f"kn://{project}/{row.id}",
                    fact_ids=(row.id,),
                    # a note has no file: its citation names it (every CLI note's URI is manual:cli)
                    sources=((row.path or f"kn://{project}/{row.id}", row.fingerprint or row.content_hash),),
                    fingerprint=of_parts([row.title, row.content_hash, row.meta or ""]),
                    score=verdict.score,
                    why=verdict.why,
                ),
            )
        )
    for found in settings_files.read_all(root) if root is not None else []:
        verdict = judge.judge("settings", found.path, found.path, found.text)
        scored.append(
            (
                verdict.score,
                (found.path, 0, 0),
                Entry(
                    kind="convention",
                    key=found.path,
                    title=f"Tool settings ({found.path})",
                    text=found.text,
                    citation=found.path,
                    fact_ids=(),
                    sources=((found.path, found.fingerprint),),
                    fingerprint=of_parts([found.path, found.fingerprint]),
                    score=verdict.score,
                    why=verdict.why,
                ),
            )
        )
    return [entry for _, _, entry in sorted(scored, key=lambda item: (-item[0], item[1]))]


def decisions(conn: Connection, project: str) -> list[Entry]:
    rows = pack_store.decision_facts(conn)
    groups: dict[str, list[PackFact]] = {}
    for row in sorted(rows, key=_position):
        if _status(row) in INACTIVE_STATUSES:
            continue
        groups.setdefault(row.path or _key(row), []).append(row)
    entries = []
    for key in sorted(groups):
        members = groups[key]
        shown = _decision_section(members)
        text = _prose(shown.body) or next((_prose(m.body) for m in members if _prose(m.body)), "")
        entries.append(
            Entry(
                kind="decision",
                key=key,
                title=members[0].title.split(" > ")[0],
                text=text,
                citation=f"kn://{project}/{shown.id}",
                fact_ids=(shown.id, *(m.id for m in members if m.id != shown.id)),
                sources=(
                    (members[0].path or members[0].source_uri, members[0].fingerprint or members[0].content_hash),
                ),
                # the file's fingerprint too: a change anywhere in a decision file (front matter
                # included) is a changed decision
                fingerprint=of_parts(
                    [p for m in members for p in (m.title, m.content_hash, m.fingerprint or "", m.meta or "")]
                ),
                date=_date(members[0]),
            )
        )
    return entries


def _decision_section(members: list[PackFact]) -> PackFact:
    for member in members:
        last = member.title.split(" > ")[-1].strip().lower()
        if len(member.title.split(" > ")) > 1 and last.startswith(DECISION_SECTIONS) and _prose(member.body):
            return member
    return next((m for m in members if _prose(m.body)), members[0])


def shown_text(body: str) -> str:
    """A fact's text as the pack shows it, on one line: HTML comments, badge lines, markup
    shells and heading lines left out. Drawn from ``body`` alone (a core answer's snippets)."""
    return " ".join(_prose(strip_shells(_BADGE_LINE.sub("", _COMMENT.sub("", body)))).split())


def _prose(body: str) -> str:
    """The body without heading lines, whitespace folded to single spaces per paragraph."""
    text = _HEADING_LINE.sub("", body)
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)]
    return "\n\n".join(p for p in paragraphs if p)


def _meta(row: PackFact) -> dict:
    try:
        meta = json.loads(row.meta or "{}")
    except json.JSONDecodeError:
        return {}
    return meta if isinstance(meta, dict) else {}


def _front_matter(meta: dict) -> dict:
    front = meta.get("front_matter")
    return front if isinstance(front, dict) else {}


def _status(row: PackFact) -> str:
    meta = _meta(row)
    front = _front_matter(meta)
    status = meta.get("status") or front.get("status") or ""
    return str(status).strip().lower()


def _date(row: PackFact) -> str | None:
    """The date the decision states (front matter), never a file time: same sources, same bytes.

    The sync refreshes ``date_source`` (front-matter date, else file time) on every re-read,
    while ``meta`` keeps the front matter first seen: so ``meta`` says whether the file states
    a date, ``date_source`` gives its current value."""
    meta = _meta(row)
    front = _front_matter(meta)
    if not (meta.get("date") or front.get("date")):
        return None
    return str(row.date_source or meta.get("date") or front.get("date"))[:10]


def _key(row: PackFact) -> str:
    return row.source_uri if row.source_kind == "file" else f"{row.source_uri}#{row.id}"


def _position(row: PackFact) -> tuple[str, int, int]:
    return (row.path or _key(row), row.line or 0, row.id)
