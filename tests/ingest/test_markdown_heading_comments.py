"""An HTML comment in a Markdown heading is no part of its title nor of its anchor (parser
``markdown/9``): MADR's template marks its optional sections so (``## Decision Drivers <!-- optional
-->``), and a README its title for a table-of-contents tool (``# Log4brains <!-- omit in toc -->``).
log4brains' own ADRs, walked, were titled ``… > Decision Drivers <!-- optional -->`` at the anchor
``#decision-drivers----optional---``. A comment inside a code span is the heading's text."""

from __future__ import annotations

from kenning.ingest.markdown import parse_markdown
from kenning.ingest.parsers import parser_for

ADR = """\
# Use Lunr for search <!-- omit in toc -->

- Status: accepted

## Decision Drivers <!-- optional -->

- Speed

## Pros and Cons of the Options <!-- optional -->

Both were tried.

## The `<!-- more -->` marker

Cuts the summary.
"""


def test_a_headings_comment_is_left_out_of_its_title_and_anchor():
    found = {c.anchor: c.title for c in parse_markdown(ADR, "docs/adr/20201103-use-lunr-for-search.md")}
    assert found["#use-lunr-for-search"] == "Use Lunr for search"
    assert found["#decision-drivers"] == "Use Lunr for search > Decision Drivers"
    assert found["#pros-and-cons-of-the-options"] == "Use Lunr for search > Pros and Cons of the Options"
    assert found["#the----more----marker"] == "Use Lunr for search > The `<!-- more -->` marker"  # code: kept
    assert not any("optional" in title for title in found.values())


def test_the_parser_versions_moved():
    assert parser_for("docs/adr/0001-x.md") == "markdown/9"  # a store parsed before reads its documents again
    assert parser_for("docs/intro.mdx") == "mdx/2"
