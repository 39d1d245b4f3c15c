"""reStructuredText cut into sections by its titles (parser ``rst/3``: ``.rst`` and ``.txt``), as
Markdown is by its headings; a file without a title stays runs of paragraphs."""

from __future__ import annotations

from kenning.ingest.parsers import load_relations, load_spans, parser_for
from kenning.ingest.rst import find_titles, parse_rst
from kenning.ingest.split import split_lines
from kenning.ingest.text import parse_text

GUIDE = """\
==========================
Testing Flask Applications
==========================

Flask provides utilities for testing an application.

The Test Client
===============

The test client makes requests to the application without running a live server::

    client = app.test_client()
    response = client.get("/")
    Not a title
    -----------

Form Data
---------

Pass a dict to ``data=``.

+------+------+
| cell | cell |
+------+------+

Name   Value
=====  =====
a      1
=====  =====

Fixtures
========

Use pytest fixtures.

----

After a transition.
"""


def test_titles_and_their_levels_follow_the_order_their_styles_appear_in():
    titles = [(t.start + 1, t.level, t.name) for t in find_titles(split_lines(GUIDE))]
    assert titles == [
        (1, 0, "Testing Flask Applications"),  # overlined: a style of its own
        (7, 1, "The Test Client"),
        (17, 2, "Form Data"),  # the indented lines of the literal block are no title, nor tables
        (31, 1, "Fixtures"),
    ]


def test_sections_that_fit_together_are_one_excerpt_titled_by_the_first():
    chunks = parse_rst(GUIDE, "docs/testing.rst")
    assert [(c.title, c.anchor, c.line_start, c.line_end) for c in chunks] == [
        ("Testing Flask Applications", "#testing-flask-applications", 1, 38),
    ]
    assert chunks[0].keywords == "Testing Flask Applications"  # the first one's: the others' titles are text
    assert chunks[0].body == GUIDE.rstrip("\n")  # nothing lost, nothing added


def _long(words: str) -> str:
    return "\n\n".join([words] * 24)  # about 1,400 characters: two do not fit in one excerpt


LONG = (
    "==========================\nTesting Flask Applications\n==========================\n\n"
    + _long("Flask provides utilities for testing an application.")
    + "\n\nThe Test Client\n===============\n\n"
    + _long("The test client makes requests without a live server.")
    + "\n\nForm Data\n---------\n\n"
    + _long("Pass a dict to the data argument of the client methods.")
    + "\n\nFixtures\n========\n\n"
    + _long("Use pytest fixtures to build the application and client.")
    + "\n"
)


def test_each_section_too_long_to_share_is_an_excerpt_with_its_title_path_and_anchor():
    chunks = parse_rst(LONG, "docs/testing.rst")
    assert [(c.title, c.anchor) for c in chunks] == [
        ("Testing Flask Applications", "#testing-flask-applications"),
        ("Testing Flask Applications > The Test Client", "#the-test-client"),
        ("Testing Flask Applications > The Test Client > Form Data", "#form-data"),
        ("Testing Flask Applications > Fixtures", "#fixtures"),
    ]
    assert all(c.type == "doc" and len(c.body) <= 2400 for c in chunks)
    assert (
        chunks[2].body.startswith("Form Data\n---------")
        and chunks[2].line_start == LONG.splitlines().index("Form Data") + 1
    )
    assert {"fixtures", "testing"} <= set(chunks[3].keywords.lower().split())  # the path's words
    assert [line for c in chunks for line in c.body.splitlines() if line] == [x for x in LONG.splitlines() if x]


def test_a_long_section_is_cut_into_parts_and_a_repeated_title_gets_its_own_anchor():
    text = "Guide\n=====\n\nSetup\n-----\n\n" + "\n\n".join(["word " * 60] * 20) + "\n\nSetup\n-----\n\nAgain.\n"
    chunks = parse_rst(text, "docs/guide.rst", max_chars=800)
    anchors = [c.anchor for c in chunks]
    assert anchors[:3] == ["#guide", "#setup", "#setup-part-2"] and anchors[-1] == "#setup-1"
    assert len(anchors) == len(set(anchors))
    assert all(len(c.body) <= 800 for c in chunks)


def test_a_document_without_a_title_is_plain_text():
    text = "Requirements\nrequests>=2\n\n----\n\nclick\n"  # a short underline, a transition: no title
    assert find_titles(split_lines(text)) == []
    assert parse_rst(text, "requirements.txt") == parse_text(text, "requirements.txt")


def test_a_document_whose_first_title_is_a_subsection_starts_its_paths_with_its_name():
    chunks = parse_rst("Intro text.\n\nUsage\n-----\n\nRun it.\n", "docs/howto.txt", max_chars=20)
    # text before the first title: that title is a section's, the document's title is the file's name
    assert [(c.title, c.anchor) for c in chunks] == [("howto", "#howto"), ("howto > Usage", "#usage")]


LABELLED = (
    ".. _authentication:\n\nAuthentication\n==============\n\n"
    + _long("This document discusses using various kinds of authentication.")
    + "\n\n.. _digest:\n\nDigest Authentication\n---------------------\n\n"
    + _long("Digest Authentication is supported out of the box.")
    + "\n"
)


def test_a_title_after_a_sphinx_label_titles_the_document_and_each_label_opens_its_section():
    lines, text = LABELLED.splitlines(), LABELLED
    chunks = parse_rst(text, "docs/user/authentication.rst")
    assert [(c.title, c.anchor, c.line_start) for c in chunks] == [
        ("Authentication", "#authentication", 1),  # not ("authentication", "#top"): the label is no text
        ("Authentication > Digest Authentication", "#digest-authentication", lines.index(".. _digest:") + 1),
    ]
    assert chunks[0].body.startswith(".. _authentication:") and ".. _digest:" not in chunks[0].body
    module = parse_rst(".. currentmodule:: flask\n\nBlueprints\n==========\n\nViews.\n", "docs/views.rst")
    assert [(c.title, c.anchor, c.line_start) for c in module] == [("Blueprints", "#blueprints", 1)]
    # text before the first title is the document's own: the file's name titles it, as before
    prose = parse_rst("Some intro.\n\nBlueprints\n==========\n\nViews.\n", "docs/views.rst")
    assert [(c.title, c.anchor) for c in prose] == [("views", "#views")]
    # a link target with its URL names no section: it stays where it is
    guide = "Guide\n=====\n\nText.\n\n.. _pip: https://pip.pypa.io\n\nSetup\n-----\n\nRun.\n"
    assert [c.body.splitlines()[0] for c in parse_rst(guide, "docs/guide.rst", max_chars=60)] == ["Guide", "Setup"]


def test_rst_and_txt_files_use_the_rst_parser_and_spans_match_the_parse():
    assert parser_for("docs/topics/email.txt") == parser_for("docs/testing.rst") == "rst/3"
    chunks, relations = load_relations("rst/3")(GUIDE, "docs/testing.rst")
    assert relations is None
    assert [(c.title, c.body, c.anchor) for c in load_spans("rst/3")(GUIDE, "docs/testing.rst")] == [
        (c.title, c.body, c.anchor) for c in chunks
    ]
