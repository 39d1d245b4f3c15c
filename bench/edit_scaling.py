"""Cost of a sync after an edit, per file, and a `remember` made during it (not a test).

Usage:
    .venv/bin/python bench/edit_scaling.py                  # Django 5.0.6's sdist at /tmp/sdists/Django-5.0.6
    .venv/bin/python bench/edit_scaling.py --generated      # generated corpus, ~27 MB (2,500 Markdown + 2,500 Python)
    .venv/bin/python bench/edit_scaling.py --dir PATH       # a copy of any directory
    .venv/bin/python bench/edit_scaling.py --sizes 10,150 --rounds 2 --json

The tree is copied, synced cold (lexical only: level 1 is timed elsewhere), then, round after
round and size after size, that many Python files are edited (a function appended to each) and
`kenning sync` runs in a child process. The child reports when each phase starts; once it is
writing, `kenning remember` (the real CLI) is issued every `--remember-every` seconds until the
sync ends, each timed end to end. Target (issue 20, must-show 6): the sync after a 150-file edit
costs per file at most what a 10-file edit costs per file, and every `remember` made during it
succeeds.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import _common  # noqa: F401  (puts src/ on the path)
from _kill import LEXICAL_ONLY
from speed import CHILD_ENV, generate

DJANGO = Path("/tmp/sdists/Django-5.0.6")
KENNING = str(Path(sys.executable).with_name("kenning"))
_CHILD = (
    "import json, sys, time\n"
    "from pathlib import Path\n"
    "from kenning.clock import utc_now\n"
    "from kenning.config import load_project\n"
    "from kenning.sync.run import sync\n"
    "project = load_project(Path(sys.argv[1]))\n"
    "seen = set()\n"
    "def progress(phase, done, total):\n"
    "    if phase not in seen:\n"
    "        seen.add(phase)\n"
    "        print(json.dumps({'phase': phase, 't': time.perf_counter()}), flush=True)\n"
    "start = time.perf_counter()\n"
    "print(json.dumps({'phase': 'start', 't': start}), flush=True)\n"
    "report = sync(project, now=utc_now(), progress=progress)\n"
    "print(json.dumps({'phase': 'end', 't': time.perf_counter(), 'changed': report.files_changed,\n"
    "                  'batches': getattr(report, 'batches', None)}), flush=True)\n"
)


def edit(root: Path, paths: list[Path], tag: int) -> None:
    for i, path in enumerate(paths):
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"\n\ndef edited_{tag}_{i}(value):\n    return value + {i}\n")


def remember(root: Path, text: str) -> tuple[float, bool, str]:
    start = time.perf_counter()
    proc = subprocess.run(
        [KENNING, "remember", text, "--project", str(root)], capture_output=True, text=True, env=CHILD_ENV
    )
    return time.perf_counter() - start, proc.returncode == 0, (proc.stderr or proc.stdout).strip()[-300:]


def timed_sync(root: Path, every: float, tag: str) -> dict[str, object]:
    """One sync in a child; `remember` every ``every`` s once it writes. Phase times in seconds."""
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, str(root)], stdout=subprocess.PIPE, text=True, env=CHILD_ENV)
    assert proc.stdout is not None
    phases: dict[str, float] = {}
    writing = threading.Event()
    ended = threading.Event()
    end_line: dict[str, object] = {}

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            event = json.loads(line)
            phases[event["phase"]] = event["t"]
            if event["phase"] == "writing":
                writing.set()
            if event["phase"] == "end":
                end_line.update(event)
        writing.set()
        ended.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    remembers: list[tuple[float, bool, str]] = []
    writing.wait()
    n = 0
    while not ended.is_set():
        remembers.append(remember(root, f"Saved during the {tag} sync, number {n}: the widget needs {n} bolts."))
        n += 1
        ended.wait(every)
    reader.join()
    if proc.wait() != 0:
        raise RuntimeError("the sync failed")
    start = phases["start"]
    write_from = phases.get("writing", phases["end"])
    return {
        "wall_s": phases["end"] - start,
        "read_s": write_from - phases.get("reading", write_from),
        "write_s": phases["end"] - write_from,
        "changed": end_line.get("changed"),
        "batches": end_line.get("batches"),
        "remembers": len(remembers),
        "remember_failures": [msg for _, ok, msg in remembers if not ok],
        "remember_max_s": max((s for s, _, _ in remembers), default=None),
        "remember_median_s": sorted(s for s, _, _ in remembers)[len(remembers) // 2] if remembers else None,
    }


def run(source: Path | None, sizes: list[int], rounds: int, every: float, scratch: Path) -> dict[str, object]:
    from kenning.config import init_project

    root = scratch / "corpus"
    if source is None:
        generate(root, 2500, 2500)
    else:
        shutil.copytree(source, root, ignore=shutil.ignore_patterns(".kenning", ".git"))
    corpus_bytes = sum(p.stat().st_size for p in root.rglob("*") if p.is_file())
    init_project(root, "edits")
    (root / ".kenning" / "config.toml").write_text(LEXICAL_ONLY.format(name="edits"), encoding="utf-8")
    started = time.perf_counter()
    subprocess.run([KENNING, "sync", "--project", str(root)], check=True, capture_output=True, env=CHILD_ENV)
    cold = time.perf_counter() - started
    python = sorted(p for p in root.rglob("*.py") if ".kenning" not in p.parts)
    rng = random.Random(20)
    results: list[dict[str, object]] = []
    for r in range(rounds):
        for size in sizes:
            chosen = rng.sample(python, min(size, len(python)))
            edit(root, chosen, r * 1000 + size)
            figures = timed_sync(root, every, f"{size}-file")
            figures.update(size=len(chosen), round=r, per_file_s=figures["wall_s"] / len(chosen))  # type: ignore[operator]
            results.append(figures)
            print(json.dumps(figures), file=sys.stderr, flush=True)
    return {
        "corpus": str(source or "generated"),
        "corpus_mb": round(corpus_bytes / 1e6, 1),
        "python_files": len(python),
        "cold_sync_s": round(cold, 2),
        "runs": results,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dir", type=Path, help="a directory to copy (default: Django 5.0.6's sdist)")
    ap.add_argument("--generated", action="store_true", help="a generated ~27 MB corpus instead")
    ap.add_argument("--sizes", default="10,150", help="files edited per round, comma-separated")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--remember-every", type=float, default=1.0, help="seconds between two `remember` calls")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    source = None if args.generated else (args.dir or DJANGO)
    if source is not None and not source.is_dir():
        print(f"skipped: {source} not found (pass --dir PATH or --generated)")
        return
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="kenning-edits-") as tmp:
        os.environ["KENNING_HOME"] = str(Path(tmp) / "home")
        CHILD_ENV["KENNING_HOME"] = os.environ["KENNING_HOME"]
        out = run(source, sizes, args.rounds, args.remember_every, Path(tmp))
    if args.json:
        print(json.dumps(out, indent=2))
        return
    print(f"corpus: {out['corpus']} ({out['corpus_mb']} MB, {out['python_files']} Python files); {out['machine']}")
    print(f"cold sync: {out['cold_sync_s']} s")
    print(
        "| files edited | round | sync (s) | per file (s) | read (s) | write (s) | batches "
        "| remember: n, failed, median, max (s) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    for f in out["runs"]:  # type: ignore[union-attr]
        print(
            f"| {f['size']} | {f['round']} | {f['wall_s']:.2f} | {f['per_file_s']:.3f} | {f['read_s']:.2f} | "
            f"{f['write_s']:.2f} | {f['batches']} | {f['remembers']}, {len(f['remember_failures'])}, "
            f"{f['remember_median_s'] or 0:.2f}, {f['remember_max_s'] or 0:.2f} |"
        )
    per = {}
    for f in out["runs"]:  # type: ignore[union-attr]
        per.setdefault(f["size"], []).append(f["per_file_s"])
    sizes_seen = sorted(per)
    if len(sizes_seen) >= 2:
        small, big = min(per[sizes_seen[0]]), min(per[sizes_seen[-1]])
        print(
            f"per file, best of rounds: {sizes_seen[0]} files {small:.3f} s, {sizes_seen[-1]} files {big:.3f} s "
            f"(ratio {big / small:.2f}; target <= 1)"
        )


if __name__ == "__main__":
    main()
