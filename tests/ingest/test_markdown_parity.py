"""The native Markdown parser cuts documents exactly as markdown-it-py (the reference) did.

``kenning.ingest.markdown`` reads block structure with markdown-it in Rust (markdown-it-pyrs).
These tests run the same documents through markdown-it-py's block parser, with the rules the
product used before, and compare the headings, the fenced ranges and every excerpt.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from kenning.ingest import markdown
from kenning.ingest.split import split_lines

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted(
    p
    for folder in (ROOT / "tests" / "fixtures", ROOT / "docs", ROOT)
    for p in (folder.rglob("*.md") if folder != ROOT else folder.glob("*.md"))
)

_REFERENCE = MarkdownIt("zero").enable(["heading", "lheading", "fence", "code"])
_REFERENCE.disable("inline")


def reference_blocks(text: str) -> tuple[list[tuple[int, int, str]], list[tuple[int, int]]]:
    """The block reader kenning used with markdown-it-py (parser ``markdown/2``)."""
    headings: list[tuple[int, int, str]] = []
    fences: list[tuple[int, int]] = []
    tokens = _REFERENCE.parse(text)
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            headings.append((token.map[0], int(token.tag[1:]), markdown.heading_text(tokens[i + 1].content)))
        elif token.type == "fence" and token.map:
            fences.append((token.map[0], token.map[1]))
    return headings, fences


def chunks_both_ways(text: str, path: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:
    native = markdown.parse_markdown(text, path)
    with monkeypatch.context() as patch:
        patch.setattr(markdown, "_blocks", reference_blocks)
        reference = markdown.parse_markdown(text, path)
    return native, reference


def test_the_corpus_is_not_empty() -> None:
    assert len(DOCUMENTS) >= 15
    assert any(p.parent.name == "docs" for p in DOCUMENTS)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_repository_documents_split_identically(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text(encoding="utf-8")
    assert markdown._blocks(text) == reference_blocks(text)
    native, reference = chunks_both_ways(text, path.name, monkeypatch)
    assert native == reference
    assert len(native) >= 1


EDGE_CASES = [
    "#\n\n# \n\n##   \n",
    "   ## closed ##\n\ntext\n",
    "Foo\nbar\n===\n\nbaz\n---\n",
    "```\nunclosed fence\n\n# not a heading\n",
    "~~~\na\n~~~\n# after\n",
    "a\0b\n# h\0eading\n",
    "\t# tab is code\n\n    # indented code\n\n# real\n",
    "> # quote\n- # list item\n<div>\n# inside html\n</div>\n",
    "# é [link](x) ![img](y)\n```\n```\n# b",
    "para\n    # continuation\n",
    "# one\r\n\r\ntext\r\n## two\r",
    "---\ntitle: Front\n---\n# Heading\n\n```\n# x\n```\n",
    "\ufeff# BOM\n\n\u2028# not a line break\n\n# 😀 wide\n",
]


@pytest.mark.parametrize("text", EDGE_CASES)
def test_edge_cases_split_identically(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    native, reference = chunks_both_ways(text, "edge.md", monkeypatch)
    assert native == reference


FRAGMENTS = [
    "#",
    "## ",
    "# ",
    "\n",
    "\n\n",
    "```",
    "~~~",
    "    ",
    "\t",
    "text",
    "é",
    "===",
    "---",
    ">",
    "- ",
    "<div>",
    "`",
    "\\",
    "[a](b)",
    " ",
    "\r\n",
    "\0",
    "😀",
    "***",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=60))
def test_generated_documents_split_identically(parts: list[str]) -> None:
    text = "".join(parts)
    lines = "\n".join(split_lines(text))  # what parse_markdown hands the parser
    assert markdown._blocks(lines) == reference_blocks(lines)
