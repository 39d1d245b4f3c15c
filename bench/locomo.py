"""LoCoMo evidence recall with kenning's lexical, dense and hybrid search, beside the published DRAGON figures.

Each conversation goes into its own throwaway kenning store, written through the product's
agent-memory path (``memory.observations.save``): each session is an agent session opened
at its date, each turn an observation saved in it and dated by it, its title carrying the
speaker and the session date, its body the text plus the image caption when there is one,
followed by the turn it replies to (the previous turn of the same session, marked "replying
to"). Those two ingestion choices (date in the title, reply context in the body) are this
script's, not the product's; ``--plain`` drops them (title = speaker, body = text +
caption). Each question is searched with the product's own ``search_conn``; recall@k is the
fraction of a question's evidence turns among the first k turns returned.

    python bench/locomo.py                      # all 10 conversations (report these)
    python bench/locomo.py --conversations 1-5  # tune on these only
    python bench/locomo.py --mode all           # lexical, dense and hybrid (needs kenning[dense]); the
                                                # turns are embedded by the product's hook, kenning.dense.update
    python bench/locomo.py --conversations 1-5 --mode all --sweep   # fusion settings tried (tuning set only)

Dense modes cache the turns' embeddings outside the repository, in --cache (default
/tmp/kenning-bench-cache; 'none' turns it off). Questions are always embedded.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime
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

KS = (5, 10, 25, 50)
CATEGORIES = {4: "single-hop", 1: "multi-hop", 2: "temporal", 3: "open-domain", 5: "adversarial"}
# LoCoMo paper, Table 3, dialog units, DRAGON retriever (R@k in %).
DRAGON = {
    "single-hop": (68.0, 77.7, 87.1, 91.1),
    "multi-hop": (35.4, 46.6, 62.5, 73.0),
    "temporal": (70.4, 77.3, 83.5, 89.6),
    "open-domain": (33.1, 40.8, 52.6, 61.7),
    "adversarial": (43.9, 54.7, 66.3, 72.5),
    "overall": (56.7, 66.2, 76.7, 82.7),
}
NAIVE_FTS5 = (49.1, 57.5, 68.1, 74.0)  # data README: porter, OR query, one unit per turn
_EVIDENCE = re.compile(r"D:?(\d+):(\d+)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="shared bench folder (default: %(default)s)")
    parser.add_argument("--conversations", default="1-10", help="range or list, 1-based: 1-5, 6-10, 1,3,7")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="title = speaker, body = text + caption (no session date, no reply context)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--mode", choices=("lexical", "dense", "hybrid", "all"), default="lexical")
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="tuning set only (conversations 1-5): try the fusion settings of bench/_fusion.py",
    )
    weights_option(parser)
    cache_option(parser)
    args = parser.parse_args(argv)
    modes = ("lexical", "dense", "hybrid") if args.mode == "all" else (args.mode,)
    if args.sweep and (modes == ("lexical",) or any(n > 5 for n in _selection(args.conversations, 10))):
        raise SystemExit("--sweep tunes: run it with a dense mode on conversations 1-5 only")
    path = args.data / "locomo" / "locomo10.json"
    if not require(path, "LoCoMo data"):
        return 0

    apply_weights(args.weights)
    relax_query_budget()
    if args.mode != "lexical":
        cache_embeddings(args.cache)
    data = json.loads(path.read_text(encoding="utf-8"))
    chosen = _selection(args.conversations, len(data))

    by_mode: dict[str, list[dict]] = {m: [] for m in modes}  # per question: conversation, category, recall per k
    latencies: dict[str, list[float]] = {m: [] for m in modes}
    swept: list[tuple[list[str], object, dict[int, list[str]]]] = []  # per question: evidence, lists, turns
    index_seconds = embed_seconds = 0.0
    turns_total = 0
    dropped_ids = 0
    with tempfile.TemporaryDirectory(prefix="kenning-locomo-") as tmp:
        for number in chosen:
            conversation = data[number - 1]
            started = time.perf_counter()
            conn, project, turns_of = _ingest(Path(tmp) / f"conv-{number}", conversation, args.plain)
            index_seconds += time.perf_counter() - started
            if modes != ("lexical",):
                from kenning import dense

                started = time.perf_counter()
                summary = dense.update(conn, project)  # the sync's hook: the turns are facts like any other
                embed_seconds += time.perf_counter() - started
                if not summary.get("available"):
                    raise SystemExit(f"dense modes need the dense extra: {summary.get('reason')}")
            turns = {turn for held in turns_of.values() for turn in held}
            turns_total += len(turns)
            for qa in conversation["qa"]:
                evidence = _evidence(qa["evidence"])
                valid = [e for e in evidence if e in turns]
                dropped_ids += len(evidence) - len(valid)
                if not valid:
                    continue
                if args.sweep:
                    swept.append((valid, _lists(conn, project, qa["question"]), turns_of))
                for mode in modes:
                    started = time.perf_counter()
                    ranked = _retrieve(conn, project, qa["question"], turns_of, mode)
                    latencies[mode].append(time.perf_counter() - started)
                    recall = {k: len(set(ranked[:k]) & set(valid)) / len(valid) for k in KS}
                    by_mode[mode].append({"conversation": number, "category": qa["category"], "recall": recall})
            conn.close()
    results = by_mode[modes[0]]

    print(
        f"LoCoMo conversations {args.conversations} "
        f"({'plain' if args.plain else 'speaker + date title, reply context'}): "
        f"{len(results)} questions with evidence, "
        f"{turns_total} turns; {dropped_ids} evidence ids point at no turn and are dropped"
    )
    figures: dict = {"modes": {}}
    for mode in modes:
        figures["modes"][mode] = _report(by_mode[mode], mode, latencies[mode])
    figures["all"] = figures["modes"][modes[0]]["all"]  # the first mode's, as before
    figures["index_seconds"] = round(index_seconds, 2)
    figures["embed_seconds"] = round(embed_seconds, 2)
    print(
        f"index: {figures['index_seconds']} s for {turns_total} turns"
        + (f"; embedding (kenning.dense.update): {figures['embed_seconds']} s" if embed_seconds else "")
    )
    if args.sweep:
        figures["sweep"] = _sweep(swept)
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


def _lists(conn, project, question: str):
    from _fusion import collect
    from kenning.clock import utc_now
    from kenning.dense import index
    from kenning.search.query import parse
    from kenning.search.serve import SearchOptions

    embedder = index.embedders(project)["minilm"]
    return collect(conn, project, embedder, parse(question), SearchOptions(limit=10), utc_now())


def _sweep(swept) -> list[dict]:
    """Every fusion setting replayed on each question's lists; R@k as in the report, best R@10 first."""
    from _fusion import grid, label, replay

    results = []
    for fusion in grid():
        recall = {k: 0.0 for k in KS}
        for valid, lists, turns_of in swept:
            ranked = [turn for key in replay(lists, fusion) for turn in turns_of[key]]
            for k in KS:
                recall[k] += len(set(ranked[:k]) & set(valid)) / len(valid)
        results.append({"fusion": label(fusion), **{f"R@{k}": round(100 * recall[k] / len(swept), 1) for k in KS}})
    print(f"fusion sweep ({len(results)} settings, {len(swept)} questions), best R@10 first:")
    for row in sorted(results, key=lambda r: (-r["R@10"], -r["R@5"])):
        print(f"sweep {row['fusion']}: " + " / ".join(f"{row[f'R@{k}']}" for k in KS))
    return results


def _report(results: list[dict], mode: str, latencies: list[float]) -> dict:
    from kenning.bench.speed import quantile

    figures = {"all": _summary(results)}
    print(_render(figures["all"], "selected conversations", mode, with_published=True))
    held_out = [r for r in results if r["conversation"] >= 6]
    if held_out and len(held_out) != len(results):
        figures["6-10"] = _summary(held_out)
        print()
        print(_render(figures["6-10"], "conversations 6-10 (never tuned on)", mode, with_published=False))
    tuned = [r for r in results if r["conversation"] <= 5]
    if tuned and len(tuned) != len(results):
        figures["1-5"] = _summary(tuned)
        print()
        print(_render(figures["1-5"], "conversations 1-5 (tuning set)", mode, with_published=False))
    figures["query_ms_p50"] = round(quantile(latencies, 0.50) * 1000, 2)
    figures["query_ms_p95"] = round(quantile(latencies, 0.95) * 1000, 2)
    print(f"{mode}: query latency p50 {figures['query_ms_p50']} ms, p95 {figures['query_ms_p95']} ms")
    print()
    return figures


def _ingest(root: Path, conversation: dict, plain: bool):
    """One store per conversation, written through the product's agent-memory path: each
    session is an agent session (``session_id`` ``s<N>``, opened at its own date) and each
    turn an observation saved in it, dated by the session. Returns the connection, the
    project and, per fact id, the turns it holds (identical turns are one fact)."""
    from kenning.memory.observations import save
    from kenning.project import Project, ProjectConfig
    from kenning.store.db import connect

    root.mkdir(parents=True)
    # dense: every turn embedded (no time budget), English questions only (no multilingual index)
    dense = {"budget_seconds": 1e9, "multilingual": False}
    project = Project(root, ProjectConfig(name=root.name, extra={"dense": dense}))
    conn = connect(root / "kenning.db", create=True)
    fallback = datetime.now(UTC)
    turns_of: dict[int, list[str]] = defaultdict(list)
    talk = conversation["conversation"]
    for n in _session_numbers(talk):
        raw_date = talk.get(f"session_{n}_date_time", "")
        when = _session_date(raw_date)
        previous = None
        for turn in talk[f"session_{n}"]:
            saved = save(
                conn, project.name, _turn_observation(turn, n, raw_date, previous, plain), now=when or fallback
            )
            turns_of[saved.fact_id].append(turn["dia_id"])
            previous = turn
    return conn, project, turns_of


def _turn_observation(turn: dict, session: int, raw_date: str, previous: dict | None, plain: bool):
    from kenning.memory.observations import Observation

    body = turn["text"]
    if turn.get("blip_caption"):
        body += f"\n[image: {turn['blip_caption']}]"
    title = turn["speaker"]
    if not plain:
        if raw_date:
            title += f" ({raw_date})"
        if previous is not None:
            body += f"\n(replying to {previous['speaker']}: {previous['text']})"
    return Observation(
        text=body, title=title, memory_type="working", session_id=f"s{session}", producer="agent", origin="locomo"
    )


def _retrieve(conn, project, question: str, turns_of: dict[int, list[str]], mode: str = "lexical") -> list[str]:
    from kenning.clock import utc_now
    from kenning.search.query import parse
    from kenning.search.serve import SearchOptions, search_conn

    options = SearchOptions(limit=max(KS))
    if mode == "lexical":
        answer = search_conn(conn, project, parse(question), options, now=utc_now())
    else:
        from kenning.dense import index
        from kenning.search import hybrid

        answer = hybrid.search(
            conn,
            project,
            parse(question),
            options,
            now=utc_now(),
            embedder=index.embedders(project)["minilm"],
            mode=mode,
        )
    return [turn for e in answer.excerpts for turn in turns_of[e.fact.id]]


def _session_numbers(talk: dict) -> list[int]:
    found = (re.fullmatch(r"session_(\d+)", k) for k in talk)
    return sorted(int(m.group(1)) for m in found if m and isinstance(talk[m.group(0)], list))


def _session_date(raw: str) -> datetime | None:
    try:
        return datetime.strptime(raw.strip(), "%I:%M %p on %d %B, %Y").replace(tzinfo=UTC)
    except ValueError:
        return None


def _evidence(ids: list[str]) -> list[str]:
    """Normalised evidence ids: ``'D8:6; D9:17'`` splits, ``'D:11:26'`` → ``D11:26``,
    ``'D30:05'`` → ``D30:5``; anything without a turn number is dropped."""
    found: dict[str, None] = {}
    for raw in ids:
        for session, turn in _EVIDENCE.findall(str(raw)):
            found.setdefault(f"D{int(session)}:{int(turn)}", None)
    return list(found)


def _selection(spec: str, total: int) -> list[int]:
    chosen: set[int] = set()
    for part in spec.split(","):
        if "-" in part:
            low, high = part.split("-", 1)
            chosen.update(range(int(low), int(high) + 1))
        elif part.strip():
            chosen.add(int(part))
    bad = sorted(n for n in chosen if not 1 <= n <= total)
    if bad:
        raise SystemExit(f"conversations out of range 1-{total}: {bad}")
    return sorted(chosen)


def _summary(results: list[dict]) -> dict:
    by: dict[str, list[dict]] = defaultdict(list)
    for r in results:
        by[CATEGORIES.get(r["category"], str(r["category"]))].append(r)
    by["overall"] = results
    return {
        name: {
            "questions": len(rows),
            **{f"R@{k}": round(100 * sum(r["recall"][k] for r in rows) / len(rows), 1) for k in KS},
        }
        for name, rows in by.items()
        if rows
    }


def _render(summary: dict, label: str, mode: str = "lexical", *, with_published: bool) -> str:
    order = [*CATEGORIES.values(), "overall"]
    rows = []
    for name in order:
        if name not in summary:
            continue
        s = summary[name]
        row = [f"{name} ({s['questions']})", *(f"{s[f'R@{k}']:.1f}" for k in KS)]
        if with_published:
            row += [" / ".join(f"{v:.1f}" for v in DRAGON[name])]
        rows.append(row)
    if with_published:
        rows.append(["plain FTS5 BM25 (data README), overall", *(f"{v:.1f}" for v in NAIVE_FTS5), ""])
    headers = [f"kenning {mode}, {label}", *(f"R@{k}" for k in KS)]
    if with_published:
        headers.append("DRAGON R@5/10/25/50 (paper)")
    return table(headers, rows)


if __name__ == "__main__":
    sys.exit(main())
