"""The attribute list that ends a Markdown heading (``## Testing { #testing }``: MkDocs' attr_list,
kramdown's ``{: .no_toc }``, Pandoc, markdown-it-attrs) is no part of its title, and its id is the
heading's anchor (parser ``markdown/7``, now ``markdown/9``): FastAPI's docs end every heading with one, which gave
titles like ``Testing { #testing } > Separating tests { #separating-tests }`` and anchors like
``#fastapi-app-file--fastapi-app-file-`` where the site's is ``#fastapi-app-file`` (walked,
docs/benchmarks.md "translations"). Both Markdown readers agree (the parity test)."""

from __future__ import annotations

import pytest

from kenning.ingest import markdown_blocks
from kenning.ingest.markdown import parse_markdown
from kenning.ingest.parsers import parser_for

PAGE = """\
# Testing { #testing }

Use the test client.

## **FastAPI** app file { #fastapi-app-file }

The app.

## Contents {: .no_toc .text-delta }

1. A list.

## Setup {#setup data-level=2}

Install it.

## The `{#id}` syntax

Headings may end with an attribute list.

## Sets {1, 2}

Braces that are no attribute list.
"""


def _sections() -> dict[str, str]:
    """anchor -> title of each excerpt."""
    return {c.anchor: c.title for c in parse_markdown(PAGE, "docs/testing.md")}


def test_the_attribute_list_is_left_out_of_the_title_and_its_id_is_the_anchor():
    found = _sections()
    assert found["#testing"] == "Testing"
    assert found["#fastapi-app-file"] == "Testing > **FastAPI** app file"
    assert found["#setup"] == "Testing > Setup"


def test_a_list_without_an_id_leaves_the_title_and_the_anchor_is_made_from_it():
    assert _sections()["#contents"] == "Testing > Contents"


def test_braces_that_are_no_attribute_list_stay_in_the_title():
    found = _sections()
    assert found["#the-id-syntax"] == "Testing > The `{#id}` syntax"  # in a code span
    assert found["#sets-1-2"] == "Testing > Sets {1, 2}"


def test_the_markdown_parser_version_moved():
    assert parser_for("docs/testing.md") == "markdown/9"  # a store parsed before reads its documents again


@pytest.mark.parametrize(
    ("heading", "anchor", "kept"),
    [
        ("x {#" + "a." * 20000 + " !}", "", 40007),  # an id, then what no list holds: no list
        ("x " + "{ #a " * 20000 + "}", "a", 99996),  # the last braces make a list, the others stay
        ("x {k=" + "a." * 20000 + "=!}", "", 1),  # one pair, its value long: a list without an id
        ("x " + "{#a} " * 20000 + "{#b}", "b", 100001),  # many lists: the last one is read, once
    ],
)
def test_a_crafted_heading_is_read_in_one_pass(heading, anchor, kept):
    """Each attribute holds no blank and the blanks part them, so a list is read one way only: a
    pattern that could cut ``#a.a.a…`` in two ways each time would not return (no timed assertion:
    the machines are noisy; a regression hangs the suite)."""
    text, found = markdown_blocks.markdown_heading(heading)
    assert (found, len(text)) == (anchor, kept)
