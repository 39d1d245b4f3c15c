"""Source in other languages (JavaScript/TypeScript, Go, Rust, Java, C/C++, Ruby, PHP, C#, Kotlin,
Swift, Scala, Lua, Elixir) cut into symbol excerpts through tree-sitter, with ``defines`` and ``imports`` for the graph.

Grammars come from the per-language wheels (``tree-sitter-typescript``…), which ship
compiled parsers: nothing is downloaded. A grammar that is not installed, or a file that
does not parse, falls back to text chunks. Function bodies are not entered: nested
functions stay inside their parent; classes, modules, namespaces and impl blocks are.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import PurePosixPath
from typing import Any

from . import c_conditionals, cpp_source, go_packages, kotlin_source, route_words
from .chunks import Chunk
from .grammars import grammar, language_for, node_text
from .identifiers import keywords_for
from .relations import Ref, Relations, Symbol
from .rust_tests import spans_of_tests, within
from .split import EXCERPT_CHARS, anchors, outside_pieces, piece_title, split_lines
from .test_files import class_under_test, file_under_test
from .text import parse_text
from .tree_calls import call_refs
from .tree_defs import Def, visit
from .tree_imports import SUFFIX, lua_requires
from .uncovered import gap_title, uncovered_pieces

_TYPES = frozenset({"class", "struct", "interface", "module", "extension"})
# A Swift ``extension`` of a type names no symbol: the type is declared elsewhere (in the project,
# whose declaration is its one node, or in a framework: ``extension Text`` made ``Text("…")`` a call
# of the project's), its methods and its excerpt stay.
_NO_SYMBOL = frozenset({"extension"})


@cache
def _parser(language: str) -> Any:
    from tree_sitter import Parser

    return Parser(grammar(language))


def _best_read(read: bytes, language: str, tree: Any) -> Any:
    """Of a C or C++ file's parse as written (``tree``, of ``read``) and its parses with the
    conditional groups' branches kept or blanked (``c_conditionals``), the one that leaves the least
    code unread: the bytes its errors cover (a missing token: the whole node it breaks, so a brace
    left open by one branch counts the function it swallowed) and the code the view blanked. By
    count of errors alone, the view with no macro defined won whenever a platform's branch held one
    more error (MSVC's ``__declspec``), and {fmt}'s Windows callers were lost; ``tree`` on a tie."""
    best, least = tree, _unread(tree)
    written = _code_bytes(read)
    parsed = b""
    for view in (c_conditionals.balanced_view, c_conditionals.undefined_view):
        text = view(read)
        blanked = written - _code_bytes(text)
        if text == parsed or blanked >= least:  # the view before's text, or one that cannot leave less unread
            continue
        parsed = text
        other = _parser(language).parse(text)
        unread = _unread(other) + blanked
        if unread < least:
            best, least = other, unread
    return best


def _code_bytes(source: bytes) -> int:
    """The bytes of a source that are neither blank nor a conditional directive (every view blanks those)."""
    directives = sum(len(m.group().translate(None, _SPACES)) for m in c_conditionals.DIRECTIVE_LINES.finditer(source))
    return len(source.translate(None, _SPACES)) - directives


_SPACES = b" \t\n\r\v\f"


def _unread(tree: Any) -> int:
    """The bytes a parse's syntax errors cover: an error node's own, a missing token's parent's."""
    unread, stack = 0, [(tree.root_node, tree.root_node)]
    while stack:
        node, parent = stack.pop()
        if node.is_error:
            unread += node.end_byte - node.start_byte
        elif node.is_missing:
            unread += parent.end_byte - parent.start_byte
        elif node.has_error:
            stack.extend((child, node) for child in node.children)
    return unread


def syntax_tree(source: str, language: str) -> Any:
    """``source`` parsed by ``language``'s grammar (one parser kept per language); None when the
    grammar cannot be loaded."""
    try:
        return _parser(language).parse(source.encode("utf-8", "surrogatepass"))
    except _UNPARSED:
        return None


# What loading a grammar or parsing with it may raise: the file is then read by its lines.
_UNPARSED = (ImportError, AttributeError, ValueError, OSError)


def _parsed(source: str, language: str) -> Any:
    """``source``'s tree by ``language``'s grammar, as this module reads each language: C and C++
    without their attribute-like macros (``cpp_source``), read through a view of their conditional
    groups where that leaves less code unread (``_best_read``); Kotlin read again where its grammar
    stumbles; None when the grammar cannot be loaded."""
    try:
        encoded = source.encode("utf-8", "surrogatepass")
        if language in ("c", "cpp"):
            encoded = cpp_source.without_macros(encoded, cpp=language == "cpp")
        tree = _parser(language).parse(encoded)
        if language == "kotlin":
            tree = kotlin_source.reparsed(_parser(language), tree, encoded)
        if language in ("c", "cpp") and tree.root_node.has_error:
            tree = _best_read(bytes(tree.root_node.text), language, tree)
    except _UNPARSED:
        return None
    return tree


def parse_code(text: str, path: str) -> list[Chunk]:
    return parse_code_relations(text, path)[0]


def parse_code_relations(
    text: str, path: str, *, language: str | None = None, tree: Any = None
) -> tuple[list[Chunk], Relations | None]:
    """``language``: the grammar to read ``text`` with, where the path's suffix does not say it
    (a Vue component's script: ``components``), by default the suffix's; ``tree``: ``text`` parsed
    by it already (``syntax_tree``), by default parsed here."""
    language = language or language_for(path)
    source = text.removeprefix("\ufeff")
    if language == "c" and path.endswith(".h") and cpp_source.reads_as_cpp(source):
        language = "cpp"  # a C++ project's header (``db/db_impl.h``), which C's grammar cannot read
    if tree is None and language:
        tree = _parsed(source, language)
    if language is None or tree is None or tree.root_node.has_error and not tree.root_node.named_children:
        return [_as_code(c) for c in parse_text(text, path)], None
    defs: list[Def] = []
    imports: list[Ref] = []
    visit(tree.root_node, "", False, True, defs, imports, path)
    if language == "lua":  # a ``require`` anywhere, a function's too (``visit`` reads top-level statements)
        imports = lua_requires(tree.root_node)
    lines = split_lines(source)
    scopes = sorted((*d.bytes, d.qualname) for d in defs)
    types = frozenset(
        d.qualname.rpartition(".")[0] if d.out_of_line else d.qualname
        for d in defs
        if d.kind in _TYPES or d.out_of_line
    )
    tests = spans_of_tests(tree.root_node) if language == "rust" else []  # Rust's unit tests, in the file they test
    calls = call_refs(tree.root_node, language, path, scopes, types, tests)
    sibling = file_under_test(path)  # ``file_test.go`` tests ``file.go``, by its name
    if sibling:
        calls.append(Ref("tested_by", "file", sibling, None, reverse=True, link="extracted"))
    elif tested := class_under_test(path):  # ``OrderServiceTests.cs``: the nearest ``OrderService.cs``
        calls.append(Ref("tested_by", SUFFIX, tested, None, reverse=True, link="extracted"))
    package = _package(tree.root_node, language, path, defs)
    statements = [(node.start_point[0], node.end_point[0] + 1, node.type) for node in tree.root_node.named_children]
    chunks = _top_level_chunks(lines, defs, statements, path, language)
    if not defs:
        return chunks, Relations(refs=(*imports, *calls), package=package)
    ranges: set[tuple[int, int]] = set()
    marks = _ATTRIBUTE_MARKS.get(language, ("@",))
    routes: dict[str, str | None] = {}  # a class's route (``@Controller('articles')``), by its name
    for d in defs:
        end = d.header_end
        while end > d.start and not lines[end - 1].strip():
            end -= 1
        first = d.first
        # two definitions on one line (``{ merge: function () {…}, forEach() {…} }``): the second's
        # URI names it (``:5-5#utils.forEach``); their text is one, so they are one excerpt, each
        # with a location of its own
        anchor = f":{first}-{end}#{d.qualname}" if (first, end) in ranges else f":{first}-{end}"
        ranges.add((first, end))
        signature = _signature_line(lines, d.start, end, marks, d.qualname.rpartition(".")[2])
        title = " ".join(lines[signature - 1].split())[:200] or d.qualname
        head = "\n".join(lines[first - 1 : signature - 1]) if signature > first else ""
        owner, _, name = d.qualname.rpartition(".")
        if d.kind in _TYPES:
            routes[d.qualname] = route_words.class_route(head, name)
        route = route_words.method_route(head, routes.get(owner)) if head and owner else ""
        keywords = keywords_for(d.qualname, title)
        if route:  # its words in their order, each kept (``route_words.spelled``)
            keywords = f"{keywords} {route_words.spelled(route)}"
        chunks.append(
            Chunk(
                type="code",
                title=title,
                body="\n".join(lines[first - 1 : end]),
                anchor=anchor,
                line_start=first,
                line_end=end,
                keywords=keywords,
                meta=_meta(d, language, tests),
            )
        )
    symbols = tuple(
        Symbol(d.qualname, d.kind, c.line_start, c.line_end)
        for d, c in zip(defs, chunks[-len(defs) :], strict=True)
        if d.kind not in _NO_SYMBOL
    )
    chunks += _member_chunks(lines, chunks, defs, path, language)
    return chunks, Relations(symbols=symbols, refs=(*imports, *calls), package=package)


def _member_chunks(lines: list[str], chunks: list[Chunk], defs: list[Def], path: str, language: str) -> list[Chunk]:
    """The lines of a class body in no excerpt of its own (``ingest.uncovered``): a field or a
    C++ method declared after the first member, Kotlin's ``init`` block. Each excerpt names the
    file and the innermost definition holding it in its keywords, as the file's own lines are
    (its symbol is the file's: it defines no symbol of its own)."""
    pieces = uncovered_pieces(lines, ((c.line_start, c.line_end) for c in chunks), [], EXCERPT_CHARS)
    if not pieces:
        return []
    name = PurePosixPath(path).name
    meta = {"symbol": name, "kind": "module", "language": language}
    found = []
    for piece, anchor in zip(pieces, anchors(pieces), strict=True):
        first, last = piece.first + 1, piece.last + 1
        holder = max((d for d in defs if d.start <= first and last <= d.end), key=lambda d: d.start, default=None)
        keywords = keywords_for(name, holder.qualname) if holder is not None else keywords_for(name)
        title = gap_title(piece, 200, f"{holder.qualname if holder else name} (lines {first}-{last})")
        found.append(Chunk("code", title, piece.body, anchor, first, last, keywords, meta))
    return found


# The annotations that open a line (``@MainActor @Observable``, ``@RunWith(AndroidJUnit4::class)``).
_ANNOTATIONS = re.compile(r"^\s*(?:@[\w.]+(?:\([^()]*\))?\s*)+")
# What opens a line holding an annotation or attribute, by language: Java's and TypeScript's ``@``
# unless said otherwise.
_ATTRIBUTE_MARKS = {"csharp": ("[",), "php": ("#[",)}


def _meta(d: Def, language: str, tests: list[tuple[int, int]]) -> dict[str, object]:
    """A definition's excerpt's meta; ``"test": True`` for test code in a file that is no test
    file (a Rust ``#[test]`` function and the rest of a ``#[cfg(test)]`` module)."""
    meta: dict[str, object] = {"symbol": d.qualname, "kind": d.kind, "language": language}
    if tests and within(tests, d.bytes[0]):
        meta["test"] = True
    return meta


def _signature_line(lines: list[str], start: int, end: int, marks: tuple[str, ...] = ("@",), name: str = "") -> int:
    """The first line of a definition that is no annotation or decorator (Java's ``@Override``,
    ``@Test``, TypeScript's ``@Component({…})``, C#'s ``[Fact]``, PHP's ``#[Route('/')]`` on lines
    of their own; ``marks``: what opens such a line): what titles it. A line that opens with an
    annotation and goes on with the definition's ``name`` is its signature (Swift's ``@Observable
    public class CurrentAccount {``, Kotlin's ``@Test fun loads()``)."""
    line, depth = start, 0
    while line < end and (depth > 0 or lines[line - 1].lstrip().startswith(marks)):
        text = lines[line - 1]
        if depth == 0 and name and re.search(rf"\b{re.escape(name)}\b", _ANNOTATIONS.sub("", text, count=1)):
            break
        # an annotation's arguments over several lines
        depth += text.count("(") + text.count("[") - text.count(")") - text.count("]")
        line += 1
    return line


def _go_package(root: Any) -> str:
    """A Go file's package as other files' imports name it (``go_packages.package_key``)."""
    clause = next((n for n in root.named_children if n.type == "package_clause"), None)
    name = next(iter(clause.named_children), None) if clause is not None else None
    return go_packages.package_key(node_text(name)) if name is not None else ""


def _package(root: Any, language: str, path: str, defs: list[Def]) -> str:
    """The name a file is imported by where its language says it (``Relations.package``): Go's
    package, Lua's module, Elixir's first module (``defmodule MyApp.Accounts``); else ""."""
    if language == "go":
        return _go_package(root)
    if language == "lua":
        return lua_module(path)
    if language == "elixir":
        return next((d.qualname for d in defs if d.kind == "module"), "")
    return ""


def lua_module(path: str) -> str:
    """The name ``require`` loads a Lua file by: its path under the last ``lua/`` folder (Neovim's
    runtime path), else the whole path, dotted, a folder's ``init.lua`` by the folder's
    (``lua/telescope/actions/init.lua``: ``telescope.actions``)."""
    parts = path.removesuffix(".lua").split("/")
    if "lua" in parts[:-1]:
        parts = parts[len(parts) - 1 - parts[-2::-1].index("lua") :]
    if parts[-1] == "init" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def _as_code(chunk: Chunk) -> Chunk:
    return Chunk(
        "code", chunk.title, chunk.body, chunk.anchor, chunk.line_start, chunk.line_end, chunk.keywords, chunk.meta
    )


def _top_level_chunks(
    lines: list[str], defs: list[Def], statements: list[tuple[int, int, str]], path: str, language: str | None
) -> list[Chunk]:
    """The lines outside every top-level definition (imports, constants, and the top-level calls
    a test file is mostly made of: ``test('POST request', async t => {…})``), each run of them
    cut into excerpts of at most ``EXCERPT_CHARS`` characters with their own line ranges: the
    first titled ``file NAME``, the others by their first line of code (``split.piece_title``).
    A cut falls between top-level statements (``statements``: their [first, end) lines, 0-based,
    and their node's type), at a blank line inside one only when it is longer than an excerpt.
    Every such line is in an excerpt; a file's top-level code is no longer cut at 4,000
    characters under a range that claimed the whole file."""
    inside = [False] * len(lines)
    for d in defs:
        if d.top:
            inside[d.first - 1 : d.end] = [True] * (min(d.end, len(lines)) - d.first + 1)
    pieces = outside_pieces(lines, inside, [(first, end) for first, end, _ in statements], EXCERPT_CHARS)
    # a piece holding no word (``}`` closing C#'s ``namespace App {``, C++'s ``extern "C" {``) answers nothing
    pieces = [piece for piece in pieces if any(ch.isalnum() for ch in piece.body)]
    code = [(first, end) for first, end, kind in statements if "comment" not in kind]  # titles: no comment's line
    name = PurePosixPath(path).name
    keywords = keywords_for(name)
    meta = {"symbol": name, "kind": "module", "language": language}
    chunks = []
    for n, (piece, anchor) in enumerate(zip(pieces, anchors(pieces), strict=True), start=1):
        title = piece_title(piece, n, f"file {name}", 200, code)
        chunks.append(Chunk("code", title, piece.body, anchor, piece.first + 1, piece.last + 1, keywords, meta))
    return chunks
