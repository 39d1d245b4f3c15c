"""Where the time of a lexical query goes (not a test): the figures behind the "Queries"
paragraph of docs/benchmarks.md.

On the generated corpus of bench/speed.py (or a smaller one), for each bench query with
words: how many excerpts match, and the median time of
- counting the matches (FTS5 walks the index, no ranking),
- ``ORDER BY rank`` with the table's default rank (what the product used before),
- ``ORDER BY bm25(facts_fts, <weights>)`` (the plain query, what it used before the top-k),
- the exact top-k of ``store/fts_topk.py`` (what it uses now: the best 20, pool 20 at limit 10)
  and how many rows it scored (its statements rerun as counts),
- the same for random queries of common code words, where pruning pays least,
the product's whole search against its ranking alone (what assembling the answer costs),
then the same plain bm25 query with ``mmap``, after merging the index into one segment
(``optimize``), and split by rowid over two threads on two connections.

    .venv/bin/python bench/query_cost.py [--markdown 2000 --python 2000] [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sqlite3
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from kenning.config import init_project
from kenning.search.lexical import WEIGHTS
from kenning.search.query import parse
from kenning.store import bodies
from kenning.store import fts_topk as topk
from kenning.store.fts import OVERFETCH, word_index
from kenning.sync.run import sync
from speed import QUERIES, generate

POOL = 20  # what search asks for at limit 10 (answer/search.py: pool = max(20, 2 × limit))
PAGE = POOL * OVERFETCH  # what the plain query asked FTS5 for (over-fetched for the filters)
WORD_INDEX = word_index(WEIGHTS)
BM25 = WORD_INDEX.scoring


def median_ms(work: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def ranked(conn: sqlite3.Connection, order: str, match: str, where: str = "", args: tuple = ()) -> list:
    return conn.execute(
        f"SELECT rowid, {order} AS s FROM facts_fts WHERE facts_fts MATCH ? {where} ORDER BY s LIMIT {PAGE}",
        (match, *args),
    ).fetchall()


def per_query(conn: sqlite3.Connection, matches: list[str], runs: int) -> list[dict[str, float]]:
    rows = []
    for match in matches:
        count = conn.execute("SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?", (match,)).fetchone()[0]
        rows.append(
            {
                "matches": count,
                "count_ms": median_ms(
                    lambda match=match: conn.execute(
                        "SELECT count(*) FROM facts_fts WHERE facts_fts MATCH ?", (match,)
                    ).fetchone(),
                    runs,
                ),
                "rank_ms": median_ms(lambda match=match: ranked(conn, "rank", match), runs),
                "bm25_ms": median_ms(lambda match=match: ranked(conn, BM25, match), runs),
                "topk_ms": median_ms(lambda match=match: topk.best(conn, WORD_INDEX, match, POOL, spare=PAGE), runs),
                "scored": scored_rows(conn, match),
            }
        )
        assert topk.best(conn, WORD_INDEX, match, POOL) == topk.plain(conn, WORD_INDEX, match, POOL), match
    return rows


def scored_rows(conn: sqlite3.Connection, match: str) -> int:
    """Rows the top-k scored for ``match``: each of its ranking statements rerun as a count."""
    seen: list[str] = []
    conn.set_trace_callback(seen.append)
    topk.best(conn, WORD_INDEX, match, POOL, spare=PAGE)
    conn.set_trace_callback(None)
    total = 0
    for sql in (s for s in seen if "bm25(" in s):
        counting = re.sub(r"SELECT rowid, bm25\([^)]*\) AS s FROM", "SELECT count(*) FROM", sql, count=1)
        total += conn.execute(re.sub(r" ORDER BY s, rowid LIMIT \d+$", "", counting)).fetchone()[0]
    return total


# Words of the generated Python files' bodies and names: in a fifth to two thirds of the rows,
# often together (and `items` stems like `item`): where pruning pays least.
COMMON_WORDS = [
    "item",
    "items",
    "result",
    "total",
    "return",
    "value",
    "limit",
    "self",
    "key",
    "none",
    "sorted",
    "append",
    "range",
    "def",
    "module",
    "class",
]


def common_words(conn: sqlite3.Connection, runs: int, count: int = 40) -> list[float]:
    """Top-k time over plain bm25 time for ``count`` random queries of 2 to 4 common words (the
    two timed in turn, so that the machine's drift falls on both)."""
    rng = random.Random(5)
    ratios = []
    for _ in range(count):
        match = " OR ".join(f'"{w}"' for w in rng.sample(COMMON_WORDS, rng.randint(2, 4)))
        plain, pruned = [], []
        for _ in range(runs):
            plain.append(median_ms(lambda match=match: topk.plain(conn, WORD_INDEX, match, PAGE), 1))
            pruned.append(median_ms(lambda match=match: topk.best(conn, WORD_INDEX, match, POOL, spare=PAGE), 1))
        ratios.append(statistics.median(pruned) / statistics.median(plain))
        assert topk.best(conn, WORD_INDEX, match, POOL) == topk.plain(conn, WORD_INDEX, match, POOL), match
    return ratios


def bm25_total(conn: sqlite3.Connection, matches: list[str], runs: int) -> float:
    return sum(median_ms(lambda m=m: ranked(conn, BM25, m), runs) for m in matches)


def two_threads_total(db: Path, matches: list[str], runs: int) -> float:
    """Each query split at the middle rowid, the halves ranked at once on two connections
    (bm25 statistics are the whole table's either way), then merged."""
    conns = [sqlite3.connect(db, check_same_thread=False) for _ in range(2)]
    for conn in conns:  # the word index's content view reads bodies through kenning's functions
        bodies.register(conn)
    low, high = conns[0].execute("SELECT min(rowid), max(rowid) FROM facts_fts").fetchone()
    middle = (low + high) // 2
    halves = [("AND rowid <= ?", (middle,)), ("AND rowid > ?", (middle,))]

    def split(match: str) -> list:
        found: list[list] = [[], []]
        threads = [
            threading.Thread(target=lambda i=i: found.__setitem__(i, ranked(conns[i], BM25, match, *halves[i])))
            for i in range(2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return sorted(found[0] + found[1], key=lambda r: r[1])[:PAGE]

    total = sum(median_ms(lambda m=m: split(m), runs) for m in matches)
    for conn in conns:
        conn.close()
    return total


def assembly(project, runs: int) -> tuple[float, float]:
    """Median per bench query of the product's whole search (``search_conn``: ranking, then
    reading the pool's facts, their freshness and the snippets) and of the ranking alone
    (``lexical.search``, same pool), summed over the queries."""
    from kenning.search.lexical import Filters, search
    from kenning.search.serve import MIN_POOL, SearchOptions, search_conn
    from kenning.store.db import connect

    conn = connect(project.db_path)
    now = datetime.now(UTC)
    parsed = [parse(q) for q in QUERIES]
    whole = sum(
        median_ms(lambda p=p: search_conn(conn, project, p, SearchOptions(limit=10), now=now), runs) for p in parsed
    )
    ranking = sum(median_ms(lambda p=p: search(conn, p, Filters(), MIN_POOL), runs) for p in parsed)
    conn.close()
    return whole, ranking


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--markdown", type=int, default=2000)
    parser.add_argument("--python", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    os.environ.setdefault("KENNING_HOME", tempfile.mkdtemp(prefix="kenning-bench-home-"))
    with tempfile.TemporaryDirectory(prefix="kenning-query-cost-") as tmp:
        root = Path(tmp) / "corpus"
        root.mkdir()
        generate(root, args.markdown, args.python)
        project, _ = init_project(root, "bench")
        sync(project, now=datetime.now(UTC))
        matches = [m for m in (parse(q).fts for q in QUERIES) if m]
        conn = sqlite3.connect(project.db_path, isolation_level=None)
        excerpts = conn.execute("SELECT count(*) FROM facts").fetchone()[0]
        rows = per_query(conn, matches, args.runs)
        print(
            f"corpus: {args.markdown} Markdown + {args.python} Python files, {excerpts} excerpts; "
            f"median of {args.runs} runs; load average {os.getloadavg()[0]:.2f}"
        )
        print(
            f"{'query':42} {'matches':>8} {'count ms':>9} {'rank ms':>8} {'bm25 ms':>8} {'bm25 µs/row':>12} "
            f"{'top-k ms':>9} {'scored':>7}"
        )
        for match, row in zip(matches, rows, strict=True):
            per_row = 1000 * row["bm25_ms"] / row["matches"] if row["matches"] else float("nan")
            print(
                f"{match[:42]:42} {row['matches']:8} {row['count_ms']:9.2f} {row['rank_ms']:8.2f} "
                f"{row['bm25_ms']:8.2f} {per_row:12.2f} {row['topk_ms']:9.2f} {row['scored']:7}"
            )
        ranked_rows = [r for r in rows if r["matches"] >= 1000]
        total = {k: sum(r[k] for r in rows) for k in ("count_ms", "rank_ms", "bm25_ms", "topk_ms", "matches", "scored")}
        print(
            f"all queries: count {total['count_ms']:.1f} ms, ORDER BY rank {total['rank_ms']:.1f} ms, "
            f"ORDER BY bm25() {total['bm25_ms']:.1f} ms (bm25 / rank = {total['bm25_ms'] / total['rank_ms']:.2f}), "
            f"exact top-k {total['topk_ms']:.1f} ms (top-k / bm25 = {total['topk_ms'] / total['bm25_ms']:.2f}; "
            f"rows scored {total['scored']:,} of {total['matches']:,}; same rows, order and scores as bm25)"
        )
        if ranked_rows:
            rank_cost = statistics.median(1000 * r["bm25_ms"] / r["matches"] for r in ranked_rows)
            count_cost = statistics.median(1000 * r["count_ms"] / r["matches"] for r in ranked_rows)
            print(
                f"queries matching 1,000+ excerpts: bm25 {rank_cost:.2f} µs a row, counting {count_cost:.2f} µs a row"
            )

        ratios = common_words(conn, 5)
        print(
            f"{len(ratios)} random queries of 2-4 common code words ({', '.join(COMMON_WORDS)}): top-k / bm25 "
            f"median {statistics.median(ratios):.2f}, worst {max(ratios):.2f}, "
            f"{sum(r > 1 for r in ratios)} slower (median of 5 runs each)"
        )

        whole, ranking = assembly(project, args.runs)
        print(
            f"product search (search_conn, limit 10) over the {len(QUERIES)} queries: {whole:.1f} ms, of which "
            f"ranking (lexical.search) {ranking:.1f} ms and answer assembly (facts, freshness, snippets) "
            f"{whole - ranking:.1f} ms = {(whole - ranking) / len(QUERIES):.2f} ms a query"
        )

        base = bm25_total(conn, matches, args.runs)
        conn.execute("PRAGMA mmap_size = 1000000000")
        mapped = bm25_total(conn, matches, args.runs)
        conn.close()
        threads = two_threads_total(project.db_path, matches, args.runs)
        merged_db = Path(tmp) / "optimized.db"
        shutil.copy(project.db_path, merged_db)
        merged = sqlite3.connect(merged_db)
        merged.execute("INSERT INTO facts_fts (facts_fts) VALUES ('optimize')")
        merged.commit()
        optimized = bm25_total(merged, matches, args.runs)
        merged.close()
        print(
            f"bm25 over all queries: {base:.1f} ms; with mmap {mapped:.1f} ms ({base / mapped:.2f}×); "
            f"index merged by optimize {optimized:.1f} ms ({base / optimized:.2f}×); "
            f"split over two threads {threads:.1f} ms ({base / threads:.2f}×)"
        )


if __name__ == "__main__":
    main()
