import json

from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.ingest.markdown import parse_markdown
from kenning.ingest.sections import slugify

GUIDE = """\
---
title: Front title
type: decision
status: accepted
date: 2024-03-01
tags: [search, fusion]
---
Some preamble.

# Guide

Welcome.

```bash
# this is a comment, not a heading
echo hi
```

## Install

Run it.

### On Debian

apt install it

Configuration
-------------

Edit the file.

## Install

Again, to test duplicate slugs.
"""


def by_title(chunks):
    return {chunk.title: chunk for chunk in chunks}


def words_of(text):
    return "".join(text.split())


def assert_chunks_cover(text, chunks, max_chars, skipped_lines=0):
    """All non-whitespace content in order, no body over the cap, sane and ordered ranges."""
    lines = text.split("\n")
    expected = words_of("\n".join(lines[skipped_lines:]))
    assert "".join(words_of(c.body) for c in chunks) == expected
    previous_end = skipped_lines
    for chunk in chunks:
        assert 0 < len(chunk.body) <= max_chars
        edges = chunk.body.split("\n")
        assert edges[0].strip() and edges[-1].strip()  # no blank line at either end
        assert previous_end <= chunk.line_start <= chunk.line_end <= len(lines)
        source = "\n".join(lines[chunk.line_start - 1 : chunk.line_end])
        if chunk.line_start == chunk.line_end and source != chunk.body:
            assert chunk.body in source  # a piece of an overlong line
        else:
            assert source == chunk.body
        previous_end = chunk.line_end
    assert len({c.anchor for c in chunks}) == len(chunks)


def test_a_hash_line_inside_a_fence_is_not_a_heading():
    chunks = parse_markdown(GUIDE, "docs/guide.md")
    guide = by_title(chunks)["Guide"]
    assert "# this is a comment, not a heading" in guide.body
    assert not any("comment" in c.title for c in chunks)


def test_sections_follow_the_heading_path():
    titles = [c.title for c in parse_markdown(GUIDE, "docs/guide.md")]
    assert titles == [
        "Guide",
        "Guide",
        "Guide > Install",
        "Guide > Install > On Debian",
        "Guide > Configuration",
        "Guide > Install",
    ]


def test_front_matter_gives_type_and_metadata_but_no_body():
    chunks = parse_markdown(GUIDE, "docs/guide.md")
    assert {c.type for c in chunks} == {"decision"}
    front = chunks[0].meta["front_matter"]
    assert front == {
        "title": "Front title",
        "type": "decision",
        "status": "accepted",
        "date": "2024-03-01",
        "tags": ["search", "fusion"],
    }
    assert all(c.meta["front_matter"] == front for c in chunks)
    json.dumps(chunks[0].meta)  # dates come back as ISO strings
    assert not any("accepted" in c.body for c in chunks)
    assert chunks[0].body == "Some preamble." and chunks[0].line_start == 8


def test_invalid_front_matter_is_read_as_markdown_without_crashing():
    text = "---\ntitle: [unclosed\n---\nBody text.\n"
    chunks = parse_markdown(text, "notes/odd.md")
    assert all("front_matter" not in c.meta for c in chunks)
    assert {c.type for c in chunks} == {"doc"}
    assert "unclosed" in " ".join(c.body for c in chunks)


def test_without_h1_or_title_the_file_stem_heads_the_path():
    chunks = parse_markdown("intro\n\n## Usage\n\ntext\n", "docs/cli-usage.md")
    assert [(c.title, c.anchor) for c in chunks] == [
        ("cli-usage", "#cli-usage"),
        ("cli-usage > Usage", "#usage"),
    ]


def test_the_front_matter_title_heads_the_path_when_there_is_no_h1():
    chunks = parse_markdown("---\ntitle: Manual\n---\n## Usage\ntext\n", "docs/m.md")
    assert [c.title for c in chunks] == ["Manual > Usage"]
    assert chunks[0].line_start == 4


def test_setext_headings_are_sections():
    text = "Title\n=====\n\nintro\n\nPart\n----\n\nbody\n"
    chunks = parse_markdown(text, "x.md")
    assert [(c.title, c.anchor, c.line_start, c.line_end) for c in chunks] == [
        ("Title", "#title", 1, 4),
        ("Title > Part", "#part", 6, 9),
    ]


def test_duplicate_slugs_get_numbered_suffixes():
    chunks = parse_markdown("# A\n## Notes\n## Notes\n## Notes!\n", "x.md")
    assert [c.anchor for c in chunks] == ["#a", "#notes", "#notes-1", "#notes-2"]


def test_the_preamble_of_a_document_with_an_h1_is_anchored_at_top():
    chunks = parse_markdown("[badge](x)\n\n# Project\n", "README.md")
    assert [(c.title, c.anchor) for c in chunks] == [("Project", "#top"), ("Project", "#project")]


def test_slugs_follow_github():
    assert slugify("Install `kenning` (v2.0)!") == "install-kenning-v20"
    assert slugify("snake_case and-kebab") == "snake_case-and-kebab"
    assert slugify("Ünïcode Ça va") == "ünïcode-ça-va"


def test_an_empty_section_is_still_emitted_with_its_heading_as_body():
    chunks = parse_markdown("# A\n\n## Empty\n\n## Full\ntext\n", "x.md")
    assert by_title(chunks)["A > Empty"].body == "## Empty"


def test_an_empty_heading_gives_way_to_the_document_title():
    chunks = parse_markdown("#\n## Sub\n", "notes.md")
    assert [(c.title, c.anchor) for c in chunks] == [("notes", "#section"), ("notes > Sub", "#sub")]


def test_keywords_come_from_the_title():
    chunks = parse_markdown("# rrfFuse tuning\n", "x.md")
    assert chunks[0].keywords == "rrfFuse rrf fuse tuning"


def test_a_long_section_is_split_into_numbered_parts_at_paragraphs():
    paragraphs = [f"paragraph {i} " + "word " * 40 for i in range(10)]
    text = "# Big\n\n" + "\n\n".join(paragraphs) + "\n"
    chunks = parse_markdown(text, "big.md", max_chars=500)
    assert len(chunks) > 2
    assert chunks[0].anchor == "#big" and chunks[0].title == "Big"
    assert chunks[1].anchor == "#big-part-2" and chunks[1].title == "Big (part 2)"
    assert chunks[2].anchor == "#big-part-3" and chunks[2].title == "Big (part 3)"
    assert all(not c.body.startswith("\n") and not c.body.endswith("\n") for c in chunks)
    assert_chunks_cover(text, chunks, 500)


def test_blank_lines_inside_a_fence_are_not_paragraph_boundaries():
    fence = "```\n" + "\n\n".join(f"code line {i}" for i in range(8)) + "\n```"
    text = "# Code\n\n" + "intro " * 15 + "\n\n" + fence + "\n\n" + "outro " * 15 + "\n"
    chunks = parse_markdown(text, "code.md", max_chars=160)
    assert fence in [c.body for c in chunks]
    assert_chunks_cover(text, chunks, 160)


def test_a_twenty_thousand_character_document_is_entirely_covered():
    sections = []
    for s in range(4):
        body = "\n\n".join(f"s{s}p{p} " + " ".join(f"w{s}_{p}_{i}" for i in range(60)) for p in range(8))
        sections.append(f"## Section {s}\n\n{body}")
    one_line = " ".join(f"long{i}" for i in range(900))  # a single paragraph line over the cap
    text = "# Doc\n\n" + "\n\n".join(sections) + "\n\n## Tail\n\n" + one_line + "\n"
    assert len(text) > 20_000
    chunks = parse_markdown(text, "doc.md")
    bodies = {word for c in chunks for word in c.body.split()}
    assert set(text.split()) <= bodies
    assert all(len(c.body) <= 2400 for c in chunks)
    assert_chunks_cover(text, chunks, 2400)


def test_a_token_longer_than_the_cap_is_cut_hard():
    text = "# T\n\n" + "x" * 250 + "\n"
    chunks = parse_markdown(text, "t.md", max_chars=100)
    assert [len(c.body) for c in chunks] == [3, 100, 100, 50]
    assert_chunks_cover(text, chunks, 100)


def test_windows_line_endings_keep_line_numbers():
    chunks = parse_markdown("# A\r\n\r\ntext\r\n# B\r\nmore\r\n", "x.md")
    assert [(c.body, c.line_start, c.line_end) for c in chunks] == [
        ("# A\n\ntext", 1, 3),
        ("# B\nmore", 4, 5),
    ]


def test_an_empty_document_gives_no_chunk():
    assert parse_markdown("", "x.md") == []
    assert parse_markdown("---\ntitle: only\n---\n\n", "x.md") == []


word = st.text(alphabet="abcXYZ#_-`*>=0é", min_size=1, max_size=12) | st.text(alphabet="qrs", min_size=30, max_size=90)
line = st.one_of(
    st.lists(word, min_size=1, max_size=25).map(" ".join),
    st.tuples(st.integers(1, 6), st.lists(word, max_size=4)).map(lambda t: "#" * t[0] + " " + " ".join(t[1])),
    st.sampled_from(["", "", "```", "~~~", "===", "---", "    indented code", "  ", "\t"]),
)
front_matter = st.sampled_from(["\n", "---\ntitle: T\ntype: note\n---\n", "---\n---\n"])


@settings(max_examples=300, deadline=None, database=None)
@given(front=front_matter, lines=st.lists(line, max_size=60), max_chars=st.integers(20, 300))
def test_every_word_is_covered_and_line_ranges_match_the_source(front, lines, max_chars):
    text = front + "\n".join(lines)
    chunks = parse_markdown(text, "prop.md", max_chars=max_chars)
    assert_chunks_cover(text, chunks, max_chars, skipped_lines=front.count("\n"))


@settings(max_examples=200, deadline=None, database=None)
@given(text=st.text(max_size=400), max_chars=st.integers(10, 200))
def test_arbitrary_text_never_crashes_and_loses_nothing(text, max_chars):
    text = "x\n" + text.replace("\r", "").lstrip("\ufeff")
    chunks = parse_markdown(text, "any.md", max_chars=max_chars)
    assert_chunks_cover(text, chunks, max_chars)


def test_a_headings_badges_are_left_out_of_its_title_and_anchor():
    """spring-petclinic, walked as a new user: every hit in its README was titled
    ``Spring PetClinic Sample Application ![Build Status](…maven-build.yml)![Build Status](…)``."""
    text = (
        "# Spring PetClinic Sample Application [![Build Status](https://x/maven.yml/badge.svg)](https://x/maven.yml)"
        "[![Build Status](https://x/gradle.svg)](https://x/gradle.yml)\n\nIntro.\n\n"
        "## Database configuration\n\nThe database is H2.\n\n"
        "## See [the guide](docs/guide.md) ![logo](l.png)\n\nText.\n"
    )
    chunks = parse_markdown(text, "README.md")
    assert [(c.title, c.anchor) for c in chunks] == [
        ("Spring PetClinic Sample Application", "#spring-petclinic-sample-application"),
        ("Spring PetClinic Sample Application > Database configuration", "#database-configuration"),
        ("Spring PetClinic Sample Application > See the guide", "#see-the-guide"),
    ]
