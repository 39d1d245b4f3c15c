"""What tree-sitter reads of a tree's code, this src/ against another's (not a test): the figures of
"cppmacros" in docs/benchmarks.md.

For each tree-sitter file discovery keeps (parser ``code/N``; ``--suffixes`` narrows them), in a
child process per ``src/`` (``PYTHONPATH``): the symbols its parse gives (``Relations.symbols``,
what the graph and the excerpts' titles are made of) and, beside them, the files whose symbols
differ between the trees, with what each lost and gained. A C or C++ header that tree-sitter
misreads (a macro it takes for a type, a conditional group that leaves a brace open) gives fewer
symbols, or a class's methods named without their class.

    .venv/bin/python bench/code_symbols.py --dir PATH --against /tmp/before/src   # git archive <commit> src
    .venv/bin/python bench/code_symbols.py --dir PATH --against /tmp/before/src --suffixes .h,.cc,.c
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
SHOWN = 6  # symbols lost and gained printed per file


def child(root: Path, suffixes: tuple[str, ...]) -> None:
    """In the child: each tree-sitter file's sorted symbols, as JSON."""
    from kenning.config import default_name, parse_config
    from kenning.ingest.discover import discover
    from kenning.ingest.parsers import load_relations
    from kenning.project import Project

    project = Project(root=root, config=parse_config({}, default_name(root), root))  # kenning init's defaults
    symbols: dict[str, list[str]] = {}
    for cand in discover(project).candidates:
        if not cand.parser.startswith("code/") or suffixes and not cand.path.endswith(suffixes):
            continue
        try:
            text = (root / cand.path).read_text(encoding="utf-8")
            _, relations = load_relations(cand.parser)(text, cand.path)
        except (OSError, RecursionError, ValueError, UnicodeError, MemoryError):  # a sync skips them
            continue
        symbols[cand.path] = sorted(s.qualname for s in relations.symbols) if relations else []
    print(json.dumps(symbols))


def read(root: Path, src: Path, suffixes: str) -> dict[str, list[str]]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [sys.executable, __file__, "--child", str(root), "--suffixes", suffixes]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True, env=env).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--dir", type=Path, help="a tree to read")
    where.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--against", type=Path, help="another src/ (git archive <commit> src)")
    parser.add_argument("--suffixes", default="", help="only the files ending so, comma-separated (.h,.cc)")
    args = parser.parse_args()
    suffixes = tuple(s for s in args.suffixes.split(",") if s)
    if args.child:
        child(args.child, suffixes)
        return
    root = args.dir.resolve()
    this = read(root, SRC, args.suffixes)
    before = read(root, args.against, args.suffixes) if args.against else {}
    print(f"{root}: {len(this)} files read by tree-sitter, {sum(map(len, this.values()))} symbols (this tree)")
    if not args.against:
        return
    print(f"against {args.against}: {sum(map(len, before.values()))} symbols")
    for path in sorted(this):
        was, now = set(before.get(path, [])), set(this[path])
        if was != now:
            lost, gained = sorted(was - now), sorted(now - was)
            print(f"  {path}: {len(was)} -> {len(now)}; lost {lost[:SHOWN]}; gained {gained[:SHOWN]}")


if __name__ == "__main__":
    main()
