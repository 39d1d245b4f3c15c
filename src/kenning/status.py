"""What is actually in service for a project: level, engines, index size, degradations."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kenning import dense
from kenning.errors import IndexMissing, StoreOutdated, StoreUnavailable
from kenning.graph.walk import NO_RELATIONS
from kenning.ingest import git_history
from kenning.pack.manifest import read_manifest
from kenning.project import Project
from kenning.store import sources
from kenning.store import status as store_status
from kenning.store.db import connect, open_store
from kenning.store.handle import Connection
from kenning.store.postgres import connection as pg

# What a server may do otherwise than kenning on SQLite, each a degradation when it does
# (``engines.store.<key>``: the reason the check gives; listed as ``postgresql: <reason>``).
SERVER_GAPS = {
    "case_folding": store_status.case_folding,
    "accent_folding": store_status.accent_folding,
    "project_indexes": store_status.project_indexes,
}


# What answers words on level 2, in the place of FTS5 and its trigram table (docs/postgresql.md).
SERVER_TEXT_ENGINES: dict[str, dict[str, Any]] = {
    "fts5": {"available": True, "engine": "postgresql", "detail": "word postings and tsvector, scored as FTS5's bm25"},
    "trigram": {"available": True, "engine": "postgresql", "detail": "pg_trgm over titles and paths"},
}


PACK_NOT_BUILT = "core pack not built: run `kenning pack build`"
# The core pack is built on request (`kenning pack build`, SPEC §8), never by a sync: a fresh
# project has none, and that is a step to take, not a fault. The text says it on its own
# `core pack:` line, not among the `degraded:` ones (the cockpit leaves it out of its list);
# `degradations` (JSON) keeps it: a question about the project frame is answered by its words
# until the pack is built (answer.ask's `core pack not built`), a mode not in service.
PACK_NOT_BUILT_DEGRADATION = f"core_pack: {PACK_NOT_BUILT}"


def alarms(degradations: list[str]) -> list[str]:
    """The degradations a status shows as such: all but the core pack not built yet."""
    return [d for d in degradations if d != PACK_NOT_BUILT_DEGRADATION]


def engines() -> dict[str, dict[str, Any]]:
    """The lexical and dense engines this installation has, each with ``available`` and, when
    off, the reason (the graph and the core pack depend on the project: see below)."""
    found: dict[str, dict[str, Any]] = {}
    fts = store_status.full_text()
    if fts.available:
        found["fts5"] = {"available": True, "sqlite": fts.version}
        found["trigram"] = {"available": True}
    else:
        found["fts5"] = {"available": False, "reason": fts.reason}
        found["trigram"] = {"available": False, "reason": fts.reason}
    reason = dense.missing()
    found["dense"] = {"available": reason is None, **({"reason": reason} if reason else {})}
    return found


def parsers() -> dict[str, str]:
    """The parsers this installation reads files with, where it has a choice: Markdown's block
    reader (``ingest.markdown_blocks``; either cuts the same sections). Imported here, not
    at the top: a command that never reads a status does not load a parser."""
    from kenning.ingest import markdown_blocks

    return {"markdown": markdown_blocks.PARSER}


def ranking_sums() -> str:
    """What sums a question's long impact lists in a server (``store.impact_sum``): ``numpy``,
    or ``python`` where numpy cannot be imported (an install without its dependencies: the same
    answers, slower on a large store)."""
    from kenning.store import impact_sum

    return "numpy" if impact_sum.numpy_if_installed() is not None else "python"


def project_status(project: Project, database_url: str | None = None) -> dict[str, Any]:
    """``database_url`` (``KENNING_DATABASE_URL``, read by the interface) overrides the config's
    ``store``; with either, the PostgreSQL store is reported (level 2), or, unreachable, the
    local store is, with the degradation."""
    data: dict[str, Any] = {
        "project": project.name,
        "root": str(project.root),
        "level": 0,
        "confidential": project.config.confidential,
        "parsers": parsers(),
        "ranking_sums": ranking_sums(),
    }
    degradations: list[str] = []
    url = database_url or project.config.store
    server = _server_store(url, project) if url else None
    conn: Connection | None = None
    try:
        if server and server["available"]:
            conn = open_store(replace(project, config=replace(project.config, store=url)))
        elif server and server.get("outdated"):
            pass  # answers refuse until a sync migrates: nothing is served from the local file
        else:
            conn = connect(project.db_path)
    except IndexMissing:
        degradations.append(
            "index missing: run `kenning sync`"
            if not server or server["available"]
            else "nothing in service: the PostgreSQL store is out of reach and there is no local level-0 store"
        )
    try:
        data["engines"] = engines()
        if conn is None:
            data["index"] = {
                "files": 0,
                "facts": 0,
                "by_lifecycle": {},
                "replaced": 0,
                "by_type": {},
                "last_sync": None,
            }
        else:
            size = store_status.index_size(conn)
            data["index"] = {
                "files": size.files,
                "facts": size.facts,
                "by_lifecycle": size.by_lifecycle,
                "replaced": size.replaced,
                "by_type": size.by_type,
                "last_sync": size.last_sync,
                "schema_version": size.schema_version,
            }
        data["engines"]["dense"] = _dense_engine(conn, project, data["engines"]["dense"])
        if conn is not None and "embedders" in data["engines"]["dense"]:
            data["engines"]["dense"].update(store_status.vector_search(conn))
        data["level"] = 1 if data["engines"]["dense"]["available"] else 0
        data["engines"]["graph"] = _graph_engine(conn)
        data["engines"]["core_pack"] = _pack_engine(project)
        data["engines"]["store"] = server or {"available": True, "engine": "sqlite"}
        # False: the server cannot answer (out of reach, or an older schema) and no local store stands in
        data["in_service"] = not (server and not server["available"] and conn is None)
        if server and server["available"]:
            data["level"] = 2
            # this machine's SQLite FTS5 serves nothing here: what does, in its place
            data["engines"].update({name: dict(engine) for name, engine in SERVER_TEXT_ENGINES.items()})
            degradations.extend(f"postgresql: {server[key]}" for key in SERVER_GAPS if key in server)
        elif server and conn is not None:
            degradations.append("serving the local level-0 store instead of PostgreSQL")
    finally:
        if conn is not None:
            conn.close()
    degradations.extend(f"{name}: {e['reason']}" for name, e in data["engines"].items() if not e["available"])
    data["git_history"] = history_status(project, data["index"], in_service=data["in_service"])
    if data["git_history"]["degraded"]:
        degradations.append(data["git_history"]["reason"])
    data["degradations"] = degradations
    return data


# Why ``git_history`` is not read, when no sync could have read it yet, or when the store
# cannot say whether one did (``history_status``).
HISTORY_NOT_SYNCED = "git history not read: nothing indexed yet"
HISTORY_UNKNOWN = "git history not known: the store cannot answer"


def history_status(project: Project, index: dict[str, Any], *, in_service: bool = True) -> dict[str, Any]:
    """Whether the last sync read the project's git history, as ``state``: ``read`` (with the
    commits indexed), ``none`` (a project outside any repository has no history: said here,
    not in answers), ``not_read`` (history there but unreadable: ``git_history.HistoryProblem``,
    a degradation), ``not_synced`` (nothing indexed yet: no sync read it), or ``unknown`` (the
    store cannot answer: whether a sync read it cannot be told from here)."""
    found = git_history.problem(project.root)
    if found is not None:
        state = "not_read" if found.degrades else "none"
        return {"read": False, "state": state, "reason": found.value, "degraded": found.degrades}
    if not in_service:
        return {"read": False, "state": "unknown", "reason": HISTORY_UNKNOWN, "degraded": False}
    if not index["last_sync"]:
        return {"read": False, "state": "not_synced", "reason": HISTORY_NOT_SYNCED, "degraded": False}
    return {"read": True, "state": "read", "commits": index["by_type"].get("commit", 0), "degraded": False}


def _server_store(url: str, project: Project) -> dict[str, Any]:
    """The server's side of the status, read without migrating (a status writes nothing to a
    database the whole team shares; ``kenning sync`` migrates): unreachable, at an older
    schema (``outdated``: every answer refuses until a sync migrates), without kenning's schema
    yet, or in service with what it does otherwise than SQLite."""
    try:
        conn = pg.connect(url, project.name, migrate_schema=False, check_schema=False)
    except StoreUnavailable as exc:
        return {"available": False, "engine": "postgresql", "reason": str(exc)}
    try:
        problem = pg.schema_problem(conn)
        if isinstance(problem, StoreOutdated):
            return {
                "available": False,
                "engine": "postgresql",
                "outdated": True,
                "reason": f"{problem}: {problem.hint}",
            }
        made = problem is None  # else no kenning schema yet: the locale still tells
        checks = SERVER_GAPS.items() if made else [("case_folding", SERVER_GAPS["case_folding"])]
        gaps = {key: check(conn) for key, check in checks}
        return {
            "available": True,
            "engine": "postgresql",
            "facts": pg.fact_count(conn) if made else 0,
            "schema_version": pg.schema_version(conn) if made else 0,
            **{key: reason for key, reason in gaps.items() if reason},
        }
    finally:
        conn.close()


def _dense_engine(conn: Connection | None, project: Project, installed: dict[str, Any]) -> dict[str, Any]:
    if not installed["available"]:
        return installed
    if not dense.enabled(project):
        return {"available": False, "reason": dense.DISABLED}
    from kenning.dense import status  # the models: only with the dense extra installed

    return status.status(conn, project)


def _graph_engine(conn: Connection | None) -> dict[str, Any]:
    if conn is None:
        return {"available": False, "reason": "graph not built: no index"}
    nodes, edges = store_status.graph_size(conn)
    if not edges:
        if sources.synced(conn):
            return {"available": False, "reason": NO_RELATIONS}
        return {"available": False, "reason": "graph not built: no sync yet"}
    return {"available": True, "nodes": nodes, "edges": edges}


def _pack_engine(project: Project) -> dict[str, Any]:
    try:
        manifest = read_manifest(project.state_dir)
    except (OSError, ValueError) as exc:
        return {"available": False, "reason": f"core pack unreadable: {exc}"}
    if manifest is None:
        return {"available": False, "reason": PACK_NOT_BUILT}
    return {"available": True, "fingerprint": manifest.get("fingerprint")}
