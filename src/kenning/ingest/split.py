"""Shared helpers to cut source lines into excerpts no longer than a character cap.

Everything works on 0-based line indexes into a list of lines (without their newline);
callers convert to 1-based line numbers. A range is cut, in order of preference, at
paragraph boundaries (blank lines the caller allows to break on), then at line boundaries,
then, for a single line longer than the cap, at whitespace, and as a last resort with a
hard cut inside a token longer than the cap. No piece is ever longer than the cap, and every
whitespace-separated word no longer than the cap appears whole in some piece.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from itertools import accumulate
from operator import itemgetter
from typing import NamedTuple

# The most characters an excerpt cut from runs of lines holds: a text file's paragraphs
# (``text.parse_text``), a code file's lines outside its definitions (``outside_pieces``).
EXCERPT_CHARS = 2400

Statements = Sequence[tuple[int, int]]  # a file's top-level statements: their [first, end) lines, 0-based, in order


class Lines(NamedTuple):
    """Lines of one document with what the cutters need, computed once per document.

    Whether a line is blank is asked only where a cut is looked for (the two ends of a section,
    and the lines of a section longer than the cap): most sections fit whole, so most lines are
    never asked."""

    text: list[str]
    cum: list[int]  # cum[i] = total length of text[:i]
    fenced: list[tuple[int, int]]  # ranges [start, end) where a blank line is no paragraph break


class Piece(NamedTuple):
    """One excerpt: first and last line (0-based, inclusive) and its text."""

    first: int
    last: int
    body: str


def split_lines(text: str) -> list[str]:
    """Split like markdown-it and the Python tokenizer: on ``\\r\\n``, ``\\r`` and ``\\n`` only."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def index_lines(lines: list[str], fenced: Iterable[tuple[int, int]] = ()) -> Lines:
    """Index ``lines``; blank lines inside a ``fenced`` range ``[start, end)`` are no break."""
    return Lines(lines, [0, *accumulate(map(len, lines))], [(start, end) for start, end in fenced if start < end])


def _blank(line: str) -> bool:
    """Empty or whitespace only."""
    return not line.strip()


def span_length(doc: Lines, first: int, last: int) -> int:
    """Length of ``"\\n".join(doc.text[first:last + 1])`` without building it."""
    return doc.cum[last + 1] - doc.cum[first] + (last - first)


def trim(doc: Lines, first: int, last: int) -> tuple[int, int] | None:
    """Shrink ``[first, last]`` to drop blank lines at both ends; ``None`` if all blank."""
    text = doc.text
    while first <= last and not text[first].strip():
        first += 1
    while last >= first and not text[last].strip():
        last -= 1
    return (first, last) if first <= last else None


def join(doc: Lines, first: int, last: int) -> str:
    """Source text of lines ``first..last``."""
    return "\n".join(doc.text[first : last + 1])


def split_range(doc: Lines, first: int, last: int, max_chars: int) -> list[Piece]:
    """Cut lines ``first..last`` into pieces of at most ``max_chars`` characters.

    Paragraphs (runs of lines between break lines) are packed greedily; a paragraph longer
    than the cap is packed line by line; a line longer than the cap is cut at whitespace.
    Blank lines at the edges of a piece are dropped; all-blank input gives no piece.
    """
    bounds = trim(doc, first, last)
    if bounds is None:
        return []
    first, last = bounds
    if span_length(doc, first, last) <= max_chars:
        return [Piece(first, last, join(doc, first, last))]
    pieces: list[Piece] = []
    for start, end in _pack(doc, _paragraphs(doc, first, last), max_chars):
        if span_length(doc, start, end) <= max_chars:
            pieces.append(Piece(start, end, join(doc, start, end)))
            continue
        lines = [(i, i) for i in range(start, end + 1) if not _blank(doc.text[i])]
        for a, b in _pack(doc, lines, max_chars):
            bounds = trim(doc, a, b)
            if bounds is None:
                continue
            a, b = bounds
            if a == b and len(doc.text[a]) > max_chars:
                pieces.extend(Piece(a, a, part) for part in split_long_line(doc.text[a], max_chars))
            else:
                pieces.append(Piece(a, b, join(doc, a, b)))
    return pieces


def outside_pieces(
    lines: list[str], inside: list[bool], statements: list[tuple[int, int]], max_chars: int
) -> list[Piece]:
    """The lines a code file holds outside its definitions (``inside[i]``: line ``i`` is in
    one; as long as ``lines``), each run of them cut into pieces of at most ``max_chars``
    characters between its top-level statements (``statements``: their ``[first, end)`` lines):
    a statement that fits in one piece is never cut, its blank lines no break; a longer one is
    cut at its own. Runs are found by ``list.index`` (a sync reads every line of every file)."""
    last = len(lines) - 1
    runs: list[tuple[int, int]] = []
    line = 0
    while line <= last:
        try:
            line = inside.index(False, line)
        except ValueError:
            break
        try:
            end = inside.index(True, line) - 1
        except ValueError:
            end = last
        runs.append((line, end))
        line = end + 1
    if not runs:
        return []
    fits = []
    for first, end in statements:
        if end - first > 1 and first <= last and not inside[first]:
            stop = min(end, last + 1)
            if sum(map(len, lines[first:stop])) + stop - first - 1 <= max_chars:
                fits.append((first, end))
    doc = index_lines(lines, fits)
    return [piece for first, end in runs for piece in split_range(doc, first, end, max_chars)]


def anchors(pieces: list[Piece]) -> list[str]:
    """Each piece's anchor: its 1-based line range ``:first-last``, and ``#part-N`` (N its place,
    from 1) after it when an earlier piece has that range (a line longer than the cap, cut into
    parts: a minified script's), so that each excerpt of a file has a URI of its own."""
    seen: set[str] = set()
    found = []
    for n, piece in enumerate(pieces, start=1):
        span = f":{piece.first + 1}-{piece.last + 1}"
        found.append(f"{span}#part-{n}" if span in seen else span)
        seen.add(span)
    return found


def piece_title(piece: Piece, n: int, first: str, max_chars: int, code: Statements = ()) -> str:
    """The title of the ``n``-th (from 1) of a code file's pieces outside its definitions: ``first``
    (``module NAME``, ``file NAME``) for the first; for the others their first line of code,
    whitespace collapsed (``if __name__ == "__main__":``), or ``first (part n)`` past ``max_chars``.
    ``code``: the file's top-level statements, comments not among them, as ``[first, end)`` lines
    in order: a piece that opens with a comment is titled by the statement below it
    (``_EXPLANATION = re.compile(``), not by the comment's first line, which said nothing of what
    the piece defines and, when it quoted a question, won that question on its title's weight
    (docs/benchmarks.md, "codetitles"); its words stay in the body."""
    if n == 1:
        return first
    skip = _code_line(piece, code) - piece.first
    line = _titled_line(piece.body.split("\n")[skip:])
    return line if len(line) <= max_chars else f"{first} (part {n})"


# A line that closes what an earlier piece opened (``)``, ``});``) names nothing; a group's opening
# line (Go's ``const (``, ``var (``, ``type (``) names nothing either but the group it opens.
_CLOSER_ONLY = re.compile(r"[)\]}]+[;,]?")
_GROUP_OPENER = re.compile(r"(?:const|var|type|import)\s*\(")
_COMMENT = re.compile(r"(?://|#|/\*|\*)")


def _titled_line(lines: list[str]) -> str:
    """The first of ``lines`` with its whitespace collapsed, past a line that only closes something,
    and followed by the first declaration of a group it opens (``const ( DefaultDateLayout = …``),
    or by the string a call it opens begins with (Koa's ``router.post(`` then ``"documents.move",``:
    outline's 28 routes of a file were all titled ``router.post(``)."""
    texts = [" ".join(raw.split()) for raw in lines]
    texts = [t for t in texts if t]
    if not texts:
        return ""
    at = 1 if len(texts) > 1 and _CLOSER_ONLY.fullmatch(texts[0]) else 0
    line = texts[at]
    if _GROUP_OPENER.fullmatch(line):
        inside = next((t for t in texts[at + 1 :] if not _COMMENT.match(t)), "")
        line = f"{line} {inside}" if inside and not _CLOSER_ONLY.fullmatch(inside) else line
    elif line.endswith("(") and at + 1 < len(texts) and texts[at + 1][:1] in _QUOTES:
        line += texts[at + 1]
    return line


_QUOTES = frozenset("\"'`")


def _code_line(piece: Piece, code: Statements) -> int:
    """The piece's first line that a statement of ``code`` holds: its first when one does, else
    the first line of the first statement it holds; its first when it holds none."""
    at = bisect_right(code, piece.first, key=itemgetter(0)) - 1  # the last statement begun by the piece's first line
    if at >= 0 and code[at][1] > piece.first:
        return piece.first
    if at + 1 < len(code) and code[at + 1][0] <= piece.last:
        return code[at + 1][0]
    return piece.first


def _paragraphs(doc: Lines, first: int, last: int) -> list[tuple[int, int]]:
    """Maximal runs of non-break lines inside ``first..last``."""
    breaks = [_blank(line) for line in doc.text[first : last + 1]]
    for start, end in doc.fenced:  # a blank line inside a fence is no break
        if start <= last and end > first:
            lo, hi = max(start, first) - first, min(end, last + 1) - first
            breaks[lo:hi] = [False] * (hi - lo)
    runs: list[tuple[int, int]] = []
    begun = None
    for i, is_break in enumerate(breaks, start=first):
        if is_break:
            if begun is not None:
                runs.append((begun, i - 1))
                begun = None
        elif begun is None:
            begun = i
    if begun is not None:
        runs.append((begun, last))
    return runs


def _pack(doc: Lines, units: list[tuple[int, int]], max_chars: int) -> list[tuple[int, int]]:
    """Greedily merge consecutive ranges while the merged text fits; oversized ones stay alone."""
    packed: list[tuple[int, int]] = []
    current: tuple[int, int] | None = None
    for start, end in units:
        if current is not None and span_length(doc, current[0], end) <= max_chars:
            current = (current[0], end)
            continue
        if current is not None:
            packed.append(current)
        current = (start, end)
    if current is not None:
        packed.append(current)
    return packed


def split_long_line(line: str, max_chars: int) -> list[str]:
    """Cut one line at whitespace into parts of at most ``max_chars`` characters.

    A token longer than ``max_chars`` gets hard cuts every ``max_chars`` characters.
    Parts carry no leading or trailing whitespace.
    """
    parts: list[str] = []
    size = len(line)
    pos = len(line) - len(line.lstrip())
    while pos < size:
        if size - pos <= max_chars:
            parts.append(line[pos:].rstrip())
            break
        window_end = pos + max_chars  # a cut at window_end keeps max_chars characters
        cut = max(line.rfind(" ", pos, window_end + 1), line.rfind("\t", pos, window_end + 1))
        if cut <= pos:
            cut = _last_space(line, pos, window_end)
        if cut <= pos:  # no whitespace: the token at pos is longer than the cap
            parts.append(line[pos:window_end])
            pos = window_end
        else:
            parts.append(line[pos:cut].rstrip())
            pos = cut
        while pos < size and line[pos].isspace():
            pos += 1
    return [part for part in parts if part]


def _last_space(line: str, start: int, end: int) -> int:
    """Index of the last whitespace character in ``line[start:end + 1]`` (any kind), or -1."""
    for i in range(min(end, len(line) - 1), start, -1):
        if line[i].isspace():
            return i
    return -1
