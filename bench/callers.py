"""Callers on a real source tree: "what calls X" asked through `kenning ask` on a pinned
sdist, against the callers Python's ``ast`` finds.

Run: .venv/bin/python bench/callers.py [--package flask==3.0.3] [--cache DIR] [--functions 20]

The sdist is fetched with `pip download` into a cache folder outside the repository
(default ~/.cache/kenning-bench), unpacked there and synced (its own .kenning/ and a
KENNING_HOME inside the cache). Ground truth, from ``ast`` over every .py file of the sdist:
the functions (or modules, for top-level code) that contain a call ``name(...)`` or
``obj.name(...)`` of a function whose name is defined once in the whole tree and is not a
common method name, in the package's own code (not tests, docs, examples). 20 such functions
with at least 3 callers are drawn with a fixed seed;
for each, "what calls NAME" is asked through ``ask_project`` and the first 5 results read:

- recall@5: true callers among the first 5, over min(5, true callers);
- precision@5: true callers among the first 5 results the answer gives as direct callers
  (one ``calls`` edge, ``explain.hops`` = 1), over their number;
- strict precision@5: true callers among the first 5 results of any hop, over 5 (or fewer
  when fewer were served): callers at hop 2 count as wrong here.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import platform
import random
import time
from collections import defaultdict
from pathlib import Path

import _common  # puts src/ on sys.path; fetch_sdist
from kenning.answer.ask import ask_project
from kenning.bench.speed import quantile
from kenning.clock import utc_now
from kenning.config import init_project, load_project
from kenning.ingest.test_files import is_test_path
from kenning.sync.run import sync

_COMMON_NAMES = """get set pop update append extend items keys values copy close open read write run send
    start stop format join split strip replace add remove clear setdefault encode decode load dump loads dumps
    match search find index count sort call init main setup teardown render save delete put post head patch
    options wrap wrapper decorator inner handler iter next"""
COMMON = frozenset(_COMMON_NAMES.split())


def true_callers(root: Path) -> tuple[dict[str, set[tuple[str, str]]], dict[str, tuple[str, str]]]:
    """``name -> {(path, caller qualname)}`` for the calls ast sees, and ``name -> (path,
    qualname)`` for names defined once. A caller is the enclosing top-level function or
    method (nested functions count as their enclosing one); top-level code is its module ("")."""
    defined: dict[str, list[tuple[str, str]]] = defaultdict(list)
    calls: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for file in sorted(root.rglob("*.py")):
        rel = file.relative_to(root).as_posix()
        if rel.startswith(".kenning/"):
            continue
        try:
            tree = ast.parse(file.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        _visit(tree, rel, "", None, defined, calls)
    unique = {n: places[0] for n, places in defined.items() if len(places) == 1}
    return calls, unique


def _visit(node: ast.AST, path: str, owner: str, klass: str | None, defined, calls) -> None:
    """``owner``: the caller a call here is credited to (a top-level function, a method of a
    top-level class, or "" for module code); ``klass``: the top-level class whose body this is."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            symbol = not owner and (klass is None or isinstance(node, ast.ClassDef))
            qual = (f"{klass}.{child.name}" if klass else child.name) if symbol else f"{owner}.<{child.name}>"
            defined[child.name].append((path, qual))
            _visit(child, path, qual if symbol else owner, None, defined, calls)
            continue
        if isinstance(child, ast.ClassDef):
            top = not owner and klass is None
            _visit(child, path, owner, child.name if top else klass, defined, calls)
            continue
        if isinstance(child, ast.Call):
            func = child.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            if name:
                calls[name].add((path, owner))
        _visit(child, path, owner, klass, defined, calls)


def is_true(excerpt: dict, truth: set[tuple[str, str]]) -> bool:
    node = excerpt["explain"]["node"]
    path, name = node.get("path"), node["name"]
    for true_path, qual in truth:
        if path != true_path:
            continue
        if (qual == "" and node["kind"] == "file") or (qual and (name == qual or name.endswith("." + qual))):
            return True
    return False


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--package", default="flask==3.0.3")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kenning-bench")
    parser.add_argument("--functions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    name, version = args.package.split("==")
    root = _common.fetch_sdist(args.package, f"{name}-{version}", args.cache)
    os.environ["KENNING_HOME"] = str(args.cache / "home")
    if not (root / ".kenning" / "config.toml").is_file():
        init_project(root, args.package.split("==")[0])
    project = load_project(root)
    report = sync(project, now=utc_now())
    calls, unique = true_callers(root)
    candidates = sorted(
        n
        for n, (path, qual) in unique.items()
        if _library(path)
        and "<" not in qual
        and n not in COMMON
        and not n.startswith("__")
        and len(calls.get(n, set()) - {unique[n]}) >= 3
    )
    chosen = sorted(random.Random(args.seed).sample(candidates, min(args.functions, len(candidates))))
    rows = []
    timings: list[float] = []
    for name in chosen:
        truth = calls[name] - {unique[name]}  # a recursive call is not a caller to list
        started = time.perf_counter()
        answer = ask_project(project, f"what calls {name}", now=utc_now(), limit=10).to_json()
        timings.append(1000 * (time.perf_counter() - started))
        top = answer["excerpts"][:5]
        right = [is_true(e, truth) for e in top]
        direct = [ok for ok, e in zip(right, top, strict=True) if e["explain"].get("hops") == 1]
        rows.append(
            {
                "function": name,
                "defined_in": unique[name][0],
                "true_callers": len(truth),
                "mode": answer["mode"],
                "served": len(answer["excerpts"]),
                "recall@5": sum(right) / min(5, len(truth)) if truth else None,
                "precision@5": sum(direct) / len(direct) if direct else None,
                "strict_precision@5": sum(right) / len(top) if top else None,
                "top5": [e["explain"]["node"]["name"] + ("" if ok else " ✗") for e, ok in zip(top, right, strict=True)],
            }
        )
    figures = {
        "package": args.package,
        "files_synced": report.files_seen if hasattr(report, "files_seen") else None,
        "functions": len(rows),
        "graph_mode": sum(r["mode"] == "graph" for r in rows),
        "recall@5": _mean(r["recall@5"] for r in rows),
        "precision@5": _mean(r["precision@5"] for r in rows),
        "strict_precision@5": _mean(r["strict_precision@5"] for r in rows),
        "ask_ms_p50": round(quantile(timings, 0.5), 1) if timings else None,
        "ask_ms_p95": round(quantile(timings, 0.95), 1) if timings else None,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
    }
    print(
        _common.table(
            ["function", "callers", "mode", "R@5", "P@5", "strict P@5"],
            [
                [r["function"], r["true_callers"], r["mode"], r["recall@5"], r["precision@5"], r["strict_precision@5"]]
                for r in rows
            ],
        )
    )
    print(
        f"\n{args.package}: {figures['functions']} functions, {figures['graph_mode']} answered in graph mode; "
        f"recall@5 {_common._fmt(figures['recall@5'])}, precision@5 (direct callers) "
        f"{_common._fmt(figures['precision@5'])}, "
        f"strict precision@5 {_common._fmt(figures['strict_precision@5'])}; "
        f"ask p50 {figures['ask_ms_p50']} ms, p95 {figures['ask_ms_p95']} ms (the whole ask)"
    )
    if args.json:
        print("\n" + json.dumps({**figures, "rows": rows}, indent=1, ensure_ascii=False))


def _library(path: str) -> bool:
    """The package's own code: not its tests, docs or examples."""
    return not is_test_path(path) and not path.startswith(("docs/", "examples/", "scripts/"))


def _mean(values) -> float | None:
    values = [v for v in values if v is not None]
    return round(sum(values) / len(values), 4) if values else None


if __name__ == "__main__":
    main()
