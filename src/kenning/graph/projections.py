"""The graph's projections of what is not a file: the task ledger's records and git's commits,
each written as a fact with its node and references (``graph.build`` calls them once a sync's
files are written; ``graph.resolve`` resolves their references with the files')."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from kenning import ledger
from kenning.clock import iso, parse_iso
from kenning.graph.keys import add_ref, delete_origin
from kenning.graph.narrow import Key
from kenning.graph.pending import GIT_PROJECTION
from kenning.ingest import git_history
from kenning.ingest.identifiers import keywords_for
from kenning.ingest.relations import Ref
from kenning.project import Project
from kenning.records import Lifecycle, Replaced
from kenning.store import fact_sources, graph_write, sources
from kenning.store import facts as fact_store
from kenning.store import graph as graph_store
from kenning.store.db import Connection
from kenning.store.graph import SourceState
from kenning.store.graph_write import GraphWriter

LEDGER_PATH = ledger.LEDGER_PATH


@dataclass
class LedgerChanges:
    """What a sync did with the ledger's records (its report's ``ledger``): facts added for new
    records, records changed (the new version a new fact, the old one superseded), facts
    retired for records gone from the file, records kept unchanged; ``retired_uris`` their URIs.
    All zero when the ledger's bytes did not change (it is not read again)."""

    added: int = 0
    changed: int = 0
    retired: int = 0
    kept: int = 0
    retired_uris: list[str] = field(default_factory=list)


def apply_ledger(
    conn: Connection, writer: GraphWriter, project: Project, stamp: str, changes: LedgerChanges | None = None
) -> tuple[set[Key], list[int], int]:
    """The ledger read again when its bytes changed; ``changes`` counts what became of its
    records. Returns the graph keys affected, the references written and the invalid lines."""
    changes = LedgerChanges() if changes is None else changes
    file = project.state_dir / ledger.LEDGER_NAME
    try:
        data = file.read_bytes()
        st = file.stat()
    except OSError:
        data, st = None, None
    fingerprint = hashlib.sha256(data).hexdigest() if data is not None else None
    known = graph_store.source_states(conn).get("ledger")
    if st is not None and known is not None and known.fingerprint == fingerprint:  # touched, same bytes
        graph_write.touch_source(conn, "ledger", st.st_size, st.st_mtime_ns)
        return set(), [], 0
    affected = delete_origin(conn, "ledger")
    content = ledger.read(file) if data is not None else ledger.Ledger((), ())
    existing = fact_sources.active_by_uri(conn, LEDGER_PATH)
    sources.delete_locations(conn, LEDGER_PATH)
    refs: list[int] = []
    seen: set[str] = set()
    for entry in content.entries:
        record = entry.record
        kind, ident = record["kind"], record["id"]
        uri = f"{LEDGER_PATH}#{kind}/{ident}"
        seen.add(uri)
        record_fingerprint = ledger.record_fingerprint(record)
        new = fact_store.NewFact(
            type=kind,
            title=_ledger_title(record),
            body=_ledger_body(record),
            keywords=keywords_for(ident),
            path=LEDGER_PATH,
            source_kind="file",
            source_uri=uri,
            fingerprint=record_fingerprint,
            date_source=_iso_date(record.get("date")),
            date_source_kind="declared" if _iso_date(record.get("date")) else None,
            date_indexed=stamp,
            producer="projection",
            tags=tuple(record.get("labels", ())),
            meta={"ledger": record},
        )
        old = existing.get(uri)
        if old is not None and old[1] == new.content_hash:
            fact_id = old[0]
            fact_sources.set_fingerprint(conn, fact_id, record_fingerprint)
            changes.kept += 1
        else:
            fact_id = fact_store.insert(conn, new)
            if old is None:
                changes.added += 1
            else:
                changes.changed += 1
                fact_store.set_lifecycle(
                    conn,
                    old[0],
                    Lifecycle.SUPERSEDED,
                    when=stamp,
                    reason=Replaced.LEDGER_RECORD_CHANGED,
                    superseded_by=fact_id,
                )
        sources.add_locations(
            conn, [sources.NewLocation(fact_id, uri, LEDGER_PATH, entry.line, entry.line, record_fingerprint)]
        )
        node = graph_write.add_node(
            conn, kind, f"{kind}:{ident}", ident, origin="ledger", qualname=_ledger_title(record), fact_id=fact_id
        )
        affected.add((kind, ident))
        source = ("file", uri, record_fingerprint)  # the record, so its freshness is the record's
        for ref in _ledger_refs(record, entry.line):
            refs.append(add_ref(writer, node, ref, source=source, origin="ledger"))
    for uri, (fact_id, _) in existing.items():
        if uri not in seen:
            fact_store.set_lifecycle(conn, fact_id, Lifecycle.RETIRED, when=stamp, reason="ledger record removed")
            changes.retired += 1
            changes.retired_uris.append(uri)
    if st is None:
        graph_write.delete_source(conn, "ledger")
    else:
        graph_write.put_source(conn, SourceState("ledger", st.st_size, st.st_mtime_ns, fingerprint, None), stamp=stamp)
    return affected, refs, len(content.invalid)


def _ledger_refs(record: dict, line: int) -> list[Ref]:
    match record["kind"]:
        case "task":
            return [Ref("depends_on", "task", d, line) for d in record.get("depends_on", [])] + [
                Ref("touches", "file", p, line) for p in record.get("touches", [])
            ]
        case "evidence":
            refs = [Ref("evidence_of", "task", record["task"], line)]
            if record.get("path"):
                refs.append(Ref("touches", "file", record["path"], line))
            return refs
        case "verdict":
            return [Ref("verdict_of", "evidence", record["evidence"], line)]
    return []


def _ledger_title(record: dict) -> str:
    match record["kind"]:
        case "task":
            return f"{record['id']} {record['title']} [{record['status']}]"
        case "evidence":
            return f"{record['id']} evidence for {record['task']}: {record['result']}"[:300]
        case _:
            return f"{record['id']} verdict on {record['evidence']}: {record['outcome']}"[:300]


def _ledger_body(record: dict) -> str:
    lines = [
        f"{k}: {', '.join(v) if isinstance(v, list) else v}"
        for k, v in record.items()
        if k not in ("body",) and v not in (None, [], "")
    ]
    if record.get("body"):
        lines += ["", record["body"]]
    return "\n".join(lines)


def _iso_date(value: str | None) -> str | None:
    if not value:
        return None
    try:
        return iso(parse_iso(value if "T" in value else f"{value}T00:00:00Z"))
    except ValueError:
        return None


def apply_git(
    conn: Connection, writer: GraphWriter, project: Project, head: str, stamp: str
) -> tuple[list[int], int, int]:
    """The commits after the last one read, each a fact with its node and references; first,
    when ``GIT_PROJECTION`` moved since the store read its commits, those it holds read again
    (``_project_again``). Returns the references written, the commits added and those replaced."""
    known = graph_store.source_states(conn).get("git")
    refs: list[int] = []
    version: str | None = GIT_PROJECTION
    replaced = 0
    if known is not None and known.fingerprint != GIT_PROJECTION:
        again = _project_again(conn, writer, project, stamp, refs)
        if again is None:  # git could not read them: the next sync tries again
            version = known.fingerprint
        else:
            replaced = again
    added = 0
    for commit in git_history.commits(project.root, known.cursor if known else None):
        if graph_store.node_exists(conn, f"commit:{commit.sha}"):
            continue
        _add_commit(conn, writer, commit, stamp, refs)
        added += 1
    graph_write.put_source(conn, SourceState("git", None, None, version, head), stamp=stamp)
    return refs, added, replaced


def _project_again(conn: Connection, writer: GraphWriter, project: Project, stamp: str, refs: list[int]) -> int | None:
    """The commits the store holds, read again from git: each whose fact would now read
    otherwise gets a new fact, which supersedes the old one, and its node and references anew;
    the others keep theirs (ids, citations, edges). A commit git no longer holds is left as it
    is. Returns how many were replaced, None when git could not read them (nothing changed)."""
    held = fact_sources.active_by_uri(conn, "", fact_type="commit")  # a commit's fact has no path
    found = git_history.commits_named(project.root, list(held))
    if found is None:
        return None
    changed = []
    for commit in found:
        if commit.sha in held:
            fact = _commit_fact(commit, stamp)  # built once: compared here, written below
            if held[commit.sha][1] != fact.content_hash:
                changed.append((commit, fact, held[commit.sha][0]))
    graph_write.delete_nodes(conn, [f"commit:{commit.sha}" for commit, _, _ in changed])
    for commit, fact, old in changed:
        fact_id = _add_commit(conn, writer, commit, stamp, refs, fact)
        fact_store.set_lifecycle(
            conn, old, Lifecycle.SUPERSEDED, when=stamp, reason=Replaced.COMMIT_READ_AGAIN, superseded_by=fact_id
        )
    return len(changed)


def _commit_fact(commit: git_history.Commit, stamp: str) -> fact_store.NewFact:
    body = commit.message + ("\n\nFiles touched:\n" + "\n".join(commit.files) if commit.files else "")
    return fact_store.NewFact(
        type="commit",
        title=commit.subject or commit.sha[:12],
        body=body,
        keywords=keywords_for(commit.sha[:12], *git_history.task_ids(commit.message)),
        source_kind="commit",
        source_uri=commit.sha,
        fingerprint=commit.sha,
        date_source=_iso_date(commit.date),
        date_source_kind="commit",
        date_indexed=stamp,
        producer="projection",
        meta={"author": commit.author, "files": list(commit.files)},
    )


def _add_commit(
    conn: Connection,
    writer: GraphWriter,
    commit: git_history.Commit,
    stamp: str,
    refs: list[int],
    fact: fact_store.NewFact | None = None,
) -> int:
    """A commit's fact (``fact`` when the caller built it already), node and references
    (appended to ``refs``); returns the fact's id."""
    fact_id = fact_store.insert(conn, fact if fact is not None else _commit_fact(commit, stamp))
    node = graph_write.add_node(
        conn, "commit", f"commit:{commit.sha}", commit.sha[:12], origin="git", qualname=commit.subject, fact_id=fact_id
    )
    source = ("commit", commit.sha, commit.sha)
    for path in commit.files:
        refs.append(add_ref(writer, node, Ref("touches", "file", path), source=source, origin="git"))
    for task in git_history.task_ids(commit.message):
        refs.append(add_ref(writer, node, Ref("touches", "task", task, link="heuristic"), source=source, origin="git"))
    return fact_id
