"""Python source cut into symbols through the standard ``ast`` module.

One chunk for the module (its docstring and the top-level lines outside any def or class),
one per class (up to its first method), function, async function and method. Nested
functions stay inside their parent. Definitions under a top-level ``if``/``try``/``with``
(``if TYPE_CHECKING:``, import fallbacks) count as top-level.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import replace

from .chunks import Chunk
from .identifiers import keywords_for
from .python_headers import TITLE_CHARS, Definition, compact_title, docstring_summary, signature_keywords
from .python_relations import python_relations
from .relations import Relations
from .split import EXCERPT_CHARS, anchors, outside_pieces, piece_title, split_lines
from .text import parse_text
from .uncovered import gap_title, uncovered_pieces


def parse_python(text: str, path: str) -> list[Chunk]:
    """Chunks of a Python file; a file that does not parse falls back to text chunks."""
    return parse_python_relations(text, path, relations=False)[0]


def python_spans(text: str, path: str) -> list[Chunk]:
    """The chunks' spans only (type, title, body, anchor, symbol), without what search needs
    besides (keywords, docstring summaries) or the graph's relations: how freshness re-splits
    a changed file at read, at about half the cost of ``parse_python``."""
    return parse_python_relations(text, path, relations=False, search=False)[0]


def parse_python_relations(
    text: str, path: str, *, relations: bool = True, search: bool = True
) -> tuple[list[Chunk], Relations | None]:
    """Chunks and graph relations (defines, imports, calls, tested_by) from one ``ast`` parse."""
    source = text.removeprefix("\ufeff")
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
        return _unparsable(text, path, error), None
    lines = split_lines(source)
    module = module_name(path)
    symbols = list(_definitions(tree.body, ""))
    firsts = {id(node): _first_line(node, lines) for node, _, _ in symbols}  # each excerpt's first line
    chunks = _module_chunks(tree, lines, module, symbols, firsts)
    for node, qualname, kind in symbols:
        chunks.append(_symbol_chunk(node, qualname, kind, lines, module, firsts, search))
    chunks += _class_body_chunks(lines, chunks, symbols, module)
    if not relations:
        return chunks, None
    try:
        return chunks, python_relations(tree, symbols, chunks, path, module)
    except RecursionError:
        return chunks, None


def module_name(path: str) -> str:
    """Dotted module name: ``src/kenning/ingest/__init__.py`` gives ``kenning.ingest``."""
    posix = path.replace("\\", "/")
    # ``PurePosixPath(posix).parts`` without "/" and "." (and at a fraction of its cost): the
    # names between slashes but "" and ".", after the root "//" that POSIX keeps apart; interned
    # as pathlib interns them (the same name elsewhere in the file's output is the same object).
    parts = [sys.intern(p) for p in posix.split("/") if p and p != "."]
    if posix.startswith("//") and not posix.startswith("///"):
        parts.insert(0, "//")
    if len(parts) > 1 and parts[0] == "src":
        parts = parts[1:]
    if parts:
        last = parts[-1]
        for suffix in (".py", ".pyi", ".pyw"):
            if last.endswith(suffix):
                last = last[: -len(suffix)]
                break
        parts[-1] = last
        if last == "__init__" and len(parts) > 1:
            parts.pop()
    return ".".join(parts)


def _definitions(body: list[ast.stmt], prefix: str, in_class: bool = False) -> Iterator[tuple[Definition, str, str]]:
    """``(node, qualified name, kind)`` for defs and classes, methods after their class."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield stmt, prefix + stmt.name, "method" if in_class else "function"
        elif isinstance(stmt, ast.ClassDef):
            qualname = prefix + stmt.name
            yield stmt, qualname, "class"
            yield from _definitions(stmt.body, qualname + ".", True)
        else:
            for block in _sub_blocks(stmt):
                yield from _definitions(block, prefix, in_class)


def _sub_blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    """Statement lists of a compound statement that is not a def or a class."""
    if isinstance(stmt, ast.If):
        return [stmt.body, stmt.orelse]
    if isinstance(stmt, (ast.Try, ast.TryStar)):
        return [stmt.body, *(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [stmt.body]
    return []


def _start(node: Definition) -> int:
    """First line of a definition, decorators included."""
    if not node.decorator_list:
        return node.lineno
    return min([node.lineno, *(d.lineno for d in node.decorator_list)])


def _first_line(node: Definition, lines: list[str]) -> int:
    """First line of a definition's excerpt: its decorators, and the comment lines written right
    above them at its indentation (``# Called once per request.``), which were in no excerpt
    when a method's (between two members of its class) or in the module's when a function's."""
    start = _start(node)
    if start > len(lines):
        return start
    line = lines[start - 1]
    comment = line[: len(line) - len(line.lstrip())] + "#"
    while start > 1 and lines[start - 2].startswith(comment) and not (start == 2 and lines[0].startswith("#!")):
        start -= 1
    return start


def _symbol_chunk(
    node: Definition,
    qualname: str,
    kind: str,
    lines: list[str],
    module: str,
    firsts: dict[int, int],
    search: bool = True,
) -> Chunk:
    """``node``'s excerpt; ``firsts``: each definition's first line (``_first_line``), by ``id``."""
    start, end = firsts[id(node)], node.end_lineno or node.lineno
    if isinstance(node, ast.ClassDef):
        # Up to its first member: the definitions come in the order of the source.
        first = next(_definitions(node.body, "", True), None)
        if first is not None:
            end = firsts[id(first[0])] - 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    title = compact_title(node, qualname, kind)
    body = "\n".join(lines[start - 1 : end])
    if not search:  # a span only (python_spans)
        return Chunk("code", title, body, f":{start}-{end}", start, end, meta={"symbol": qualname})
    return Chunk(
        type="code",
        title=title,
        body=body,
        anchor=f":{start}-{end}",
        line_start=start,
        line_end=end,
        keywords=signature_keywords(node, lines, qualname, module),
        meta={"symbol": qualname, "kind": kind, "docstring": docstring_summary(node)},
    )


def _module_chunks(
    tree: ast.Module,
    lines: list[str],
    module: str,
    symbols: list[tuple[Definition, str, str]],
    firsts: dict[int, int],
) -> list[Chunk]:
    """The module's docstring and top-level lines outside every def and class, each run of them
    cut into excerpts of at most ``EXCERPT_CHARS`` characters between its statements, with their
    own line ranges: the first titled ``module NAME`` (its docstring's summary in its meta), the
    others by their first line; each names in its keywords the module and what its own lines
    assign at top level. A settings module's (``django/conf/global_settings.py``: 23,001
    characters of them) were cut at 4,000 under a range claiming the whole file (``python/15``)."""
    inside = [False] * len(lines)
    for node, _, kind in symbols:
        if kind != "method":
            start, end = firsts[id(node)], min(node.end_lineno or node.lineno, len(lines))
            inside[start - 1 : end] = [True] * (end - start + 1)
    statements = [(stmt.lineno - 1, stmt.end_lineno or stmt.lineno) for stmt in tree.body]
    assigned = _assigned(tree)
    chunks = []
    pieces = outside_pieces(lines, inside, statements, EXCERPT_CHARS)
    for n, (piece, anchor) in enumerate(zip(pieces, anchors(pieces), strict=True), start=1):
        first, last = piece.first + 1, piece.last + 1
        names = [name for name, line in assigned if first <= line <= last]
        meta = {"symbol": module, "kind": "module"}
        if n == 1:
            meta["docstring"] = docstring_summary(tree)
        chunks.append(
            Chunk(
                type="code",
                title=piece_title(piece, n, f"module {module}", TITLE_CHARS * 2, statements),
                body=piece.body,
                anchor=anchor,
                line_start=first,
                line_end=last,
                keywords=keywords_for(module, *names),
                meta=meta,
            )
        )
    return chunks


def _class_body_chunks(
    lines: list[str], chunks: list[Chunk], symbols: list[tuple[Definition, str, str]], module: str
) -> list[Chunk]:
    """A class body's lines in no excerpt (``ingest.uncovered``): what it assigns after its first
    method (``secret = property(_get_secret, _set_secret)``), cut between the class's statements;
    each excerpt named by its first line of code, with the module, the class and the names it
    assigns in its keywords (its symbol the module's, as the module's own lines are)."""
    classes = [(node, qualname) for node, qualname, kind in symbols if isinstance(node, ast.ClassDef)]
    if not classes:
        return []
    statements = sorted((stmt.lineno - 1, stmt.end_lineno or stmt.lineno) for node, _ in classes for stmt in node.body)
    pieces = uncovered_pieces(lines, ((c.line_start, c.line_end) for c in chunks), statements, EXCERPT_CHARS)
    found = []
    for piece, anchor in zip(pieces, anchors(pieces), strict=True):
        first, last = piece.first + 1, piece.last + 1
        holder = max(
            ((node, q) for node, q in classes if node.lineno <= first and last <= (node.end_lineno or node.lineno)),
            key=lambda pair: pair[0].lineno,
            default=None,
        )
        qualname = holder[1] if holder else module
        names = [name for name, line in _assigned(holder[0]) if first <= line <= last] if holder else []
        found.append(
            Chunk(
                type="code",
                title=gap_title(piece, TITLE_CHARS * 2, f"class {qualname} (lines {first}-{last})"),
                body=piece.body,
                anchor=anchor,
                line_start=first,
                line_end=last,
                keywords=keywords_for(module, qualname, *names),
                meta={"symbol": module, "kind": "module"},
            )
        )
    return found


def _assigned(tree: ast.Module | ast.ClassDef) -> list[tuple[str, int]]:
    """The names the module assigns at top level (``DEFAULT_TIMEOUT_CONFIG = …``) and the line
    of each: defined there with no excerpt of their own, they are keywords of the module's
    excerpt that assigns them, as a function's name is of its."""
    names = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            names += [(t.id, stmt.lineno) for t in stmt.targets if isinstance(t, ast.Name)]
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            names.append((stmt.target.id, stmt.lineno))
    return names


def _unparsable(text: str, path: str, error: BaseException) -> list[Chunk]:
    """Text chunks typed ``code`` carrying the parse error, for a file ``ast`` rejects."""
    if isinstance(error, SyntaxError):
        message = f"{error.msg} (line {error.lineno})" if error.lineno else str(error.msg)
    else:
        message = f"{type(error).__name__}: {error}"
    return [replace(c, type="code", meta={"parse_error": message}) for c in parse_text(text, path)]
