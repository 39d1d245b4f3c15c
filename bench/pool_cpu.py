"""The parsing pool's CPU per file, this tree against another one (not a test): the figures of
"The pool's Python parsing at less CPU" in docs/benchmarks.md.

What a pool worker does for each file of a cold sync (``kenning.ingest.read.read_one``: read,
fingerprint, parse, rows with packed bodies), with both trees' modules loaded in this one
process and alternated file by file, so that the machine's load weighs on both alike: CPU
seconds (``time.process_time``) of each tree per pass, gc disabled as in the pool.

    .venv/bin/python bench/pool_cpu.py --against /tmp/before/src            # Django 5.0.6
    .venv/bin/python bench/pool_cpu.py --against /tmp/before/src --dir PATH --passes 7

``--against``: a ``src/`` exported from another commit (``git archive <commit> src | tar -x -C
/tmp/before``).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

from _common import fetch_sdist

THIS = Path(__file__).resolve().parent.parent / "src"
DJANGO = ("django==5.0.6", "Django-5.0.6")


def load_tree(src: Path) -> tuple[dict[str, ModuleType], object]:
    """``src``'s kenning modules a worker runs, imported apart from any other tree's; its
    ``read_one``."""
    sys.path.insert(0, str(src))
    try:
        import kenning.ingest.read
        from kenning.ingest.parsers import import_parsers

        import_parsers(("markdown/", "python/", "code/"))
        if not kenning.__file__ or not kenning.__file__.startswith(str(src)):
            raise SystemExit(f"{src} did not provide kenning (got {kenning.__file__})")
        read_one = kenning.ingest.read.read_one
        modules = {name: mod for name, mod in sys.modules.items() if name == "kenning" or name.startswith("kenning.")}
    finally:
        sys.path.remove(str(src))
    for name in modules:
        del sys.modules[name]
    return modules, read_one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", type=Path, required=True, help="a src/ exported from another commit")
    parser.add_argument("--dir", type=Path, help="a tree to read instead of Django 5.0.6's source")
    parser.add_argument("--passes", type=int, default=7)
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kenning-bench")
    args = parser.parse_args()
    os.environ.setdefault("KENNING_HOME", tempfile.mkdtemp(prefix="kenning-pool-cpu-"))
    root = args.dir or fetch_sdist(*DJANGO, args.cache)
    trees = {"against": load_tree(args.against.resolve()), "this tree": load_tree(THIS)}
    sys.modules.update(trees["this tree"][0])
    from kenning.ingest.discover import discover
    from kenning.project import Project, ProjectConfig

    candidates = discover(Project(root=root.resolve(), config=ProjectConfig(name="pool-cpu"))).candidates
    print(f"{root}: {len(candidates)} files; load {os.getloadavg()[0]:.2f}")
    gc.disable()
    spent: dict[str, list[float]] = {name: [] for name in trees}
    for n in range(args.passes):
        total = dict.fromkeys(trees, 0.0)
        for i, cand in enumerate(candidates):
            for name in list(trees) if (i + n) % 2 == 0 else list(trees)[::-1]:
                modules, read_one = trees[name]
                sys.modules.update(modules)
                start = time.process_time()
                read_one((cand, None, True))  # type: ignore[operator]
                total[name] += time.process_time() - start
        for name in trees:
            spent[name].append(total[name])
        saved = 1 - total["this tree"] / total["against"]
        print(
            f"pass {n + 1}: against {total['against']:.3f} s, this tree {total['this tree']:.3f} s "
            f"({100 * saved:+.1f} % saved); load {os.getloadavg()[0]:.2f}"
        )
    before, after = (statistics.median(spent[name]) for name in trees)
    print(f"median: against {before:.3f} s, this tree {after:.3f} s ({100 * (1 - after / before):+.1f} % saved)")


if __name__ == "__main__":
    main()
