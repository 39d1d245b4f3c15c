"""What deflating excerpt bodies costs a cold sync, one call per excerpt against one per file or per
corpus (not a test): the figures behind "deflating the bodies is a fixed cost per call" in
docs/benchmarks.md (issue 19, forty-third and forty-fourth sessions).

The excerpts are the product's: each file of the generated corpus of ``bench/speed.py`` (or
``--dir``) read by ``ingest.read.read_one``, then ``keywords NUL body`` in UTF-8 as
``store.bodies.pack_encoded`` deflates it. Timed in this process, best of ``--reps``:
ISA-L level 3 (the product's) once per excerpt, once per file (the excerpts of a file joined),
once for the whole corpus; zlib level 6 once per excerpt; the bytes each gives.

    .venv/bin/python bench/deflate_calls.py [--markdown 2000 --python 2000] [--reps 3]
    .venv/bin/python bench/deflate_calls.py --dir PATH
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

from isal import isal_zlib

from kenning.config import init_project
from kenning.ingest.discover import discover
from kenning.ingest.read import read_one
from speed import generate


def excerpts_by_file(root: Path) -> list[list[bytes]]:
    """Each file's excerpts as the SQLite store packs them (``keywords NUL body``)."""
    project, _ = init_project(root, "deflate")
    files = []
    for cand in discover(project).candidates:
        rows = read_one((cand, None, False)).rows
        files.append([b"\0".join((r.keywords.encode(), r.body.encode())) for r in rows])
    return [f for f in files if f]


def best(work: Callable[[], list[bytes]], reps: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(reps):
        start = time.perf_counter()
        size = sum(map(len, work()))
        times.append(time.perf_counter() - start)
    return min(times), size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--markdown", type=int, default=2000)
    parser.add_argument("--python", type=int, default=2000)
    parser.add_argument("--dir", type=Path, help="a copy of this tree instead of the generated corpus")
    parser.add_argument("--reps", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        root = Path(work) / "corpus"
        if args.dir:
            shutil.copytree(args.dir, root, symlinks=True, ignore=shutil.ignore_patterns(".kenning", ".git"))
        else:
            root.mkdir()
            generate(root, args.markdown, args.python)
        files = excerpts_by_file(root)
    excerpts = [e for f in files for e in f]
    raw = sum(map(len, excerpts))
    print(f"{len(excerpts)} excerpts in {len(files)} files, {raw / 1e6:.1f} MB; best of {args.reps}")
    cases = {
        "ISA-L 3, one call per excerpt (the product)": lambda: [isal_zlib.compress(e, 3, wbits=-15) for e in excerpts],
        "ISA-L 3, one call per file": lambda: [isal_zlib.compress(b"".join(f), 3, wbits=-15) for f in files],
        "ISA-L 3, one call for the corpus": lambda: [isal_zlib.compress(b"".join(excerpts), 3, wbits=-15)],
        "zlib 6, one call per excerpt": lambda: [zlib.compress(e, 6, wbits=-15) for e in excerpts],
    }
    for name, case in cases.items():
        seconds, size = best(case, args.reps)
        print(f"  {name:45} {seconds:6.3f} s  {size / 1e6:6.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
