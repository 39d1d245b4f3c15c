"""Reading the graph the way a relation question names things: exact names matched with
their case (a class ``Timeout`` is not the method ``timeout``), paths, ids, and a lexical
search restricted to the excerpts that carry graph nodes ("graph, then lexical over the
nodes found"). Rows are returned as tuples in ``NODE_COLUMNS`` order."""

from __future__ import annotations

import re
from collections.abc import Sequence

from kenning.store import fold
from kenning.store.db import in_batches
from kenning.store.graph import DEFINES_IDS, MIRROR_IDS
from kenning.store.handle import Connection
from kenning.store.postgres import graph_lookup as pg
from kenning.store.postgres.connection import is_pg

NODE_COLUMNS = "id, kind, key, name, qualname, path, line_start, line_end, fact_id"
_N = ", ".join(f"n.{c.strip()}" for c in NODE_COLUMNS.split(","))
_ADR = re.compile(r"^adr[-_ ]?0*(\d{1,5})$", re.I)
_CITATION = re.compile(r"^kn://[A-Za-z0-9._-]+/(\d+)$")
# Within one rule: files and top-level symbols before methods, then the shortest qualified name.
_SYMBOL_ORDER = (
    "(kind = 'symbol' AND instr(substr(key, length(rtrim(key, replace(key, ':', ''))) + 1), '.') > 0), "
    "length(qualname), id"
)


def glob_escape(text: str) -> str:
    return "".join(f"[{c}]" if c in "*?[]" else c for c in text)


def exact_nodes(conn: Connection, text: str, *, limit: int = 8) -> tuple[list[tuple], str | None]:
    """The nodes ``text`` names exactly, and how (``exact`` or ``path``): a key, a citation,
    a path, an ADR/task/evidence/verdict id, a qualified or short symbol name (case kept),
    a commit sha prefix, a path suffix; only then the same names ignoring case. The first
    rule that finds something wins."""
    raw = text.strip().strip("`'\"")
    if not raw:
        return [], None
    path = raw.removeprefix("./")
    adr = _ADR.match(raw)
    cited = _CITATION.match(raw)
    if is_pg(conn):
        rules_pg = pg.exact_rules(raw, path, int(adr.group(1)) if adr else None, int(cited.group(1)) if cited else None)
        return pg.first_rule(conn, rules_pg, limit)
    rules: list[tuple[str, str, tuple]] = [
        ("exact", "key = ?", (raw,)),
        *([("exact", "fact_id = ?", (int(cited.group(1)),))] if cited else []),
        ("path", "path = ? AND kind IN ('file', 'decision')", (path,)),
        ("exact", "name = ? AND kind IN ('decision', 'task', 'evidence', 'verdict')", (raw,)),
        *([("exact", "name = ? AND kind = 'decision'", (f"ADR-{int(adr.group(1)):04d}",))] if adr else []),
        ("exact", "qualname = ? AND kind IN ('symbol', 'file')", (raw,)),
        ("exact", "name = ? AND kind = 'symbol'", (raw,)),
        ("exact", "kind IN ('symbol', 'file') AND qualname GLOB ?", ("*." + glob_escape(raw),)),
    ]
    if re.fullmatch(r"[0-9a-f]{7,40}", raw):
        rules.append(("exact", "kind = 'commit' AND key GLOB ?", (f"commit:{raw}*",)))
    if "/" in path or "." in path:
        rules.append(("path", "kind IN ('file', 'decision') AND path GLOB ?", ("*/" + glob_escape(path),)))
    folded = fold.fold(raw)
    rules += [
        (
            "exact",
            f"{fold.equal_sql('name')} AND kind IN ('decision', 'task', 'evidence', 'verdict', 'symbol')",
            (folded,),
        ),
        ("exact", f"kind IN ('symbol', 'file') AND {fold.sql('qualname')} GLOB ?", ("*." + glob_escape(folded),)),
    ]
    for how, where, args in rules:
        rows = conn.execute(
            f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE {where} ORDER BY {_SYMBOL_ORDER} LIMIT ?", (*args, limit)
        ).fetchall()
        if rows:
            return [tuple(r) for r in rows], how
    return [], None


def symbols_in_module(conn: Connection, name: str, module: str, *, limit: int = 8) -> list[tuple]:
    """The symbols named ``name`` in the files whose qualified name is ``module`` (Go's
    ``go:security``: ``answer.naming`` asks so for ``security.RandomString``)."""
    if is_pg(conn):
        return pg.symbols_in_module(conn, name, module, limit)
    return [
        tuple(r)
        for r in conn.execute(
            f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE kind = 'symbol' AND name = ? AND path IN "
            f"(SELECT path FROM graph_nodes WHERE kind = 'file' AND qualname = ?) ORDER BY {_SYMBOL_ORDER} LIMIT ?",
            (name, module, limit),
        )
    ]


def symbols_named(conn: Connection, names: Sequence[str]) -> list[tuple]:
    """The symbols whose short name is one of ``names`` (case kept), by the name index, each name's
    most specific first (``answer.naming`` asks so for the names a question's words spell)."""
    if not names:
        return []
    if is_pg(conn):
        return [tuple(r) for r in pg.symbols_named(conn, names)]
    marks = ",".join("?" * len(names))
    return [
        tuple(r)
        for r in conn.execute(
            f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE name IN ({marks}) AND kind = 'symbol' "
            f"ORDER BY {_SYMBOL_ORDER}",
            list(names),
        )
    ]


def symbol_names(conn: Connection, names: Sequence[str]) -> set[str]:
    """Those of ``names`` (case kept) that some symbol of the graph is named, by the name index."""
    if not names:
        return set()
    if is_pg(conn):
        return pg.symbol_names(conn, names)
    marks = ",".join("?" * len(names))
    rows = conn.execute(
        f"SELECT DISTINCT name FROM graph_nodes WHERE name IN ({marks}) AND kind = 'symbol'", list(names)
    )
    return {row[0] for row in rows}


def members_of(conn: Connection, owner: str) -> list[tuple]:
    """The symbols directly under ``owner`` (``Square``: ``Square.Area``, not ``Square.Area.inner``),
    in any file, by the qualified name index."""
    if is_pg(conn):
        rows = pg.members_of(conn, owner)
    else:
        rows = conn.execute(
            f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE qualname GLOB ? AND kind = 'symbol' ORDER BY id",
            (glob_escape(owner) + ".*",),
        ).fetchall()
    return [tuple(r) for r in rows if "." not in r[4][len(owner) + 1 :]]


def module_nodes(conn: Connection, word: str, *, limit: int = 4) -> list[tuple]:
    """File nodes a plain word names as a module: ``config`` → ``pkg/config.py``,
    ``pkg/_config.py`` or ``pkg/config/__init__.py`` (case kept)."""
    if is_pg(conn):
        return [tuple(r) for r in pg.module_nodes(conn, word, limit) if _stem_is(r[5] or "", word)]
    rows = conn.execute(
        f"SELECT {NODE_COLUMNS} FROM graph_nodes WHERE kind = 'file' AND (qualname = ? OR qualname GLOB ? "
        "OR path GLOB ? OR path GLOB ?) ORDER BY length(path), id LIMIT ?",
        (
            word,
            "*." + glob_escape(word),
            "*" + glob_escape(word) + ".*",
            "*" + glob_escape(word) + "/__init__.py",
            limit,
        ),
    ).fetchall()
    return [tuple(r) for r in rows if _stem_is(r[5] or "", word)]


def _stem_is(path: str, word: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    if name == "__init__.py":
        name = path.rsplit("/", 2)[-2] if path.count("/") else ""
    return name.split(".", 1)[0].lstrip("_") == word.lstrip("_")


def lexical_nodes(
    conn: Connection, match: str, *, kinds: Sequence[str] = (), lifecycles: Sequence[str] = ("active",), limit: int = 5
) -> list[tuple[tuple, float]]:
    """The best excerpts for an FTS5 ``match`` among those that carry graph nodes (of
    ``kinds`` when given), each node with its excerpt's BM25 score (lower is better). A file
    whose first excerpt is a definition carries it with that definition's node: the definition,
    the more precise, comes first."""
    if is_pg(conn):
        return _first_per_node(pg.lexical_nodes(conn, match, kinds, lifecycles, limit * 4), limit)
    kind_sql = f" AND n.kind IN ({','.join('?' * len(kinds))})" if kinds else ""
    life_sql = ",".join("?" * len(lifecycles))
    rows = conn.execute(
        f"SELECT {_N}, bm25(facts_fts, 2.0, 1.5, 1.2, 1.0) AS score FROM facts_fts "
        f"JOIN facts f ON f.id = facts_fts.rowid JOIN graph_nodes n ON n.fact_id = f.id "
        f"WHERE facts_fts MATCH ? AND f.lifecycle IN ({life_sql}){kind_sql} "
        "ORDER BY score, n.kind = 'file', n.id LIMIT ?",
        (match, *lifecycles, *kinds, limit * 4),
    ).fetchall()
    return _first_per_node(rows, limit)


def _first_per_node(rows: Sequence[Sequence], limit: int) -> list[tuple[tuple, float]]:
    out: list[tuple[tuple, float]] = []
    seen: set[int] = set()
    for row in rows:
        if row[0] in seen:
            continue
        seen.add(row[0])
        out.append((tuple(row[:9]), float(row[9])))
    return out[:limit]


def call_receivers(conn: Connection, edge_ids: Sequence[int]) -> dict[int, tuple[bool, str | None]]:
    """How each ``calls`` edge's call was written: whether on an attribute (``obj.name()``), and
    its reference's hint (the module or imported name it was written on, or a self call's
    classes); what they say is the answer layer's to read (``answer.relations``)."""
    if is_pg(conn):
        return {int(eid): (bool(qualified), hint) for eid, qualified, hint in pg.call_receivers(conn, edge_ids)}
    found: dict[int, tuple[bool, str | None]] = {}
    # A test's ``tested_by`` SQLite derives is read as the call it mirrors (``MIRROR_IDS``).
    stored: dict[int, list[int]] = {}
    for eid in edge_ids:
        stored.setdefault(eid - MIRROR_IDS if MIRROR_IDS <= eid < DEFINES_IDS else eid, []).append(eid)
    ids = list(stored)
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        for eid, qualified, hint in conn.execute(
            "SELECT e.id, r.qualified, r.hint FROM graph_edges e JOIN graph_refs r ON r.id = e.ref_id "
            f"WHERE e.id IN ({','.join('?' * len(chunk))})",
            chunk,
        ):
            for asked in stored[int(eid)]:
                found[asked] = (bool(qualified), hint)
    return found


def unlinked_calls(conn: Connection, node_ids: Sequence[int], own: str) -> list[str]:
    """The names ``node_ids`` call on a receiver no import explains (``obj.get()``, or
    ``self.get()`` — a hint beginning with ``own`` — when the class does not define it) whose
    call gave no edge, sorted: a name too many methods share, or none does."""
    ids = list(node_ids)
    if not ids:
        return []
    if is_pg(conn):
        return pg.unlinked_calls(conn, ids, own)
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        found.update(
            row[0]
            for row in conn.execute(
                "SELECT DISTINCT r.target FROM graph_refs r WHERE r.src IN "
                f"({','.join('?' * len(chunk))}) AND r.type = 'calls' AND r.qualified = 1 "
                "AND (r.hint IS NULL OR substr(r.hint, 1, ?) = ?) "
                "AND NOT EXISTS (SELECT 1 FROM graph_edges e WHERE e.ref_id = r.id)",
                (*chunk, len(own), own),
            )
        )
    return sorted(found)


def marked_test_facts(conn: Connection, fact_ids: Sequence[int]) -> set[int]:
    """Which of ``fact_ids`` are test code by their parser's word (``meta.test``: a Rust ``#[test]``
    in the file it tests, a test a macro defines), whatever their file's path
    (``search.factors.is_test_code`` reads the same from a fact)."""
    if not fact_ids:
        return set()
    if is_pg(conn):
        return pg.marked_test_facts(conn, fact_ids)
    found: set[int] = set()
    for chunk in in_batches(fact_ids):
        marks = ",".join("?" * len(chunk))
        query = f"SELECT id FROM facts WHERE id IN ({marks}) AND json_extract(meta, '$.test') IS 1"
        found.update(int(row[0]) for row in conn.execute(query, chunk))
    return found


def refs_with_hint(conn: Connection, target_kind: str, text: str) -> list[int]:
    """Ids of the references of ``target_kind`` whose hint holds ``text`` (case kept; empty: every
    one with a hint), ascending: ``graph.inheritance`` reads every ``bases`` reference so."""
    if is_pg(conn):
        return pg.refs_with_hint(conn, target_kind, text)
    rows = conn.execute(
        "SELECT id FROM graph_refs WHERE target_kind = ? AND instr(hint, ?) > 0 ORDER BY id", (target_kind, text)
    )
    return [int(row[0]) for row in rows]


def commit_facts(conn: Connection, shas: Sequence[str]) -> dict[str, int]:
    """The fact of each commit of ``shas`` the store holds (its graph node's), by full id."""
    if is_pg(conn):
        return pg.commit_facts(conn, shas)
    found: dict[str, int] = {}
    for chunk in in_batches([f"commit:{sha}" for sha in shas]):
        marks = ",".join("?" * len(chunk))
        query = f"SELECT key, fact_id FROM graph_nodes WHERE key IN ({marks}) AND fact_id IS NOT NULL"
        found.update((key.removeprefix("commit:"), int(fact_id)) for key, fact_id in conn.execute(query, chunk))
    return found
