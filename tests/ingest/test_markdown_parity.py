"""The native Markdown parser cuts documents exactly as markdown-it-py (the reference) does.

``kenning.ingest.markdown`` reads block structure with markdown-it in Rust (markdown-it-pyrs)
where it is installed, with markdown-it-py elsewhere (Python 3.13+: ``markdown_blocks``).
These tests run the same documents through both readers and compare the headings, the fenced
ranges and every excerpt. Where markdown-it-pyrs is not installed there is nothing to compare
(tests/ingest/test_markdown_fallback.py covers that installation).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.ingest import markdown, markdown_blocks
from kenning.ingest.markdown_blocks import native_blocks, python_blocks
from kenning.ingest.split import split_lines

pytestmark = pytest.mark.skipif(markdown_blocks.NATIVE is None, reason="markdown-it-pyrs is not installed")

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = sorted(
    p
    for folder in (ROOT / "tests" / "fixtures", ROOT / "docs", ROOT)
    for p in (folder.rglob("*.md") if folder != ROOT else folder.glob("*.md"))
)


def chunks_both_ways(text: str, path: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list, list]:
    with monkeypatch.context() as patch:
        patch.setattr(markdown_blocks, "blocks", native_blocks)
        native = markdown.parse_markdown(text, path)
        patch.setattr(markdown_blocks, "blocks", python_blocks)
        reference = markdown.parse_markdown(text, path)
    return native, reference


def test_the_corpus_is_not_empty() -> None:
    assert len(DOCUMENTS) >= 15
    assert any(p.parent.name == "docs" for p in DOCUMENTS)


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_repository_documents_split_identically(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text(encoding="utf-8")
    assert native_blocks(text) == python_blocks(text)
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
    '<h3 name="config">\nDoes it?\n</h3>\n\ntext\n<H2 ID="x">a <b>b</b></h2>\n<h4>unclosed\n\n<h1>\n',
    "para\n<h2>interrupts?</h2>\n\n```\n<h2>in fence</h2>\n```\n    <h2>indented</h2>\n",
    '## <a id="lenient"></a> Malformed `JSON`\n\nx\nTitle <A NAME=\'s\'>set</a>\n===\n## `<a id="c">` code\n',
    "# App <!-- omit in toc -->\n\n## Drivers <!--\noptional -->\n\n## The `<!-- more -->` mark\n\n"
    "Setext <!-- x -->\n---\n",
    '# <img alt="x" src="y.svg" />\n\n---\n| a | b |\n| - | - |\n| 1 | 2 |\n---\n\n***\ntext\n___\n',
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
    "<h2>",
    '<h3 name="a">',
    "</h2>",
    "</h3>",
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
    assert native_blocks(lines) == python_blocks(lines)
