"""SciFact (BEIR) with kenning's lexical search, beside the published BM25 figures.

Each abstract becomes a Markdown document (``# title`` then the text) in a throwaway project,
indexed by the product's own ``sync``; each claim is searched with the product's own
``search_conn`` (natural-language query construction, BM25 column weights, freshness check).

    python bench/scifact.py                 # 300 test queries (report these)
    python bench/scifact.py --split train   # 809 train queries (tune on these only)
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

from _common import DEFAULT_DATA, apply_weights, require, table, weights_option

PUBLISHED = [("BM25 (BEIR paper)", 0.665), ("BM25 flat (Pyserini)", 0.679), ("plain FTS5 BM25, porter (data README)", 0.687)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="shared bench folder (default: %(default)s)")
    parser.add_argument("--split", choices=("test", "train"), default="test")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    weights_option(parser)
    args = parser.parse_args(argv)
    root = args.data / "scifact"
    if not require(root / "corpus.jsonl", "SciFact corpus"):
        return 0

    from kenning.answer.search import SearchOptions, search_conn
    from kenning.bench.speed import quantile
    from kenning.clock import utc_now
    from kenning.config import init_project
    from kenning.sync.run import sync
    from kenning.search.query import parse
    from kenning.store.db import connect

    apply_weights(args.weights)
    qrels = _qrels(root / "qrels" / f"{args.split}.tsv")
    queries = {q["_id"]: q["text"] for q in _jsonl(root / "queries.jsonl") if q["_id"] in qrels}
    with tempfile.TemporaryDirectory(prefix="kenning-scifact-") as tmp:
        project_root = Path(tmp) / "scifact"
        docs = project_root / "docs"
        docs.mkdir(parents=True)
        count = 0
        for doc in _jsonl(root / "corpus.jsonl"):
            title = " ".join(doc["title"].split()) or doc["_id"]
            (docs / f"{doc['_id']}.md").write_text(f"# {title}\n\n{doc['text']}\n", encoding="utf-8")
            count += 1
        project, _ = init_project(project_root, "scifact")
        now = utc_now()
        started = time.perf_counter()
        report = sync(project, now=now)
        index_seconds = time.perf_counter() - started

        conn = connect(project.db_path)
        options = SearchOptions(limit=100)
        latencies: list[float] = []
        ndcg, recall, mrr = [], [], []
        for qid in sorted(queries, key=_numeric):
            started = time.perf_counter()
            answer = search_conn(conn, project, parse(queries[qid]), options, now=now)
            latencies.append(time.perf_counter() - started)
            ranked = _dedupe(Path(e.fact.source.uri.split("#")[0]).stem for e in answer.excerpts)
            relevant = qrels[qid]
            ndcg.append(_ndcg(ranked[:10], relevant))
            recall.append(len(set(ranked[:100]) & set(relevant)) / len(relevant))
            mrr.append(next((1 / r for r, d in enumerate(ranked[:10], 1) if d in relevant), 0.0))
        conn.close()

    figures = {
        "split": args.split,
        "queries": len(queries),
        "documents": count,
        "excerpts_indexed": report.added,
        "ndcg@10": _mean(ndcg),
        "recall@100": _mean(recall),
        "mrr@10": _mean(mrr),
        "index_seconds": round(index_seconds, 2),
        "query_ms_p50": round(quantile(latencies, 0.50) * 1000, 2),
        "query_ms_p95": round(quantile(latencies, 0.95) * 1000, 2),
    }
    print(f"SciFact {args.split}: {len(queries)} queries, {count} documents ({report.added} excerpts)")
    rows = [["kenning lexical", figures["ndcg@10"], figures["recall@100"], figures["mrr@10"]]]
    rows += [[name, value if args.split == "test" else None, None, None] for name, value in PUBLISHED]
    print(table(["system", "nDCG@10", "R@100", "MRR@10"], rows))
    print("modes: lexical measured; dense and hybrid absent (no embedding model at level 0)")
    if args.split != "test":
        print("published figures are for the test split only")
    print(
        f"index: {figures['index_seconds']} s for {count} documents; "
        f"query latency p50 {figures['query_ms_p50']} ms, p95 {figures['query_ms_p95']} ms"
    )
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


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
