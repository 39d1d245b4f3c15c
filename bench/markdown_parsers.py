"""What the Markdown parser costs a cold sync (not a test): markdown-it-pyrs (markdown-it in
Rust, Python 3.11 and 3.12) against markdown-it-py (pure Python: what reads Markdown on Python
3.13 and later, where markdown-it-pyrs ships no wheel), the figures of "Markdown on Python
3.13" in docs/benchmarks.md.

Cold syncs (``kenning init`` then ``kenning sync --no-embed``, one process each, as a user
runs them) of fresh copies of one Markdown corpus, alternating the two parsers, the order
swapped every repetition; markdown-it-pyrs is hidden from the second by a module of the same
name, first on its ``PYTHONPATH``, that refuses to import (what tests/ingest/
test_markdown_fallback.py does). Wall and CPU seconds (the command's and its parsing pool's),
min / median / max, and the ratio of the medians; then whether both stored the same excerpts.

    .venv/bin/python bench/markdown_parsers.py                 # this machine's Node.js + npm docs (bench/peers.py)
    .venv/bin/python bench/markdown_parsers.py --scale 10 --reps 3
    .venv/bin/python bench/markdown_parsers.py --dir PATH      # a copy of another tree
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
from pathlib import Path

from peers import corpus_files, make_corpus, timed

KENNING = str(Path(sys.executable).with_name("kenning"))
HIDE = "raise ImportError('markdown-it-pyrs hidden by bench/markdown_parsers.py')\n"


def cold_sync(root: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of ``init`` + ``sync --no-embed`` on ``root`` (its children's CPU
    included), each command timed as bench/peers.py times kenning's."""
    init = timed([KENNING, "init", "--project", str(root), "--name", "parsers"], env, root)
    sync = timed([KENNING, "sync", "--no-embed", "--project", str(root)], env, root)
    return init[0] + sync[0], init[2] + sync[2]


def excerpts(root: Path) -> list[tuple]:
    with sqlite3.connect(root / ".kenning" / "kenning.db") as conn:
        return conn.execute(
            "SELECT title, body, path, source_uri, content_hash FROM facts ORDER BY path, source_uri"
        ).fetchall()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scale", type=int, default=1, help="copies of the Node.js + npm docs (default 1)")
    parser.add_argument("--dir", type=Path, help="a copy of this directory instead")
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kenning-md-parsers-") as tmp:
        base = Path(tmp)
        corpus = base / "corpus"
        if args.dir:
            shutil.copytree(args.dir, corpus, ignore=shutil.ignore_patterns(".kenning", ".venv", ".git"))
            label = f"copy of {args.dir}"
        else:
            corpus.mkdir()
            size = make_corpus(corpus, corpus_files(), args.scale)
            label = f"Node.js + npm docs x{args.scale}, {size / 1e6:.1f} MB"
        hidden = base / "hidden"
        hidden.mkdir()
        (hidden / "markdown_it_pyrs.py").write_text(HIDE, encoding="utf-8")
        envs = {
            "markdown-it-pyrs": {**os.environ, "KENNING_HOME": str(base / "home")},
            "markdown-it-py": {**os.environ, "KENNING_HOME": str(base / "home"), "PYTHONPATH": str(hidden)},
        }
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in envs}
        stored: dict[str, list[tuple]] = {}
        print(f"corpus: {label}; {args.reps} repetitions, alternated; load {os.getloadavg()[0]:.2f}")
        for rep in range(args.reps):
            order = list(envs) if rep % 2 == 0 else list(envs)[::-1]
            for name in order:
                copy = base / f"run-{rep}-{name}"
                shutil.copytree(corpus, copy)
                wall, cpu = cold_sync(copy, envs[name])
                runs[name].append((wall, cpu))
                stored.setdefault(name, excerpts(copy))
                shutil.rmtree(copy)
                print(f"  {rep + 1} {name:17} {wall:6.2f} s wall, {cpu:6.2f} s CPU", flush=True)
        medians = {}
        for name, figures in runs.items():
            walls, cpus = sorted(w for w, _ in figures), sorted(c for _, c in figures)
            medians[name] = (statistics.median(walls), statistics.median(cpus))
            print(
                f"{name:17} wall min/median/max {walls[0]:.2f} / {medians[name][0]:.2f} / {walls[-1]:.2f} s, "
                f"CPU {cpus[0]:.2f} / {medians[name][1]:.2f} / {cpus[-1]:.2f} s"
            )
        (fast_wall, fast_cpu), (slow_wall, slow_cpu) = medians["markdown-it-pyrs"], medians["markdown-it-py"]
        print(f"markdown-it-py / markdown-it-pyrs: wall {slow_wall / fast_wall:.2f}x, CPU {slow_cpu / fast_cpu:.2f}x")
        same = stored["markdown-it-pyrs"] == stored["markdown-it-py"]
        verdict = "the same" if same else "DIFFERENT"
        print(f"stored excerpts: {len(stored['markdown-it-pyrs'])}, {verdict} with both parsers")
        if not same:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
