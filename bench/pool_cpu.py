"""The parsing pool's CPU per file, this tree against another one (not a test): the figures of
"The pool's Python parsing at less CPU" and "Parsed files sent to the writer for less CPU" in
docs/benchmarks.md.

What a pool worker does for each file of a cold sync (``kenning.ingest.read.read_one``: read,
fingerprint, parse, rows with packed bodies), with both trees' modules loaded in this one
process and alternated file by file, so that the machine's load weighs on both alike: CPU
seconds (``time.process_time``) of each tree per pass, gc disabled as in the pool and in the
sync's writing process.

``--wire``: alternated chunk by chunk (the pool's own chunks, ``read._chunks``), each tree
reads its chunk as a worker does (``read._read_chunk``), pickles the results as the worker
sends them (``ForkingPickler.dumps``) and unpickles them as the writing process does
(``ForkingPickler.loads``, in the executor's thread there; then ``read.received`` with the
chunk's candidates, as ``read._in_pool`` takes them, in a tree that has it), timed apart; on
the first pass the results of both trees are compared (``==`` with ``read_one``'s, and across
trees as built-in values with the types of rows, symbols and references).

    .venv/bin/python bench/pool_cpu.py --against /tmp/before/src            # Django 5.0.6
    .venv/bin/python bench/pool_cpu.py --against /tmp/before/src --dir PATH --passes 7
    .venv/bin/python bench/pool_cpu.py --against /tmp/before/src --wire --passes 5

``--stages``: where this tree's worker CPU goes on the same files, stage by stage (reading,
fingerprint, decoding, each parser, ``ast.parse`` alone — timed apart, on a second parse — the
rows without and with packing, git's blob id, ``Parsed.sent``, pickling, freeing), per pass.

    .venv/bin/python bench/pool_cpu.py --against /tmp/before/src --stages --passes 3

``--pool``: this tree's real pool (``read.read_all``, its workers forked as a cold sync forks
them, a consumer that only counts what comes) against the same ``read_one`` calls made one by one
in this process, alternated per pass: the pool's CPU (its workers' rusage) beside the serial CPU,
and the pool's wall time — what the pool costs beyond the work itself.

    .venv/bin/python bench/pool_cpu.py --against /tmp/before/src --pool --passes 3

``--against``: a ``src/`` exported from another commit (``git archive <commit> src | tar -x -C
/tmp/before``).
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import sys
import tempfile
import time
from multiprocessing.reduction import ForkingPickler
from pathlib import Path
from types import ModuleType

from _common import DJANGO, SDIST_CACHE, fetch_sdist

THIS = Path(__file__).resolve().parent.parent / "src"


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
    parser.add_argument("--cache", type=Path, default=SDIST_CACHE)
    parser.add_argument("--wire", action="store_true", help="also time pickling the results, chunk by chunk")
    parser.add_argument("--stages", action="store_true", help="this tree's worker CPU stage by stage")
    parser.add_argument("--pool", action="store_true", help="this tree's real pool against the same work serially")
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
    if args.wire:
        wire(trees, candidates, args.passes)
        return
    if args.stages:
        stages(candidates, args.passes)
        return
    if args.pool:
        pool_against_serial(candidates, args.passes)
        return
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


STEPS = ("read", "dumps", "loads")


def wire(trees: dict[str, tuple[dict[str, ModuleType], object]], candidates: list, passes: int) -> None:
    """Each tree reads a chunk of files, pickles the results and unpickles them, chunk by chunk
    alternated; CPU per step and tree, and the results compared across the trees."""
    own = {name: [_own_candidate(modules, c) for c in candidates] for name, (modules, _) in trees.items()}
    chunking = trees["this tree"][0]["kenning.ingest.read"]._chunks  # type: ignore[attr-defined]
    spans = [len(chunk) for chunk in chunking([(c, None, True) for c in candidates])]
    spent = {name: {step: [] for step in STEPS} for name in trees}  # type: dict[str, dict[str, list[float]]]
    for n in range(passes):
        total = {name: dict.fromkeys(STEPS, 0.0) for name in trees}
        sent = dict.fromkeys(trees, 0)
        first = 0
        for k, span in enumerate(spans):
            plain = {}
            for name in list(trees) if (k + n) % 2 == 0 else list(trees)[::-1]:
                modules = trees[name][0]
                sys.modules.update(modules)
                read = modules["kenning.ingest.read"]
                received = getattr(read, "received", None)  # a pool that sends ``Parsed.sent()``
                cands = own[name][first : first + span]
                t0 = time.process_time()
                results = read._read_chunk([(c, None, True) for c in cands])  # type: ignore[attr-defined]
                t1 = time.process_time()
                data = ForkingPickler.dumps(results)
                t2 = time.process_time()
                back = ForkingPickler.loads(data)
                if received is not None:  # as ``read._in_pool`` takes them
                    back = list(map(received, cands, back))
                t3 = time.process_time()
                for step, took in zip(STEPS, (t1 - t0, t2 - t1, t3 - t2), strict=True):
                    total[name][step] += took
                sent[name] += len(data)
                if n == 0:
                    if back != [read.read_one((c, None, True)) for c in cands]:  # type: ignore[attr-defined]
                        raise SystemExit(f"{name}: a chunk unpickled unequal to what was parsed")
                    plain[name] = [_plain(item) for item in back]
            if n == 0 and plain["this tree"] != plain["against"]:
                raise SystemExit(f"files {first}-{first + span}: the two trees' results differ")
            first += span
        for name in trees:
            for step in STEPS:
                spent[name][step].append(total[name][step])
        print(
            f"pass {n + 1}: "
            + "; ".join(_line(name, total[name], sent[name]) for name in trees)
            + f"; saved: {_saved(total)}; load {os.getloadavg()[0]:.2f}"
        )
    print("median:")
    medians = {name: {step: statistics.median(spent[name][step]) for step in STEPS} for name in trees}
    for name in trees:
        print(f"  {_line(name, medians[name], sent[name])}")
    print(f"  saved: {_saved(medians)}")


def pool_against_serial(candidates: list, passes: int) -> None:
    """Per pass, this tree's pool over every file (a consumer that counts) and the same files
    read one by one here: CPU seconds of each, the pool's wall time."""
    from kenning.ingest.read import read_all, read_one

    for n in range(passes):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        files = sum(1 for _ in read_all(candidates, {}, None, pack=True).start())
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        pool = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        start = time.process_time()
        for cand in candidates:
            read_one((cand, None, True))
        serial = time.process_time() - start
        print(
            f"pass {n + 1}: pool {pool:.2f} s of CPU ({files} files, wall {wall:.2f} s), "
            f"serially {serial:.2f} s of CPU; load {os.getloadavg()[0]:.2f}"
        )


def stages(candidates: list, passes: int) -> None:
    """This tree's ``read_one`` taken apart, each stage's CPU summed over the files, per pass
    (``ast.parse alone`` and ``rows without packing`` are extra work, shown beside the rest)."""
    for n in range(passes):
        took = _stages_once(candidates)
        total = sum(spent for stage, spent in took.items() if not stage.startswith("(extra)"))
        print(f"pass {n + 1}: {total:.3f} s in all (the extras apart); load {os.getloadavg()[0]:.2f}")
        for stage, spent in sorted(took.items(), key=lambda item: -item[1]):
            print(f"  {stage:34s} {spent:7.3f} s")


def _stages_once(candidates: list) -> dict[str, float]:
    import ast

    from kenning.files import read_regular_inside
    from kenning.ingest import read
    from kenning.ingest.encoding import decode_source
    from kenning.ingest.git_dates import blob_id
    from kenning.ingest.parsers import load_relations
    from kenning.ingest.rows import prepare

    clock = time.process_time
    took: dict[str, float] = {}

    def add(stage: str, since: float) -> float:
        now = clock()
        took[stage] = took.get(stage, 0.0) + now - since
        return now

    for cand in candidates:
        t = clock()
        data = read_regular_inside(cand.root_real or read._root_of(cand), cand.target or cand.path)
        t = add("read", t)
        fingerprint = read.hashlib.sha256(data).hexdigest()
        t = add("fingerprint (sha256)", t)
        text = decode_source(data)
        t = add("decode", t)
        if cand.parser.startswith("python/"):
            try:  # noqa: SIM105 (a timed loop)
                ast.parse(text.removeprefix("\ufeff"))
            except (SyntaxError, ValueError, RecursionError):
                pass
            t = add("(extra) ast.parse alone, python", t)
        chunks, relations = load_relations(cand.parser)(text, cand.path)
        t = add(f"parse {cand.parser}", t)
        prepare(chunks, cand.path, cand.mtime_ns, pack=False)
        t = add("(extra) rows without packing", t)
        rows = prepare(chunks, cand.path, cand.mtime_ns, pack=True)
        t = add("rows, packed", t)
        blob = blob_id(data)
        t = add("git blob id (sha1)", t)
        sent = read.Parsed(cand, fingerprint, rows, relations=relations, blob=blob).sent()
        t = add("Parsed.sent (columns)", t)
        pickled = ForkingPickler.dumps(sent)
        t = add("pickling (dumps)", t)
        del chunks, relations, rows, sent, pickled, data, text
        add("freeing", t)
    return took


def _saved(took: dict[str, dict[str, float]]) -> str:
    """This tree's saving against the other, per step and for the pool (read and dumps) and
    the writing process (loads)."""
    parts = {step: (took["against"][step], took["this tree"][step]) for step in STEPS}
    parts["pool"] = (
        took["against"]["read"] + took["against"]["dumps"],
        took["this tree"]["read"] + took["this tree"]["dumps"],
    )
    return ", ".join(f"{name} {100 * (1 - after / before):+.1f} %" for name, (before, after) in parts.items())


def _line(name: str, took: dict[str, float], sent: int) -> str:
    return f"{name} " + " ".join(f"{step} {took[step]:.3f}" for step in STEPS) + f" s, {sent / 1e6:.1f} MB"


def _own_candidate(modules: dict[str, ModuleType], cand: object) -> object:
    """``cand`` as its tree's own ``Candidate`` (pickle sends a class by name: it must be the one
    its tree's modules hold). A tree from before branch discover names the root by ``abs_path``
    (a ``Path`` per file, a dataclass), a later one by ``root`` (text, a named tuple): each gets
    the fields it declares."""
    own = modules["kenning.ingest.discover"].Candidate
    names = getattr(own, "_fields", None) or own.__dataclass_fields__
    fields = {name: getattr(cand, name, None) for name in names}
    if "root" in fields and fields["root"] is None:
        fields["root"] = os.fspath(cand.abs_path.parents[cand.path.count("/")])  # type: ignore[attr-defined]
    return own(**fields)


def _plain(item: object) -> object:
    """A parsed file as built-in values with its types' names, comparable across trees."""
    rel = item.relations  # type: ignore[attr-defined]
    relations = None
    if rel is not None:
        relations = (
            rel.module,
            [(type(s).__name__, tuple(s)) for s in rel.symbols],
            [(type(r).__name__, tuple(r)) for r in rel.refs],
            rel.decision,
            rel.extra,
        )
    return (
        vars(item.candidate),  # type: ignore[attr-defined]
        item.fingerprint,  # type: ignore[attr-defined]
        [(type(row).__name__, tuple(row)) for row in item.rows],  # type: ignore[attr-defined]
        item.skip,  # type: ignore[attr-defined]
        relations,
        item.blob,  # type: ignore[attr-defined]
    )


if __name__ == "__main__":
    main()
