"""An HTML block that begins with a heading element is a section of the Markdown file (parser
``markdown/3``): FAQs written as ``<h3 name="config">…</h3>`` (ripgrep's), README banners written
as ``<h1 align="center">``. The anchor is the one the document gives (``FAQ.md#config``, what its
own links use), else a slug of the heading's text; a ``#`` line inside an HTML block is no heading.
A Markdown heading that holds an anchor element (``## <a id="lenient"></a> Malformed JSON``, gson's
troubleshooting guide) has that anchor too (``markdown/4``; a link beside it keeps its text, ``markdown/5``)."""

from __future__ import annotations

import pytest

from kenning.ingest import markdown_blocks
from kenning.ingest.markdown import parse_markdown

FAQ = """\
## FAQ

* [Does it read config files?](#config)
* [How do I search compressed files?](#compressed)

<h3 name="config">
Does it read config files?
</h3>

Yes, see the guide.

<h3 id="compressed">How do I search <code>compressed</code> files?</h3>

Pass `-z`: gzip, bzip2 and xz are read.
"""


def _sections(text: str, path: str = "FAQ.md") -> dict[str, tuple[str, str]]:
    """anchor -> (title, body) of each excerpt."""
    return {c.anchor: (c.title, c.body) for c in parse_markdown(text, path)}


def test_faq_entries_are_sections_with_the_documents_own_anchors():
    found = _sections(FAQ)
    assert found["#config"][0] == "FAQ > FAQ > Does it read config files?"  # the file, its ## FAQ
    assert "Yes, see the guide." in found["#config"][1]
    title, body = found["#compressed"]
    assert title == "FAQ > FAQ > How do I search compressed files?"  # tags dropped from the title
    assert "gzip, bzip2 and xz" in body and "Yes, see" not in body
    assert "Yes, see" not in found["#faq"][1]  # the list of questions is a section of its own


def test_a_readme_banner_titles_the_document():
    text = (
        '<h1 align="center">\n  <img src="logo.svg" alt="">\n  <br>\n  Ky\n</h1>\n\n'
        '<p align="center">A tiny HTTP client</p>\n\n## Install\n\nnpm install ky\n'
    )
    found = _sections(text, "readme.md")
    assert found["#ky"][0] == "Ky"
    assert found["#install"][0] == "Ky > Install"


def test_a_hash_line_inside_an_html_block_is_no_heading():
    text = "# Title\n\n<div>\n# not a heading\n</div>\n\n## Real\n\nbody\n"
    headings, _ = markdown_blocks.blocks(text)
    assert [(level, name) for _, level, name, _ in headings] == [(1, "Title"), (2, "Real")]


def test_other_html_blocks_and_a_heading_element_later_in_a_block_are_no_headings():
    text = '# T\n\n<p align="center">\n<h2>inside</h2>\n</p>\n\n<table><tr><td>x</td></tr></table>\n'
    headings, _ = markdown_blocks.blocks(text)
    assert [name for _, _, name, _ in headings] == ["T"]


def test_a_given_anchor_wins_over_a_slug_and_is_used_once():
    text = (
        '# Doc\n\n## Config\n\nmade\n\n<h3 name="config">Other</h3>\n\ngiven\n\n<h3 name="config">Again</h3>\n\nthird\n'
    )
    found = {body.strip().splitlines()[-1]: anchor for anchor, (_, body) in _sections(text, "d.md").items()}
    assert found == {"# Doc": "#doc", "given": "#config", "made": "#config-1", "third": "#again"}


GUIDE = """\
# Troubleshooting Guide

* [Malformed JSON not rejected](#default-lenient)

## <a id="default-lenient"></a> Malformed JSON not rejected

Use `Strictness.STRICT`.

## <a name="nulls">Properties</a> missing in JSON

Call `serializeNulls()`.

## Writing `<a id="x">` tags

Inside a code span: text.

## <a id="see"></a>See <a href="#nulls">nulls</a> and `<a href>`

A link beside the anchor.

## Read <A HREF="#nulls">this</A> first <a id="first"></a>

The anchor after a link.

<h2><a id="inner"></a>Wrapped in HTML</h2>

Given inside the element.
"""


def test_an_anchor_element_in_a_heading_is_its_anchor_and_no_part_of_its_title():
    found = _sections(GUIDE, "Troubleshooting.md")
    title, body = found["#default-lenient"]
    assert title == "Troubleshooting Guide > Malformed JSON not rejected"
    assert "Strictness.STRICT" in body
    assert found["#nulls"][0] == "Troubleshooting Guide > Properties missing in JSON"  # wrapping the text
    assert found["#inner"][0] == "Troubleshooting Guide > Wrapped in HTML"  # inside a heading element
    # inside a code span the element is the heading's text: its slug is the anchor
    assert found["#writing-a-idx-tags"][0] == 'Troubleshooting Guide > Writing `<a id="x">` tags'
    # a link beside the anchor keeps its text, not its tags (one in a code span stays as written)
    assert found["#see"][0] == "Troubleshooting Guide > See nulls and `<a href>`"
    assert found["#first"][0] == "Troubleshooting Guide > Read this first"


def test_both_readers_read_the_anchor_element():
    if markdown_blocks.NATIVE is None:
        pytest.skip("markdown-it-pyrs is not installed (Python 3.13+)")
    assert markdown_blocks.native_blocks(GUIDE)[0] == markdown_blocks.python_blocks(GUIDE)[0]
    assert [anchor for *_, anchor in markdown_blocks.python_blocks(GUIDE)[0]] == [
        "",
        "default-lenient",
        "nulls",
        "",
        "see",
        "first",
        "inner",
    ]
