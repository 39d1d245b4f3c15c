"""SciFact (BEIR) with kenning's lexical, dense and hybrid search, beside the published BM25 figures.

Each abstract becomes a Markdown document (``# title`` then the text) in a throwaway project,
indexed by the product's own ``sync``; each claim is searched with the product's own
``search_conn`` (natural-language query construction, BM25 column weights, freshness check).

    python bench/scifact.py                 # 300 test queries (report these)
    python bench/scifact.py --split train   # 809 train queries (tune on these only)
    python bench/scifact.py --mode all --keep /tmp/scifact   # lexical, dense, hybrid (needs kenning[dense]);
                                            # --keep reuses the store (and its vectors) across runs
    python bench/scifact.py --split train --mode all --sweep  # fusion settings tried on train (bench/_fusion.py)

Dense modes cache the passages' embeddings outside the repository, in --cache (default
/tmp/kenning-bench-cache; 'none' turns it off): embedding the corpus takes minutes, a cached
run seconds. Questions are always embedded.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from _common import (
    DEFAULT_DATA,
    apply_weights,
    cache_embeddings,
    cache_option,
    relax_query_budget,
    require,
    table,
    weights_option,
)

PUBLISHED = [
    ("BM25 (BEIR paper)", 0.665),
    ("BM25 flat (Pyserini)", 0.679),
    ("plain FTS5 BM25, porter (data README)", 0.687),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="shared bench folder (default: %(default)s)")
    parser.add_argument("--split", choices=("test", "train"), default="test")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--mode", choices=("lexical", "dense", "hybrid", "all"), default="lexical")
    parser.add_argument("--keep", type=Path, help="project folder kept between runs (vectors are reused)")
    parser.add_argument("--sweep", action="store_true", help="train only: try the fusion settings of bench/_fusion.py")
    weights_option(parser)
    cache_option(parser)
    args = parser.parse_args(argv)
    if args.sweep and args.split == "test":
        raise SystemExit("--sweep tunes: run it on --split train only")
    root = args.data / "scifact"
    if not require(root / "corpus.jsonl", "SciFact corpus"):
        return 0

    from kenning.clock import utc_now
    from kenning.config import init_project, load_project
    from kenning.store.db import connect
    from kenning.sync.run import sync

    apply_weights(args.weights)
    relax_query_budget()
    if args.mode != "lexical":
        cache_embeddings(args.cache)
    qrels = _qrels(root / "qrels" / f"{args.split}.tsv")
    queries = {q["_id"]: q["text"] for q in _jsonl(root / "queries.jsonl") if q["_id"] in qrels}
    modes = ("lexical", "dense", "hybrid") if args.mode == "all" else (args.mode,)
    with tempfile.TemporaryDirectory(prefix="kenning-scifact-") as tmp:
        project_root = args.keep or Path(tmp) / "scifact"
        docs = project_root / "docs"
        docs.mkdir(parents=True, exist_ok=True)
        count = 0
        for doc in _jsonl(root / "corpus.jsonl"):
            title = " ".join(doc["title"].split()) or doc["_id"]
            target = docs / f"{doc['_id']}.md"
            if not target.exists():
                target.write_text(f"# {title}\n\n{doc['text']}\n", encoding="utf-8")
            count += 1
        project, _ = init_project(project_root, "scifact")
        config = project.state_dir / "config.toml"
        text = config.read_text(encoding="utf-8").split("\n[dense]")[0]
        dense = (
            "enabled = false"
            if modes == ("lexical",)  # a lexical run times the lexical sync alone
            else "budget_seconds = 100000\nmultilingual = false"
        )  # the whole corpus, English questions
        config.write_text(f"{text}\n[dense]\n{dense}\n", encoding="utf-8")
        project = load_project(project_root)
        now = utc_now()
        started = time.perf_counter()
        report = sync(project, now=now, progress=None if modes == ("lexical",) else _progress)
        index_seconds = time.perf_counter() - started
        print(f"sync: {index_seconds:.1f} s, dense: {json.dumps(report.dense)}", file=sys.stderr)

        conn = connect(project.db_path)
        figures = {
            "split": args.split,
            "queries": len(queries),
            "documents": count,
            "index_seconds": round(index_seconds, 2),
            "dense": report.dense,
            "modes": {},
        }
        kept_lists: dict[str, dict[str, list[int]]] = {}
        for mode in modes:
            figures["modes"][mode] = _run(conn, project, queries, qrels, mode, now, kept_lists)
        if args.sweep:
            figures["sweep"] = _sweep(conn, project, queries, qrels, now)
        conn.close()

    print(f"SciFact {args.split}: {len(queries)} queries, {count} documents")
    rows = [
        [f"kenning {m}", f["ndcg@10"], f["recall@100"], f["mrr@10"], f["query_ms_p50"], f["query_ms_p95"]]
        for m, f in figures["modes"].items()
    ]
    rows += [[name, value if args.split == "test" else None, None, None, None, None] for name, value in PUBLISHED]
    print(table(["system", "nDCG@10", "R@100", "MRR@10", "p50 ms", "p95 ms"], rows))
    if args.split != "test":
        print("published figures are for the test split only")
    print(f"index: {figures['index_seconds']} s for {count} documents (sync, with dense when a dense mode runs)")
    if "sweep" in figures:
        _print_sweep(figures["sweep"])
        for row in figures["sweep"]:
            del row["per_query"]
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


def _print_sweep(results: list[dict]) -> None:
    """The sweep's settings, best first, each with its paired bootstrap interval against the
    product's default (2,000 resamples of the queries, seed 7)."""
    import random

    base = results[0]["per_query"]
    rng = random.Random(7)
    n = len(base)
    samples = [[rng.randrange(n) for _ in range(n)] for _ in range(2000)]
    print(f"fusion sweep ({len(results)} settings), best first; Δ against {results[0]['fusion']}:")
    for row in sorted(results, key=lambda r: -r["ndcg@10"]):
        diffs = [a - b for a, b in zip(row["per_query"], base, strict=True)]
        means = sorted(sum(diffs[i] for i in s) / n for s in samples)
        low, high = means[50], means[1949]
        print(f"sweep {row['fusion']}: ndcg@10={row['ndcg@10']} Δ={sum(diffs) / n:+.4f} [{low:+.4f}, {high:+.4f}]")


def _progress(phase: str, done: int, total: int) -> None:
    if phase.startswith("embedding") and (done % 640 < 32 or done == total):
        print(f"{phase}: {done}/{total}", file=sys.stderr, flush=True)


def _run(conn, project, queries, qrels, mode, now, kept_lists) -> dict:
    from kenning.bench.speed import quantile
    from kenning.dense import index as dense_index
    from kenning.search import hybrid
    from kenning.search.query import parse
    from kenning.search.serve import SearchOptions, search_conn

    options = SearchOptions(limit=100)
    latencies: list[float] = []
    ndcg, recall, mrr = [], [], []
    embedder = dense_index.embedders(project)["minilm"] if mode != "lexical" else None
    for qid in sorted(queries, key=_numeric):
        started = time.perf_counter()
        if mode == "lexical":
            answer = search_conn(conn, project, parse(queries[qid]), options, now=now)
        else:
            answer = hybrid.search(conn, project, parse(queries[qid]), options, now=now, embedder=embedder, mode=mode)
        latencies.append(time.perf_counter() - started)
        kept_lists.setdefault(qid, {})[mode] = [e.fact.id for e in answer.excerpts]
        ranked = _dedupe(Path(e.fact.source.uri.split("#")[0]).stem for e in answer.excerpts)
        relevant = qrels[qid]
        ndcg.append(_ndcg(ranked[:10], relevant))
        recall.append(len(set(ranked[:100]) & set(relevant)) / len(relevant))
        mrr.append(next((1 / r for r, d in enumerate(ranked[:10], 1) if d in relevant), 0.0))
    return {
        "ndcg@10": _mean(ndcg),
        "recall@100": _mean(recall),
        "mrr@10": _mean(mrr),
        "query_ms_p50": round(quantile(latencies, 0.50) * 1000, 2),
        "query_ms_p95": round(quantile(latencies, 0.95) * 1000, 2),
    }


def _sweep(conn, project, queries, qrels, now) -> list[dict]:
    """Every fusion setting of ``_fusion.grid()`` replayed on each claim's lists (train only)."""
    from _fusion import collect, grid, label, replay
    from kenning.dense import index as dense_index
    from kenning.search.query import parse
    from kenning.search.serve import SearchOptions

    embedder = dense_index.embedders(project)["minilm"]
    lists = {
        qid: collect(conn, project, embedder, parse(queries[qid]), SearchOptions(limit=10), now) for qid in queries
    }
    ids = {i for found in lists.values() for i in [*found.cosine, *(k for k, _ in found.lexical)]}
    docs = {fact.id: Path(fact.source.uri.split("#")[0]).stem for fact in _all_facts(conn, project, ids)}
    results = []
    for fusion in grid():
        scores = [
            _ndcg(_dedupe(docs[key] for key in replay(found, fusion))[:10], qrels[qid]) for qid, found in lists.items()
        ]
        results.append({"fusion": label(fusion), "ndcg@10": _mean(scores), "per_query": scores})
    return results


def _all_facts(conn, project, ids):
    from kenning.store import facts as fact_store

    return fact_store.get_many(conn, project.name, sorted(ids)).values()


def _jsonl(path: Path):
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def _qrels(path: Path) -> dict[str, dict[str, int]]:
    found: dict[str, dict[str, int]] = defaultdict(dict)
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        parts = line.split("\t")
        if n == 0 and parts[0] == "query-id":
            continue
        if len(parts) >= 3 and int(parts[2]) > 0:
            found[parts[0]][parts[1]] = int(parts[2])
    return dict(found)


def _dedupe(ids) -> list[str]:
    seen: dict[str, None] = {}
    for i in ids:
        seen.setdefault(i, None)
    return list(seen)


def _ndcg(ranked: list[str], relevant: dict[str, int]) -> float:
    dcg = sum(relevant.get(d, 0) / math.log2(r + 1) for r, d in enumerate(ranked, 1))
    ideal = sorted(relevant.values(), reverse=True)[:10]
    idcg = sum(g / math.log2(r + 1) for r, g in enumerate(ideal, 1))
    return dcg / idcg if idcg else 0.0


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def _numeric(qid: str) -> tuple[int, str]:
    return (int(qid), qid) if qid.isdigit() else (0, qid)


if __name__ == "__main__":
    sys.exit(main())
