"""Lines of code that no excerpt holds (not a test): the figures of "uncovered" in docs/benchmarks.md.

Each source file of the trees given (Python through ``python/…``, the tree-sitter languages through
``code/…``: the product's parsers, called as a sync calls them) is cut into excerpts; a non-blank
line holding code (``ingest.uncovered.is_code``: not a comment alone, a preprocessor line, a closing
brace) that no excerpt's line range holds is uncovered. Per file suffix: uncovered lines, lines, the
share, and a few examples.

    .venv/bin/python bench/uncovered_lines.py TREE [TREE…]
    PYTHONPATH=/tmp/before/src .venv/bin/python bench/uncovered_lines.py TREE   # another commit's parsers
"""

from __future__ import annotations

import argparse
import os
import re
from collections import Counter, defaultdict

from kenning.ingest.parsers import load_relations, parser_for

try:  # what counts as a line of code, as this tree says it
    from kenning.ingest.uncovered import is_code
except ImportError:  # pragma: no cover (run on an older commit's parsers: the same rule, as it was written)
    _WORD = re.compile(r"\w+")

    def is_code(line: str) -> bool:
        text = line.strip()
        if not text or text.startswith(("//", "/*", "*", "#", "--")):
            return False
        words = _WORD.findall(text.split("//", 1)[0].split(" #", 1)[0])
        return bool(words) and set(words) != {"end"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("trees", nargs="+")
    parser.add_argument("--examples", type=int, default=3)
    args = parser.parse_args()
    uncovered: Counter[str] = Counter()
    total: Counter[str] = Counter()
    examples: dict[str, list[str]] = defaultdict(list)
    for tree in args.trees:
        for folder, dirs, names in os.walk(tree):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in names:
                path = os.path.join(folder, name)
                kind = parser_for(path)
                if kind is None or not kind.startswith(("python/", "code/")):
                    continue
                with open(path, encoding="utf-8", errors="replace") as handle:
                    text = handle.read()
                try:
                    chunks, _ = load_relations(kind)(text, os.path.relpath(path, tree))
                except (RecursionError, ValueError, MemoryError):
                    continue
                lines = text.splitlines()
                held = bytearray(len(lines) + 2)
                for chunk in chunks:
                    held[chunk.line_start : min(chunk.line_end, len(lines)) + 1] = b"\1" * (
                        min(chunk.line_end, len(lines)) - chunk.line_start + 1
                    )
                suffix = os.path.splitext(name)[1] or name
                for number, line in enumerate(lines, start=1):
                    if not is_code(line):
                        continue
                    total[suffix] += 1
                    if not held[number]:
                        uncovered[suffix] += 1
                        if len(examples[suffix]) < args.examples:
                            examples[suffix].append(f"{os.path.relpath(path, tree)}:{number}: {line.strip()[:70]}")
    print(f"{'suffix':8} {'uncovered':>10} {'of lines':>10} {'share':>8}")
    for suffix in sorted(total, key=lambda s: -uncovered[s] / total[s]):
        print(f"{suffix:8} {uncovered[suffix]:10} {total[suffix]:10} {100 * uncovered[suffix] / total[suffix]:7.2f} %")
        for example in examples[suffix]:
            print(f"           {example}")


if __name__ == "__main__":
    main()
