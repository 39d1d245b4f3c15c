"""Which of a Rust file's items are tests: Rust keeps its unit tests in the file they test, in a
``#[cfg(test)] mod tests { … }`` of ``#[test]`` functions, so a file's path does not say it
(``test_files``). An item is test code when an attribute right above it says so: ``#[test]``,
``#[tokio::test]`` (any ``…::test``), ``#[rstest]``, ``#[test_case(…)]``, ``#[quickcheck]``, or
``#[cfg(test)]`` (``#[cfg(all(test, …))]``; not ``#[cfg(not(test))]``), and everything inside such
a module is; so is a test a macro defines (``rgtest!(name, …)``: ``macro_test_name``)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any

_TEST_ATTRIBUTE = re.compile(
    r"#\[\s*(?:(?:[\w]+::)*test|rstest|test_case|quickcheck)\s*(?:[(\]])"
    r"|#\[\s*cfg\s*\(\s*(?:all\s*\(\s*)?test\s*[,)]"
)
# A test a macro defines, as ripgrep's 316 integration tests are (``rgtest!(f70_smart_case, |dir,
# cmd| { … });``): a macro whose name says test, its first argument a name, then a comma.
_MACRO_TEST_NAME = re.compile(r"\w*test\w*\Z")
_FIRST_NAME = re.compile(r"\(\s*([A-Za-z_]\w*)\s*,")


def macro_test_name(node: Any) -> str | None:
    """The test a top-level statement defines when it is a test macro's invocation
    (``rgtest!(f70_smart_case, …)``: ``f70_smart_case``), else None."""
    call = node.named_children[0] if node.type == "expression_statement" and node.named_children else node
    if call.type != "macro_invocation":
        return None
    macro = call.child_by_field_name("macro")
    if macro is None or not _MACRO_TEST_NAME.match(macro.text.decode("utf-8", "replace")):
        return None
    tokens = next((child for child in call.named_children if child.type == "token_tree"), None)
    found = _FIRST_NAME.match(tokens.text.decode("utf-8", "replace")) if tokens is not None else None
    return found.group(1) if found else None


# The items an attribute may mark as tests, and the ones whose bodies hold more items.
_ITEMS = frozenset({"function_item", "mod_item", "impl_item"})
_HOLDERS = frozenset({"mod_item", "impl_item"})


def spans_of_tests(root: Any) -> list[tuple[int, int]]:
    """The byte spans (start, end) of the file's test items, in order, none inside another."""
    spans: list[tuple[int, int]] = []
    _collect(root, spans)
    return spans


def within(spans: Sequence[tuple[int, int]], at: int) -> bool:
    """Whether the byte ``at`` lies in one of ``spans`` (``spans_of_tests``)."""
    i = bisect_right(spans, (at, float("inf"))) - 1
    return i >= 0 and spans[i][0] <= at < spans[i][1]


def _collect(node: Any, spans: list[tuple[int, int]]) -> None:
    marked = False  # an attribute of the run right above the current item marks it a test
    for child in node.named_children:
        kind = child.type
        if kind == "attribute_item":
            marked = marked or bool(_TEST_ATTRIBUTE.match(child.text.decode("utf-8", "replace")))
            continue
        if kind in ("line_comment", "block_comment"):
            continue  # a comment between the attributes and their item
        if kind in _ITEMS and marked or kind == "expression_statement" and macro_test_name(child):
            spans.append((child.start_byte, child.end_byte))
        elif kind in _HOLDERS:
            body = child.child_by_field_name("body")
            if body is not None:
                _collect(body, spans)
        marked = False
