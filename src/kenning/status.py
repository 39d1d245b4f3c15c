"""What is actually in service for a project: level, engines, index size, degradations."""

from __future__ import annotations

import sqlite3
from typing import Any

from kenning.errors import IndexMissing
from kenning.project import Project
from kenning.store.db import connect


def engines() -> dict[str, dict[str, Any]]:
    """The lexical and dense engines this installation has, each with ``available`` and, when
    off, the reason (the graph and the core pack depend on the project: see below)."""
    found: dict[str, dict[str, Any]] = {}
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='trigram')")
        found["fts5"] = {"available": True, "sqlite": sqlite3.sqlite_version}
        found["trigram"] = {"available": True}
    except sqlite3.OperationalError as exc:
        found["fts5"] = {"available": False, "reason": str(exc)}
        found["trigram"] = {"available": False, "reason": str(exc)}
    finally:
        probe.close()
    found["dense"] = {"available": False, "reason": "level 1 (dense retrieval) is not installed"}
    return found


def project_status(project: Project) -> dict[str, Any]:
    data: dict[str, Any] = {"project": project.name, "root": str(project.root), "level": 0,
                            "confidential": project.config.confidential}
    degradations: list[str] = []
    try:
        conn = connect(project.db_path)
    except IndexMissing:
        conn = None
        degradations.append("index missing: run `kenning sync`")
    try:
        data["engines"] = engines()
        if conn is None:
            data["index"] = {"files": 0, "facts": 0, "by_lifecycle": {}, "by_type": {}, "last_sync": None}
        else:
            data["index"] = {
                "files": conn.execute("SELECT count(*) FROM manifest").fetchone()[0],
                "facts": conn.execute("SELECT count(*) FROM facts").fetchone()[0],
                "by_lifecycle": dict(conn.execute("SELECT lifecycle, count(*) FROM facts GROUP BY 1 ORDER BY 1")),
                "by_type": dict(conn.execute("SELECT type, count(*) FROM facts WHERE lifecycle = 'active' "
                                             "GROUP BY 1 ORDER BY 1")),
                "last_sync": conn.execute("SELECT max(finished) FROM sync_runs").fetchone()[0],
                "schema_version": conn.execute("SELECT max(version) FROM schema_migrations").fetchone()[0],
            }
        data["engines"]["graph"] = _graph_engine(conn)
        data["engines"]["core_pack"] = _pack_engine(project)
    finally:
        if conn is not None:
            conn.close()
    degradations.extend(f"{name}: {e['reason']}" for name, e in data["engines"].items() if not e["available"])
    data["degradations"] = degradations
    return data


def _graph_engine(conn: sqlite3.Connection | None) -> dict[str, Any]:
    if conn is None:
        return {"available": False, "reason": "graph not built: no index"}
    edges = conn.execute("SELECT count(*) FROM graph_edges").fetchone()[0]
    if not edges:
        return {"available": False, "reason": "graph not built: no declared edge yet"}
    nodes = conn.execute("SELECT count(*) FROM graph_nodes").fetchone()[0]
    return {"available": True, "nodes": nodes, "edges": edges}


def _pack_engine(project: Project) -> dict[str, Any]:
    from kenning.pack.manifest import read_manifest

    try:
        manifest = read_manifest(project.state_dir)
    except (OSError, ValueError) as exc:
        return {"available": False, "reason": f"core pack unreadable: {exc}"}
    if manifest is None:
        return {"available": False, "reason": "core pack not built: run `kenning pack build`"}
    return {"available": True, "fingerprint": manifest.get("fingerprint")}
