"""The cold sync's faster paths through a Markdown file give what the plain ones gave.

Each fast path is compared with the straightforward code it replaced, kept here as the
reference: front matter read by libyaml (when its text is plain) against PyYAML's own loader,
links found without a look-behind, heading-path keywords built heading by heading, and
blank lines looked at only where a section is cut.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.ingest import decisions, markdown, split
from kenning.ingest.identifiers import keywords_for

YAML_FRAGMENTS = [
    "title",
    "tags",
    "date",
    ": ",
    ":",
    " ",
    "\n",
    "\n  ",
    "\n- ",
    "- ",
    "  - ",
    '"x y"',
    "'it''s'",
    "'",
    '"',
    "#",
    " # note",
    "? ",
    "?",
    "2024-01-02",
    "12:30",
    "1e3",
    "0x1F",
    "yes",
    "off",
    "null",
    "~",
    ".inf",
    "é",
    "日本",
    "a b",
    "-1",
    ",",
    "---",
    "...",
    # where the two loaders differ on edge cases: these send the text to PyYAML's loader
    "!",
    "!!str ",
    "&a ",
    "*a",
    "|",
    ">",
    "[",
    "]",
    "{",
    "}",
    "\t",
    "\\",
    "%",
    "@",
    "`",
    "\x85",
    "\u2028",
    "\ufeff",
    "😀",
]


def reference_front_matter(text: str) -> tuple[dict[str, Any], int]:
    """``markdown._front_matter`` as it was: PyYAML's safe loader for every text."""
    match = markdown._FRONT_MATTER.match(text)
    if not match:
        return {}, 0
    try:
        data = yaml.load(match.group(1), Loader=yaml.SafeLoader)  # noqa: S506
    except Exception:
        return {}, 0
    if data is None:
        data = {}
    if not isinstance(data, dict):
        return {}, 0
    return markdown._json_safe(data), match.group(1).count("\n") + 2


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(YAML_FRAGMENTS), max_size=20))
def test_front_matter_reads_as_pyyaml_reads_it(parts: list[str]) -> None:
    text = "---\n" + "".join(parts) + "\n---\n# Heading\n"
    assert markdown._front_matter(text) == reference_front_matter(text)


def test_plain_front_matter_goes_to_libyaml_and_edge_cases_to_pyyaml() -> None:
    assert (
        markdown._loader("title: Guide\ntags:\n  - a\n  - 'b c'\ndate: 2024-01-02 # note\n") is (markdown.loaders()[0])
    )
    for edge in ("tags: [a, b]", "x: !!str 1", "x: |\n  a", "x:\ty", "x: &a 1\ny: *a", "title: 😀"):
        assert markdown._loader(edge) is yaml.SafeLoader, edge
    # One they read differently: PyYAML (the reference) gives None for an empty tag.
    assert markdown._front_matter("---\ntags: &a !\n---\n")[0] == {"tags": None}


_LOOK_BEHIND_LINK = re.compile(r"(?<!!)" + decisions._LINK.pattern)
LINK_FRAGMENTS = ["!", "[", "]", "(", ")", "a", " ", "\n", "<", ">", '"t"', "b.md", "#x", "![i](p.png)", "[l](d.md)"]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(LINK_FRAGMENTS), max_size=40))
def test_links_are_found_as_the_look_behind_pattern_found_them(parts: list[str]) -> None:
    text = "".join(parts)
    expected = [(m.start(), m.end(), m.group(1)) for m in _LOOK_BEHIND_LINK.finditer(text)]
    assert [(m.start(), m.end(), m.group(1)) for m in decisions._link_matches(text)] == expected


def test_link_lines_are_counted_from_one_link_to_the_next() -> None:
    text = "[a](one.md)\n\n![img](pic.png) ![x [b](two.md)\ntext\n\n[c](https://x.org) [d](three.md#part)\n"
    refs = list(decisions._links(text, "docs/index.md"))
    assert [(r.target, r.line) for r in refs] == [("docs/one.md", 1), ("docs/two.md", 3), ("docs/three.md", 6)]


MARKDOWN_FRAGMENTS = [
    "# ",
    "## ",
    "### ",
    "#",
    "\n",
    "\n\n",
    "parseV2Token",
    "HTTPServer",
    "Install",
    "install",
    " > ",
    "a-b.c",
    "é",
    "text",
    "```\n",
    "    ",
    "===",
    "---",
    "x" * 900,
    "word " * 150,
]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(MARKDOWN_FRAGMENTS), max_size=50))
def test_section_keywords_are_those_of_the_heading_path(parts: list[str]) -> None:
    for chunk in markdown.parse_markdown("".join(parts), "guide.md", max_chars=300):
        title = (
            re.sub(r" \(part \d+\)$", "", chunk.title)
            if chunk.anchor.rsplit("-part-", 1)[-1].isdigit()
            else chunk.title
        )
        assert chunk.keywords == keywords_for(title), chunk.title


def reference_split_range(lines: list[str], fenced: list[tuple[int, int]], first: int, last: int, cap: int) -> list:
    """``split.split_range`` over the eager index it used to build: every line's blank and
    break flags computed up front."""
    blank = [not line.strip() for line in lines]
    breaks = list(blank)
    for start, end in fenced:
        breaks[start:end] = [False] * (end - start)
    cum = [0, *accumulate(map(len, lines))]

    def length(a: int, b: int) -> int:
        return cum[b + 1] - cum[a] + (b - a)

    def trim(a: int, b: int) -> tuple[int, int] | None:
        while a <= b and blank[a]:
            a += 1
        while b >= a and blank[b]:
            b -= 1
        return (a, b) if a <= b else None

    def pack(units: list[tuple[int, int]]) -> list[tuple[int, int]]:
        packed: list[tuple[int, int]] = []
        current = None
        for a, b in units:
            if current is not None and length(current[0], b) <= cap:
                current = (current[0], b)
                continue
            if current is not None:
                packed.append(current)
            current = (a, b)
        if current is not None:
            packed.append(current)
        return packed

    bounds = trim(first, last)
    if bounds is None:
        return []
    first, last = bounds
    if length(first, last) <= cap:
        return [(first, last, "\n".join(lines[first : last + 1]))]
    runs, begun = [], None
    for i in range(first, last + 1):
        if breaks[i]:
            if begun is not None:
                runs.append((begun, i - 1))
                begun = None
        elif begun is None:
            begun = i
    if begun is not None:
        runs.append((begun, last))
    pieces = []
    for a, b in pack(runs):
        if length(a, b) <= cap:
            pieces.append((a, b, "\n".join(lines[a : b + 1])))
            continue
        for c, d in pack([(i, i) for i in range(a, b + 1) if not blank[i]]):
            inner = trim(c, d)
            if inner is None:
                continue
            c, d = inner
            if c == d and len(lines[c]) > cap:
                pieces.extend((c, c, part) for part in split.split_long_line(lines[c], cap))
            else:
                pieces.append((c, d, "\n".join(lines[c : d + 1])))
    return pieces


LINE_FRAGMENTS = ["", " ", "\t", "word", "a longer line of words", "x" * 70, "  indented", "\u00a0"]


@settings(max_examples=800, deadline=None)
@given(
    st.lists(st.sampled_from(LINE_FRAGMENTS), min_size=1, max_size=60),
    st.lists(st.tuples(st.integers(0, 65), st.integers(0, 65)), max_size=4),
    st.integers(0, 59),
    st.integers(0, 59),
    st.sampled_from([10, 40, 80, 300]),
)
def test_lazy_blank_lines_cut_as_the_eager_index_did(
    lines: list[str], fenced: list[tuple[int, int]], first: int, last: int, cap: int
) -> None:
    last = min(last, len(lines) - 1)
    doc = split.index_lines(lines, fenced)
    got = [(p.first, p.last, p.body) for p in split.split_range(doc, first, last, cap)]
    assert got == reference_split_range(lines, fenced, first, last, cap)
