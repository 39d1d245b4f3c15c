"""``store.graph_lookup`` on PostgreSQL: the same rules in the same order (``LIKE`` where SQLite
says ``GLOB``, both case-sensitive), rows as tuples in ``NODE_COLUMNS`` order; every query
filters on the handle's project. The lexical search over nodes ranks with ``ts_rank_cd``
(``store.postgres.fts``), negated: lower is better, as FTS5's bm25."""

from __future__ import annotations

from collections.abc import Sequence

from kenning.store.fold import fold
from kenning.store.postgres.connection import PgConnection
from kenning.store.postgres.fts import LENGTH_NORMALISATION
from kenning.store.postgres.fts_syntax import tsquery
from kenning.store.postgres.graph import NODE_COLUMNS, like

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_N = ", ".join(f"n.{c.strip()}" for c in NODE_COLUMNS.split(","))
# store.graph_lookup._SYMBOL_ORDER: files and top-level symbols before methods (a dot in the
# key's last part), then the shortest qualified name.
SYMBOL_ORDER = "(kind = 'symbol' AND regexp_replace(key, '^.*:', '') LIKE '%%.%%'), length(qualname), id"
LEXICAL_WEIGHTS = "{0.5,0.6,0.75,1.0}"  # SQLite's bm25 weights 2.0, 1.5, 1.2, 1.0 over 2: {D, C, B, A}


def first_rule(
    conn: PgConnection, rules: Sequence[tuple[str, str, tuple[Any, ...]]], limit: int
) -> tuple[list, str | None]:
    """The rows of the first rule ``(how, where, args)`` that finds any, and its ``how``."""
    for how, where, args in rules:
        rows = conn.execute(
            f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE project = %s AND {where} ORDER BY {SYMBOL_ORDER} LIMIT %s",
            (conn.project, *args, limit),
        ).fetchall()
        if rows:
            return [tuple(r) for r in rows], how
    return [], None


def exact_rules(raw: str, path: str, adr: int | None, cited: int | None) -> list[tuple[str, str, tuple[Any, ...]]]:
    """``store.graph_lookup.exact_nodes``'s rules, in its order."""
    rules: list[tuple[str, str, tuple[Any, ...]]] = [
        ("exact", "key = %s", (raw,)),
        *([("exact", "fact_id = %s", (cited,))] if cited is not None else []),
        ("path", "path = %s AND kind IN ('file', 'decision')", (path,)),
        ("exact", "name = %s AND kind IN ('decision', 'task', 'evidence', 'verdict')", (raw,)),
        *([("exact", "name = %s AND kind = 'decision'", (f"ADR-{adr:04d}",))] if adr is not None else []),
        ("exact", "qualname = %s AND kind IN ('symbol', 'file')", (raw,)),
        ("exact", "name = %s AND kind = 'symbol'", (raw,)),
        ("exact", "kind IN ('symbol', 'file') AND qualname LIKE %s", ("%." + like(raw),)),
    ]
    if len(raw) >= 7 and len(raw) <= 40 and all(c in "0123456789abcdef" for c in raw):
        rules.append(("exact", "kind = 'commit' AND key LIKE %s", (f"commit:{raw}%",)))
    if "/" in path or "." in path:
        rules.append(("path", "kind IN ('file', 'decision') AND path LIKE %s", ("%/" + like(path),)))
    rules += [
        ("exact", "lower(name) = lower(%s) AND kind IN ('decision', 'task', 'evidence', 'verdict', 'symbol')", (raw,)),
        ("exact", "kind IN ('symbol', 'file') AND lower(qualname) LIKE %s", ("%." + like(fold(raw)),)),
    ]
    return rules


def symbols_in_module(conn: PgConnection, name: str, module: str, limit: int) -> list[tuple[Any, ...]]:
    return conn.execute(
        f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE project = %s AND kind = 'symbol' AND name = %s AND path IN "
        "(SELECT f.path FROM graph_nodes f WHERE f.project = %s AND f.kind = 'file' AND f.qualname = %s) "
        f"ORDER BY {SYMBOL_ORDER} LIMIT %s",
        (conn.project, name, conn.project, module, limit),
    ).fetchall()


def symbols_named(conn: PgConnection, names: Sequence[str]) -> list[tuple[Any, ...]]:
    return conn.execute(
        f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE project = %s AND name = ANY(%s) AND kind = 'symbol' "
        f"ORDER BY {SYMBOL_ORDER}",
        (conn.project, list(names)),
    ).fetchall()


def symbol_names(conn: PgConnection, names: Sequence[str]) -> set[str]:
    rows = conn.execute(
        "SELECT DISTINCT name FROM graph_nodes WHERE project = %s AND name = ANY(%s) AND kind = 'symbol'",
        (conn.project, list(names)),
    ).fetchall()
    return {row[0] for row in rows}


def members_of(conn: PgConnection, owner: str) -> list[tuple[Any, ...]]:
    return conn.execute(
        f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE project = %s AND qualname LIKE %s AND kind = 'symbol' "
        "ORDER BY id",
        (conn.project, like(owner) + ".%"),
    ).fetchall()


def module_nodes(conn: PgConnection, word: str, limit: int) -> list[tuple[Any, ...]]:
    return conn.execute(
        f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE project = %s AND kind = 'file' AND (qualname = %s "
        "OR qualname LIKE %s OR path LIKE %s OR path LIKE %s) ORDER BY length(path), id LIMIT %s",
        (
            conn.project,
            word,
            "%." + like(word),
            "%" + like(word) + ".%",
            "%" + like(word) + "/" + like("__init__.py"),
            limit,
        ),
    ).fetchall()


def lexical_nodes(
    conn: PgConnection, match: str, kinds: Sequence[str], lifecycles: Sequence[str], limit: int
) -> list[tuple[Any, ...]]:
    """Node rows, each followed by its excerpt's score (lower is better), best first."""
    kind_sql = " AND n.kind = ANY(%s)" if kinds else ""
    return conn.execute(
        f"SELECT {_N}, -ts_rank_cd(%s::float4[], f.words, q, {LENGTH_NORMALISATION}) AS score "
        "FROM facts f CROSS JOIN to_tsquery('kenning_simple', %s) q JOIN graph_nodes n ON n.fact_id = f.id "
        f"WHERE f.project = %s AND n.project = %s AND f.words @@ q AND f.lifecycle = ANY(%s){kind_sql} "
        "ORDER BY score, n.kind = 'file', n.id LIMIT %s",
        (
            LEXICAL_WEIGHTS,
            tsquery(match),
            conn.project,
            conn.project,
            list(lifecycles),
            *([list(kinds)] if kinds else []),
            limit,
        ),
    ).fetchall()


def call_receivers(conn: PgConnection, edge_ids: Sequence[int]) -> list[tuple[int, bool, str | None]]:
    return conn.execute(
        "SELECT e.id, r.qualified, r.hint FROM graph_edges e JOIN graph_refs r ON r.id = e.ref_id "
        "WHERE e.project = %s AND e.id = ANY(%s)",
        (conn.project, list(edge_ids)),
    ).fetchall()


def unlinked_calls(conn: PgConnection, node_ids: Sequence[int], own: str) -> list[str]:
    rows = conn.execute(
        "SELECT DISTINCT r.target FROM graph_refs r WHERE r.project = %s AND r.src = ANY(%s) "
        "AND r.type = 'calls' AND r.qualified AND (r.hint IS NULL OR left(r.hint, %s) = %s) "
        "AND NOT EXISTS (SELECT 1 FROM graph_edges e WHERE e.project = r.project AND e.ref_id = r.id) "
        "ORDER BY 1",
        (conn.project, list(node_ids), len(own), own),
    ).fetchall()
    return [row[0] for row in rows]


def marked_test_facts(conn: PgConnection, fact_ids: Sequence[int]) -> set[int]:
    rows = conn.execute(
        "SELECT id FROM facts WHERE project = %s AND id = ANY(%s) AND (meta::jsonb -> 'test') = 'true'::jsonb",
        (conn.project, list(fact_ids)),
    ).fetchall()
    return {int(row[0]) for row in rows}


def refs_with_hint(conn: PgConnection, target_kind: str, text: str) -> list[int]:
    rows = conn.execute(
        "SELECT id FROM graph_refs WHERE project = %s AND target_kind = %s AND strpos(hint, %s) > 0 ORDER BY id",
        (conn.project, target_kind, text),
    ).fetchall()
    return [int(row[0]) for row in rows]


def commit_facts(conn: PgConnection, shas: Sequence[str]) -> dict[str, int]:
    rows = conn.execute(
        "SELECT key, fact_id FROM graph_nodes WHERE project = %s AND key = ANY(%s) AND fact_id IS NOT NULL",
        (conn.project, [f"commit:{sha}" for sha in shas]),
    ).fetchall()
    return {key.removeprefix("commit:"): int(fact_id) for key, fact_id in rows}
