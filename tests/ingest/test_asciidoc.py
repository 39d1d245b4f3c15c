"""AsciiDoc cut into sections by its titles (parser ``asciidoc/3``: ``.adoc``, ``.asciidoc``), as
reStructuredText is; a file without a title stays runs of paragraphs."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.ingest.asciidoc import find_titles, parse_asciidoc
from kenning.ingest.parsers import load_relations, load_spans, parser_for
from kenning.ingest.split import split_lines
from kenning.ingest.text import parse_text

GUIDE = """\
// a comment before the header
= Deploying the Service
Jane Doe <jane@example.org>
:toc: left

The service runs behind a proxy.

== Installation

Install the package:

[source,python]
----
# a comment in the listing, not a title
== not a title either

import service
----

=== From Source ===

Build the wheel.
== not a title: it follows a line of text

.A block title, no section
====
== inside an example block
====

[appendix]
[[trouble]]
== Troubleshooting

|===
| Symptom | Fix
|===

# Markdown-style Title
"""


def test_titles_levels_and_the_lines_never_read_as_titles():
    titles, blocks = find_titles(split_lines(GUIDE))
    assert [(start + 1, level, name) for start, level, name in titles] == [
        (2, 0, "Deploying the Service"),  # after a comment: still the document's title
        (8, 1, "Installation"),
        (20, 2, "From Source"),  # the closing marks are not the name's
        (30, 1, "Troubleshooting"),  # its section starts at its attribute lines, its title is line 32
        (38, 0, "Markdown-style Title"),
    ]
    # the listing, the example block and the table ([first, end), 0-based): no title inside
    assert blocks == [(12, 18), (25, 28), (33, 36)]


def test_sections_take_their_title_path_anchor_and_keywords():
    chunks = parse_asciidoc(GUIDE, "docs/deploy.adoc", max_chars=120)
    by_anchor = {c.anchor: c for c in chunks}
    assert by_anchor["#deploying-the-service"].title == "Deploying the Service"
    assert by_anchor["#installation"].title == "Deploying the Service > Installation"
    assert by_anchor["#from-source"].title == "Deploying the Service > Installation > From Source"
    trouble = by_anchor["#troubleshooting"]
    assert trouble.title == "Deploying the Service > Troubleshooting"
    assert trouble.body.startswith("[appendix]\n[[trouble]]\n== Troubleshooting")
    assert {"deploying", "troubleshooting"} <= set(trouble.keywords.lower().split())
    # the comment above the document's title is its section's, not an excerpt of its own
    assert (chunks[0].anchor, chunks[0].line_start) == ("#deploying-the-service", 1)
    # every non-blank line is in exactly one excerpt, in order
    assert [line for c in chunks for line in c.body.splitlines() if line.strip()] == [
        line for line in GUIDE.splitlines() if line.strip()
    ]


def test_a_second_level_0_title_starts_a_path_of_its_own():
    text = "= Book\n\n== Chapter\n\nText.\n\n# Part Two\n\n== Chapter\n\nMore.\n"
    chunks = parse_asciidoc(text, "book.adoc", max_chars=20)
    assert [(c.title, c.anchor) for c in chunks] == [
        ("Book", "#book"),
        ("Book > Chapter", "#chapter"),
        ("Part Two", "#part-two"),
        ("Part Two > Chapter", "#chapter-1"),
    ]


def test_short_sections_are_packed_under_the_first_ones_title():
    chunks = parse_asciidoc(GUIDE, "docs/deploy.adoc")
    assert len(chunks) == 1 and chunks[0].title == "Deploying the Service" and "== Troubleshooting" in chunks[0].body


def test_a_listing_is_not_cut_at_its_blank_lines():
    body = "\n\n".join(f"line {n} of the example" for n in range(12))
    text = f"= Guide\n\n== Example\n\n----\n{body}\n----\n\n" + "\n\n".join(["word " * 40] * 6)
    chunks = parse_asciidoc(text, "guide.adoc", max_chars=400)
    listing = [c for c in chunks if "line 0 of the example" in c.body]
    assert len(listing) == 1 and "line 11 of the example" in listing[0].body


def test_a_document_without_a_title_is_plain_text_and_a_title_after_text_is_a_subsection():
    text = "Some notes.\n== not a title: it follows text\n\n----\n= nor this\n----\n"
    assert find_titles(split_lines(text))[0] == []
    assert parse_asciidoc(text, "notes.adoc") == parse_text(text, "notes.adoc")
    chunks = parse_asciidoc("Intro text.\n\n== Usage\n\nRun it.\n", "docs/howto.adoc", max_chars=20)
    assert [(c.title, c.anchor) for c in chunks] == [("howto", "#howto"), ("howto > Usage", "#usage")]


def test_adoc_files_use_the_asciidoc_parser_and_spans_match_the_parse():
    assert parser_for("docs/manual.adoc") == parser_for("README.asciidoc") == "asciidoc/3"
    chunks, relations = load_relations("asciidoc/3")(GUIDE, "docs/deploy.adoc")
    assert relations is None
    assert [(c.title, c.body, c.anchor) for c in load_spans("asciidoc/3")(GUIDE, "docs/deploy.adoc")] == [
        (c.title, c.body, c.anchor) for c in chunks
    ]


def test_a_synced_adoc_file_answers_with_its_section(cli, make_project):
    """End to end: `kenning ask` cites the section of an ``.adoc`` file by its anchor and title."""
    long_install = "\n\n".join(f"Step {n}: copy the wheel onto the host and check it." for n in range(60))
    text = GUIDE.replace("Install the package:", long_install)  # Installation too long to pack with others
    project = make_project({"docs/deploy.adoc": text, "README.md": "# Demo\n\nA demo.\n"})
    assert cli("sync", "--project", str(project.root)).code == 0
    answer = cli("ask", "troubleshooting symptom fix", "--project", str(project.root), "--json").json()
    top = answer["excerpts"][0]
    assert top["source"]["uri"].startswith("docs/deploy.adoc")
    assert top["title"] == "Deploying the Service > Installation > From Source"  # packed with Troubleshooting
    assert top["source"]["uri"] == "docs/deploy.adoc#from-source" and top["freshness"]["state"] == "current"
    # an edit of that section, not synced yet: the file re-split as the sync cuts it says stale
    path = project.root / "docs" / "deploy.adoc"
    path.write_text(text.replace("Build the wheel.", "Build the wheel with uv."), encoding="utf-8")
    again = cli("ask", "troubleshooting symptom fix", "--project", str(project.root), "--json").json()
    assert again["excerpts"][0]["freshness"]["state"] == "stale"


LINES = st.sampled_from(
    ["= Title", "== Section", "=== Sub ===", "# Part", "----", "....", "////", "|===", "--", "====", "[appendix]"]
    + ["[[anchor]]", ":toc: left", "// note", "", "", "text line", "more words here", "== after text", "word " * 60]
)


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(LINES, max_size=60), cap=st.integers(min_value=40, max_value=600))
def test_every_line_is_kept_once_in_order_and_no_excerpt_passes_the_cap(lines, cap):
    text = "\n".join(lines)
    chunks = parse_asciidoc(text, "docs/any.adoc", max_chars=cap)
    # every word in order, once (a line longer than the cap is cut between its words)
    assert [word for c in chunks for word in c.body.split()] == text.split()
    assert all(len(c.body) <= cap for c in chunks)
    if find_titles(text.split("\n"))[0]:  # sections' anchors (plain text's are line ranges)
        anchors = [c.anchor for c in chunks]
        assert len(anchors) == len(set(anchors))
