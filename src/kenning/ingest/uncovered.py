"""The lines of a code file that no excerpt of its definitions or top-level code holds.

A class's excerpt stops before its first member, and each member's covers the member: what a
class body holds between or after its members was in no excerpt — a field or constant declared
after a method (``private static final int LIMIT = 5;``, Python's ``secret = property(…)``), a
C++ header's method declarations (leveldb's ``virtual Status Put(…) = 0;`` with the comment
that documents it), Kotlin's ``init { … }`` block. Such lines are cut into excerpts of their own
as a file's top-level lines are (``split.outside_pieces``), each titled by its first line of
code; a run holding no code (closing braces, a comment alone, ``#endregion``, Ruby's ``end``)
makes none.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .split import Piece, outside_pieces

# What opens a line that holds no code: a comment (``//``, ``/*``, `` * ``, ``#``, ``--``), or a
# preprocessor line (``#endif``, ``#endregion``, ``#if os(iOS)``), or an attribute (``#[…]``).
_NOT_CODE = ("//", "/*", "*", "#", "--")
_WORD = re.compile(r"\w+")
_CLOSERS = frozenset({"end"})  # a line of Ruby's ``end`` alone closes, as ``}`` does


def is_code(line: str) -> bool:
    """Whether ``line`` holds code with a word in it (not a comment, a preprocessor line, a
    closing brace with its comment: ``}  // namespace leveldb``)."""
    text = line.strip()
    if not text or text.startswith(_NOT_CODE):
        return False
    words = _WORD.findall(text.split("//", 1)[0].split(" #", 1)[0])
    return bool(words) and not _CLOSERS.issuperset(words)


def uncovered_pieces(
    lines: list[str], spans: Iterable[tuple[int, int]], statements: list[tuple[int, int]], max_chars: int
) -> list[Piece]:
    """The runs of ``lines`` no span holds (``spans``: the excerpts' 1-based first and last
    lines), cut into pieces of at most ``max_chars`` characters between ``statements`` (their
    [first, end) lines, 0-based, in order) as ``outside_pieces`` cuts, each up to its last line of
    code (``};``, ``}  // namespace leveldb`` after it stay out); a piece without one left out."""
    covered = [False] * len(lines)
    for first, last in spans:
        last = min(last, len(lines))
        if last >= first:
            covered[first - 1 : last] = [True] * (last - first + 1)
    if all(covered):
        return []
    found = []
    for piece in outside_pieces(lines, covered, statements, max_chars):
        body = piece.body.split("\n")
        code = [n for n, line in enumerate(body) if is_code(line)]
        if code:  # without the closing braces and comments after its last line of code
            found.append(Piece(piece.first, piece.first + code[-1], "\n".join(body[: code[-1] + 1])))
    return found


def gap_title(piece: Piece, max_chars: int, fallback: str) -> str:
    """A piece's title: its first line of code, whitespace collapsed (``fallback`` when longer
    than ``max_chars``)."""
    line = next(line for line in piece.body.split("\n") if is_code(line))
    title = " ".join(line.split())
    return title if len(title) <= max_chars else fallback
