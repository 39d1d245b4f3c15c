"""The numpy top-k of the impact lists, this tree against another one (not a test): the figures of
"The numpy top-k with a floor from one list" in docs/benchmarks.md.

On the stores of bench/nl_latency.py (SciFact or LoCoMo replicated to 50,000+ excerpts, built
or reused under ``--keep``), in one process, both trees' ``store/impact_sum._top_k_numpy``
loaded side by side (the other from ``--against``, a ``src/`` exported from another commit):
- the function alone: the lists the timed questions sum, recorded while they are asked once,
  summed by each tree in turn, call by call; the results compared (they must be identical);
- ``ask`` (what ``memory_ask`` runs: ``interfaces.serve.ask_kept``, the lists kept in memory as a
  server keeps them), the one or the other function in place, alternated question by question,
  the order swapped each time, ``--passes`` passes over the timed questions.

    git archive <commit> src | tar -x -C /tmp/before
    .venv/bin/python bench/topk_floor.py --against /tmp/before/src --keep /tmp/nl
    .venv/bin/python bench/topk_floor.py --against /tmp/before/src --keep /tmp/nl --corpus locomo
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import time
from pathlib import Path
from types import ModuleType

from _common import DEFAULT_DATA
from nl_latency import _locomo, _scifact


def other_impact_sum(src: Path) -> ModuleType:
    """``store/impact_sum.py`` of another tree, as a module of its own (it imports nothing of kenning)."""
    spec = importlib.util.spec_from_file_location("impact_sum_against", src / "kenning" / "store" / "impact_sum.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"no kenning/store/impact_sum.py under {src}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def summary(values: list[float]) -> str:
    values = sorted(values)
    return f"p50 {statistics.median(values):.3f} ms, p95 {values[int(len(values) * 0.95)]:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", type=Path, required=True, help="a src/ exported from another commit")
    parser.add_argument("--keep", type=Path, required=True, help="bench/nl_latency.py's folder of stores")
    parser.add_argument("--corpus", choices=("scifact", "locomo"), default="scifact")
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    os.environ["KENNING_HOME"] = str(args.keep / "home")  # as bench/nl_latency.py
    build = _scifact if args.corpus == "scifact" else _locomo
    built = build(args.data, args.keep / args.corpus, args.copies)
    if built is None:
        raise SystemExit(f"no {args.corpus} data under {args.data}")
    root, warm, questions = built

    from datetime import UTC, datetime

    from kenning.config import load_project
    from kenning.interfaces.mcp.context import ServerContext
    from kenning.interfaces.serve import ask_kept
    from kenning.search import lexical
    from kenning.store import impact_sum

    lexical.keep_word_lists()
    ctx = ServerContext(project=load_project(root), clock=lambda: datetime.now(UTC))
    now = datetime.now(UTC)
    ours, theirs = impact_sum._top_k_numpy, other_impact_sum(args.against)._top_k_numpy
    for question in warm:  # the lists a server would hold
        ask_kept(ctx.connections, question, now=now)

    calls: list[tuple] = []

    def recorded(np: object, lists: list, k: int) -> list:
        calls.append((np, lists, k))
        return ours(np, lists, k)

    impact_sum._top_k_numpy = recorded
    for question in questions:
        ask_kept(ctx.connections, question, now=now)
    alone: dict[str, list[float]] = {"this tree": [], "against": []}
    for n, (np, lists, k) in enumerate(calls):
        results = []
        for name in ("this tree", "against") if n % 2 == 0 else ("against", "this tree"):
            started = time.perf_counter()
            results.append((ours if name == "this tree" else theirs)(np, lists, k))
            alone[name].append((time.perf_counter() - started) * 1000)
        if results[0] != results[1]:
            raise SystemExit(f"the two trees' top-k differ on call {n}")

    asked: dict[str, list[float]] = {"this tree": [], "against": []}
    for rep in range(args.passes):
        for n, question in enumerate(questions):
            for name in ("this tree", "against") if (n + rep) % 2 == 0 else ("against", "this tree"):
                impact_sum._top_k_numpy = ours if name == "this tree" else theirs
                started = time.perf_counter()
                ask_kept(ctx.connections, question, now=now)
                asked[name].append((time.perf_counter() - started) * 1000)
    impact_sum._top_k_numpy = ours
    print(f"{args.corpus}: {len(questions)} questions, {len(calls)} numpy top-k calls (the same results from both)")
    for name in ("against", "this tree"):
        print(f"  {name:9}  top-k alone {summary(alone[name])};  ask {summary(asked[name])}")


if __name__ == "__main__":
    main()
