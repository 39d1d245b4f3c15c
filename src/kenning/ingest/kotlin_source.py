"""Kotlin declarations the grammar reads as expressions, read again without their annotations.

tree-sitter-kotlin (1.1) reads some annotated top-level declarations as an ``annotated_expression``
around an infix expression, without an error: nowinandroid's ``@RunWith(…) @Config(sdk = [35])
class InterestsViewModelTest`` and its ``@Composable`` functions were no symbols, their tests no
tests. The first annotation of such a node is blanked in place (spaces; newlines kept, so positions
and excerpts stay as written) and the file parsed again, up to ``ROUNDS`` times: the declaration
then reads as one, with the annotations left as its modifiers (the blanked one is read with the
file's top-level lines).
"""

from __future__ import annotations

from typing import Any

ROUNDS = 4


def reparsed(parser: Any, tree: Any, encoded: bytes) -> Any:
    """``tree``, or the tree of ``encoded`` with the first annotation of each top-level
    ``annotated_expression`` blanked, again until none is left or after ``ROUNDS`` parses."""
    for _ in range(ROUNDS):
        spans = [
            (first.start_byte, first.end_byte)
            for node in tree.root_node.named_children
            if node.type == "annotated_expression"
            for first in node.named_children[:1]
            if first.type == "annotation"
        ]
        if not spans:
            return tree
        blanked = bytearray(encoded)
        for start, end in spans:
            blanked[start:end] = bytes(32 if byte not in (10, 13) else byte for byte in encoded[start:end])
        encoded = bytes(blanked)
        tree = parser.parse(encoded)
    return tree
