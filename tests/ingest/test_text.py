from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.ingest.text import parse_text, rst_title

RST = """\
=========
 Kenning
=========

An overview paragraph.

Usage
-----

Run the thing.
"""


def test_a_short_text_file_is_one_chunk_titled_with_its_file_name():
    chunks = parse_text("first paragraph\n\nsecond paragraph\n", "notes/todo.txt")
    assert len(chunks) == 1
    chunk = chunks[0]
    assert (chunk.type, chunk.title, chunk.anchor) == ("doc", "todo.txt", ":1-3")
    assert chunk.body == "first paragraph\n\nsecond paragraph"
    assert chunk.keywords == "todo.txt todo txt"


def test_paragraphs_are_packed_greedily_up_to_the_cap():
    paragraphs = [f"para{i} " + "x" * 40 for i in range(6)]  # 46 characters each
    chunks = parse_text("\n\n".join(paragraphs), "a.txt", max_chars=100)
    assert [c.body.split()[0::2] for c in chunks] == [["para0", "para1"], ["para2", "para3"], ["para4", "para5"]]
    assert [c.anchor for c in chunks] == [":1-3", ":5-7", ":9-11"]
    assert [c.title for c in chunks] == ["a.txt", "a.txt (part 2)", "a.txt (part 3)"]


def test_an_oversized_paragraph_is_split_at_lines_then_at_whitespace():
    text = "short line\n" + " ".join(["word"] * 60) + "\nlast line"
    chunks = parse_text(text, "a.txt", max_chars=100)
    assert all(len(c.body) <= 100 for c in chunks)
    assert "".join("".join(c.body.split()) for c in chunks) == "".join(text.split())
    assert {(c.line_start, c.line_end) for c in chunks} >= {(1, 1), (2, 2), (3, 3)}


def test_each_part_of_a_line_too_long_for_one_excerpt_has_a_uri_of_its_own():
    """A minified script's line (Django's vendored ``jquery.min.js``) is cut into parts: the first
    keeps the line's range, the others add ``#part-N``, N as in their titles (parser ``rst/2``)."""
    text = "head\n\n" + " ".join(["word"] * 60) + "\n\nlast line"
    chunks = parse_text(text, "a.min.js", max_chars=100)
    assert [(c.anchor, c.title) for c in chunks] == [
        (":1-1", "a.min.js"),
        (":3-3", "a.min.js (part 2)"),
        (":3-3#part-3", "a.min.js (part 3)"),
        (":3-3#part-4", "a.min.js (part 4)"),
        (":5-5", "a.min.js (part 5)"),
    ]


def test_rst_files_take_their_first_underlined_title():
    chunks = parse_text(RST, "docs/index.rst")
    assert chunks[0].title == "Kenning"


def test_rst_title_ignores_adornment_only_lines_and_text_files_keep_their_name():
    assert rst_title("-----\n=====\nReal\n====\n") == "Real"
    assert rst_title("no title here\n\n---\n") is None
    assert parse_text(RST, "docs/index.txt")[0].title == "index.txt"
    assert parse_text("plain text\n", "docs/plain.rst")[0].title == "plain.rst"


def test_blank_text_gives_no_chunk():
    assert parse_text("", "a.txt") == []
    assert parse_text("\n \n\t\n", "a.txt") == []


@settings(max_examples=200, deadline=None, database=None)
@given(text=st.text(alphabet="ab \n\t", max_size=600), max_chars=st.integers(5, 80))
def test_text_chunks_cover_everything_within_the_cap(text, max_chars):
    chunks = parse_text(text, "p.txt", max_chars=max_chars)
    assert len({c.anchor for c in chunks}) == len(chunks)  # each its own URI
    assert "".join("".join(c.body.split()) for c in chunks) == "".join(text.split())
    lines = text.split("\n")
    for chunk in chunks:
        assert len(chunk.body) <= max_chars
        assert chunk.anchor.split("#part-")[0] == f":{chunk.line_start}-{chunk.line_end}"
        assert chunk.body in "\n".join(lines[chunk.line_start - 1 : chunk.line_end])
