"""A Markdown heading's HTML is no part of its title nor of its anchor, as GitHub shows it (parser
``markdown/9``): a comment is left out (MADR's template marks its optional sections so, ``## Decision
Drivers <!-- optional -->``, and a README its title for a table-of-contents tool, ``# Log4brains <!--
omit in toc -->``; log4brains' own ADRs, walked, were titled ``… > Decision Drivers <!-- optional -->``
at ``#decision-drivers----optional---``), an image stands for its ``alt`` text (go-chi's README, walked,
is titled ``# <img alt="chi" src="….svg" width="220" />``, and that was the first part of every one of
its excerpts' titles), a formatting element for its text. In a code span, and a type's generics
(``Vec<T>``), stay as written. And a table is a table: a line of dashes right under its last row is a
thematic break, not the underline that made the whole table a heading's text (go-chi's middlewares)."""

from __future__ import annotations

from kenning.ingest.markdown import parse_markdown
from kenning.ingest.markdown_blocks import markdown_heading
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


README = """\
# <img alt="chi" src="https://cdn.rawgit.com/go-chi/chi/master/_examples/chi.svg" width="220" />

A router.

## Use <kbd>Ctrl</kbd>+C to stop

Stops.

## Vec<T> and the `<img>` tag

Generics.

### Core middlewares

----------------------------------------------------------------------
| chi/middleware Handler | description                                 |
| :--------------------- | :------------------------------------------ |
| [Throttle] | Puts a ceiling on concurrent requests |
----------------------------------------------------------------------

[Throttle]: https://pkg.go.dev/github.com/go-chi/chi/middleware#Throttle
"""


def test_a_headings_comment_is_left_out_of_its_title_and_anchor():
    found = {c.anchor: c.title for c in parse_markdown(ADR, "docs/adr/20201103-use-lunr-for-search.md")}
    assert found["#use-lunr-for-search"] == "Use Lunr for search"
    assert found["#decision-drivers"] == "Use Lunr for search > Decision Drivers"
    assert found["#pros-and-cons-of-the-options"] == "Use Lunr for search > Pros and Cons of the Options"
    assert found["#the----more----marker"] == "Use Lunr for search > The `<!-- more -->` marker"  # code: kept
    assert not any("optional" in title for title in found.values())


def test_a_headings_html_shows_as_github_shows_it():
    found = {c.anchor: c.title for c in parse_markdown(README, "README.md")}
    assert found["#chi"] == "chi"
    assert found["#use-ctrlc-to-stop"] == "chi > Use Ctrl+C to stop"
    assert found["#vect-and-the-img-tag"] == "chi > Vec<T> and the `<img>` tag"
    assert markdown_heading("<IMG ALT='Ky' SRC=ky.svg> <br>HTTP client") == ("Ky HTTP client", "")


def test_a_line_of_dashes_under_a_table_ends_it_and_is_no_heading():
    found = {c.anchor: c for c in parse_markdown(README, "README.md")}
    middlewares = found["#core-middlewares"]
    assert middlewares.title == "chi > Vec<T> and the `<img>` tag > Core middlewares"
    assert "| [Throttle] | Puts a ceiling on concurrent requests |" in middlewares.body
    assert not any(
        title.startswith("chi > ---") or "| chi/middleware" in title for title in (c.title for c in found.values())
    )


def test_the_parser_versions_moved():
    assert parser_for("docs/adr/0001-x.md") == "markdown/9"  # a store parsed before reads its documents again
    assert parser_for("docs/intro.mdx") == "mdx/2"
