"""LoCoMo evidence recall with kenning's lexical search, beside the published DRAGON figures.

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

from _common import DEFAULT_DATA, apply_weights, require, table, weights_option

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
    parser.add_argument("--plain", action="store_true",
                        help="title = speaker, body = text + caption (no session date, no reply context)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    weights_option(parser)
    args = parser.parse_args(argv)
    path = args.data / "locomo" / "locomo10.json"
    if not require(path, "LoCoMo data"):
        return 0
    from kenning.bench.speed import quantile

    apply_weights(args.weights)
    data = json.loads(path.read_text(encoding="utf-8"))
    chosen = _selection(args.conversations, len(data))

    results: list[dict] = []  # one per question: conversation, category, recall per k
    latencies: list[float] = []
    index_seconds = 0.0
    turns_total = 0
    dropped_ids = 0
    with tempfile.TemporaryDirectory(prefix="kenning-locomo-") as tmp:
        for number in chosen:
            conversation = data[number - 1]
            started = time.perf_counter()
            conn, project, turns_of = _ingest(Path(tmp) / f"conv-{number}", conversation, args.plain)
            index_seconds += time.perf_counter() - started
            turns = {turn for held in turns_of.values() for turn in held}
            turns_total += len(turns)
            for qa in conversation["qa"]:
                evidence = _evidence(qa["evidence"])
                valid = [e for e in evidence if e in turns]
                dropped_ids += len(evidence) - len(valid)
                if not valid:
                    continue
                started = time.perf_counter()
                ranked = _retrieve(conn, project, qa["question"], turns_of)
                latencies.append(time.perf_counter() - started)
                recall = {k: len(set(ranked[:k]) & set(valid)) / len(valid) for k in KS}
                results.append({"conversation": number, "category": qa["category"], "recall": recall})
            conn.close()

    print(
        f"LoCoMo conversations {args.conversations} ({'plain' if args.plain else 'speaker + date title, reply context'}): "
        f"{len(results)} questions with evidence, "
        f"{turns_total} turns; {dropped_ids} evidence ids point at no turn and are dropped"
    )
    figures = {"all": _summary(results)}
    print(_render(figures["all"], "selected conversations", with_published=True))
    held_out = [r for r in results if r["conversation"] >= 6]
    if held_out and len(held_out) != len(results):
        figures["6-10"] = _summary(held_out)
        print()
        print(_render(figures["6-10"], "conversations 6-10 (never tuned on)", with_published=False))
    tuned = [r for r in results if r["conversation"] <= 5]
    if tuned and len(tuned) != len(results):
        figures["1-5"] = _summary(tuned)
        print()
        print(_render(figures["1-5"], "conversations 1-5 (tuning set)", with_published=False))
    print()
    print("modes: lexical measured; dense and hybrid absent (no embedding model at level 0)")
    figures["index_seconds"] = round(index_seconds, 2)
    figures["query_ms_p50"] = round(quantile(latencies, 0.50) * 1000, 2)
    figures["query_ms_p95"] = round(quantile(latencies, 0.95) * 1000, 2)
    print(
        f"index: {figures['index_seconds']} s for {turns_total} turns; query latency "
        f"p50 {figures['query_ms_p50']} ms, p95 {figures['query_ms_p95']} ms"
    )
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


def _ingest(root: Path, conversation: dict, plain: bool):
    """One store per conversation, written through the product's agent-memory path: each
    session is an agent session (``session_id`` ``s<N>``, opened at its own date) and each
    turn an observation saved in it, dated by the session. Returns the connection, the
    project and, per fact id, the turns it holds (identical turns are one fact)."""
    from kenning.config import Project, ProjectConfig
    from kenning.memory.observations import save
    from kenning.store.db import connect

    root.mkdir(parents=True)
    project = Project(root, ProjectConfig(name=root.name))
    conn = connect(root / "kenning.db", create=True)
    fallback = datetime.now(UTC)
    turns_of: dict[int, list[str]] = defaultdict(list)
    talk = conversation["conversation"]
    for n in _session_numbers(talk):
        raw_date = talk.get(f"session_{n}_date_time", "")
        when = _session_date(raw_date)
        previous = None
        for turn in talk[f"session_{n}"]:
            saved = save(conn, project.name, _turn_observation(turn, n, raw_date, previous, plain),
                         now=when or fallback)
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
    return Observation(text=body, title=title, memory_type="working", session_id=f"s{session}", producer="agent",
                       origin="locomo")


def _retrieve(conn, project, question: str, turns_of: dict[int, list[str]]) -> list[str]:
    from kenning.answer.search import SearchOptions, search_conn
    from kenning.clock import utc_now
    from kenning.search.query import parse

    answer = search_conn(conn, project, parse(question), SearchOptions(limit=max(KS)), now=utc_now())
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
        name: {"questions": len(rows), **{f"R@{k}": round(100 * sum(r["recall"][k] for r in rows) / len(rows), 1) for k in KS}}
        for name, rows in by.items()
        if rows
    }


def _render(summary: dict, label: str, *, with_published: bool) -> str:
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
    headers = [f"kenning lexical, {label}", *(f"R@{k}" for k in KS)]
    if with_published:
        headers.append("DRAGON R@5/10/25/50 (paper)")
    return table(headers, rows)


if __name__ == "__main__":
    sys.exit(main())
