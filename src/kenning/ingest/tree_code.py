"""Source in other languages (JavaScript/TypeScript, Go, Rust, Java, C/C++, Ruby, PHP, C#, Kotlin,
Swift, Scala) cut into symbol excerpts through tree-sitter, with ``defines`` and ``imports`` for the graph.

Grammars come from the per-language wheels (``tree-sitter-typescript``…), which ship
compiled parsers: nothing is downloaded. A grammar that is not installed, or a file that
does not parse, falls back to text chunks. Function bodies are not entered: nested
functions stay inside their parent; classes, modules, namespaces and impl blocks are.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import PurePosixPath
from typing import Any

from . import cpp_source, go_packages, js_functions, kotlin_source
from .chunks import Chunk
from .grammars import grammar, language_for, node_text
from .identifiers import keywords_for
from .relations import Ref, Relations, Symbol
from .rust_tests import macro_test_name, spans_of_tests, within
from .split import EXCERPT_CHARS, anchors, outside_pieces, piece_title, split_lines
from .test_files import file_under_test
from .text import parse_text
from .tree_calls import call_refs
from .tree_imports import imports_of, rust_module_ref
from .tree_names import definition_name, ruby_attributes
from .uncovered import gap_title, uncovered_pieces

_DEFS = {
    "function_declaration": "function",
    "generator_function_declaration": "function",
    "class_declaration": "class",
    "abstract_class_declaration": "class",
    "method_definition": "method",
    "interface_declaration": "interface",
    "type_alias_declaration": "type",
    "enum_declaration": "enum",
    "method_declaration": "method",
    "type_spec": "type",
    "function_item": "function",
    "struct_item": "struct",
    "enum_item": "enum",
    "trait_item": "trait",
    "mod_item": "module",
    "impl_item": "impl",
    "record_declaration": "class",
    "constructor_declaration": "method",
    "function_definition": "function",
    "struct_specifier": "struct",
    "class_specifier": "class",
    "namespace_definition": "namespace",
    "method": "method",
    "singleton_method": "method",
    "class": "class",
    "module": "module",
    "internal_module": "namespace",
    "trait_declaration": "trait",  # PHP
    "struct_declaration": "struct",  # C#
    "object_declaration": "class",  # Kotlin's ``object Registry``
    "protocol_declaration": "interface",  # Swift
    "protocol_function_declaration": "method",
    "init_declaration": "method",  # Swift's ``init(…)``, ``deinit``, ``subscript(…)``: named by their keyword
    "deinit_declaration": "method",
    "subscript_declaration": "method",
    "secondary_constructor": "method",  # Kotlin's ``constructor(…)`` in a class body
    "operator_declaration": "method",  # C#'s ``operator ==``, ``explicit operator Colour``
    "conversion_operator_declaration": "method",
    "property_declaration": "method",  # a C# property with code in it (``tree_names._csharp_property``)
    "class_definition": "class",  # Scala
    "object_definition": "class",
    "trait_definition": "interface",
}
# The kinds of definition whose methods are called on an object of theirs (``tree_calls``).
_TYPES = frozenset({"class", "struct", "interface", "module", "extension"})
# A Swift ``extension`` of a type names no symbol: the type is declared elsewhere (in the project,
# whose declaration is its one node, or in a framework: ``extension Text`` made ``Text("…")`` a call
# of the project's), its methods and its excerpt stay.
_NO_SYMBOL = frozenset({"extension"})
_CONTAINERS = {
    "class_declaration",
    "abstract_class_declaration",
    "interface_declaration",
    "mod_item",
    "impl_item",
    "trait_item",
    "record_declaration",
    "class_specifier",
    "struct_specifier",
    "namespace_definition",
    "class",
    "module",
    "internal_module",
    "trait_declaration",
    "struct_declaration",
    "object_declaration",
    "protocol_declaration",
    "class_definition",
    "object_definition",
    "trait_definition",
}
# Namespaces whose members are named as their own (as Java's packages are, unlike C++'s
# namespaces): C#'s, a file-scoped one (``namespace App;``) holding nothing, and PHP's.
_NAMESPACES = frozenset({"namespace_declaration", "file_scoped_namespace_declaration"})
_TRANSPARENT = {
    "export_statement",
    "class_body",
    "declaration_list",
    "body_statement",
    "field_declaration_list",
    "template_declaration",
    "preproc_ifdef",
    "preproc_if",
    "preproc_else",
    "linkage_specification",
    "type_declaration",
    "interface_body",
    "ambient_declaration",
    "statement_block",
    "enum_body",
    "companion_object",  # Kotlin: its members are the class's (``ProfileViewModel.create``)
}
_VARIABLES = {"lexical_declaration", "variable_declaration"}


@dataclass(frozen=True)
class _Def:
    qualname: str
    kind: str
    start: int
    end: int
    header_end: int  # last line of the excerpt (a container stops before its first member)
    top: bool
    bytes: tuple[int, int]  # its span in the source's UTF-8 (the scope of the calls in it)
    # C++'s member defined outside its class (``Status DBImpl::Write(…) {…}``): its qualname is
    # the class's and the method's (``leveldb.DBImpl.Write``), and the class holds its own methods
    out_of_line: bool = False
    # the first line of the comments and attributes written right above it (``/** … */``, ``///``,
    # ``#[derive(…)]``), which its excerpt holds: 0 when there are none
    doc_start: int = 0

    @property
    def first(self) -> int:
        """The excerpt's first line: its leading comments' or its own."""
        return self.doc_start or self.start


@cache
def _parser(language: str) -> Any:
    from tree_sitter import Parser

    return Parser(grammar(language))


def parse_code(text: str, path: str) -> list[Chunk]:
    return parse_code_relations(text, path)[0]


def parse_code_relations(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    language = language_for(path)
    source = text.removeprefix("\ufeff")
    if language == "c" and path.endswith(".h") and cpp_source.reads_as_cpp(source):
        language = "cpp"  # a C++ project's header (``db/db_impl.h``), which C's grammar cannot read
    try:
        encoded = source.encode("utf-8", "surrogatepass")
        tree = (
            _parser(language).parse(cpp_source.without_macros(encoded) if language == "cpp" else encoded)
            if language
            else None
        )
        if language == "kotlin" and tree is not None:
            tree = kotlin_source.reparsed(_parser(language), tree, encoded)
    except (ImportError, AttributeError, ValueError, OSError):
        tree = None
    if language is None or tree is None or tree.root_node.has_error and not tree.root_node.named_children:
        return [_as_code(c) for c in parse_text(text, path)], None
    defs: list[_Def] = []
    imports: list[Ref] = []
    _visit(tree.root_node, "", False, True, defs, imports, path)
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
    package = _go_package(tree.root_node) if language == "go" else ""
    statements = [(node.start_point[0], node.end_point[0] + 1, node.type) for node in tree.root_node.named_children]
    chunks = _top_level_chunks(lines, defs, statements, path, language)
    if not defs:
        return chunks, Relations(refs=(*imports, *calls), package=package)
    ranges: set[tuple[int, int]] = set()
    marks = _ATTRIBUTE_MARKS.get(language, ("@",))
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
        chunks.append(
            Chunk(
                type="code",
                title=title,
                body="\n".join(lines[first - 1 : end]),
                anchor=anchor,
                line_start=first,
                line_end=end,
                keywords=keywords_for(d.qualname, title),
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


def _member_chunks(lines: list[str], chunks: list[Chunk], defs: list[_Def], path: str, language: str) -> list[Chunk]:
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


def _meta(d: _Def, language: str, tests: list[tuple[int, int]]) -> dict[str, object]:
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


def _as_code(chunk: Chunk) -> Chunk:
    return Chunk(
        "code", chunk.title, chunk.body, chunk.anchor, chunk.line_start, chunk.line_end, chunk.keywords, chunk.meta
    )


def _visit(
    node: Any, prefix: str, in_container: bool, top: bool, defs: list[_Def], imports: list[Ref], path: str
) -> None:
    for child in node.named_children:
        kind_name = child.type
        if kind_name == "namespace_definition" and child.child_by_field_name("name") is None:
            # C++'s anonymous namespace (``namespace { … }``): its members are the file's own
            body = child.child_by_field_name("body")
            if body is not None:
                _visit(body, prefix, in_container, top, defs, imports, path)
        elif kind_name in _NAMESPACES or kind_name == "namespace_definition" and _php_namespace(child):
            body = child.child_by_field_name("body")
            if body is not None:  # ``namespace App;``: what follows is the file's own
                _visit(body, prefix, in_container, top, defs, imports, path)
        elif kind_name in _DEFS and not (
            kind_name in ("struct_specifier", "class_specifier", "enum_specifier")
            and child.child_by_field_name("body") is None
        ):
            name = definition_name(child)
            if not name:
                continue
            if kind_name == "mod_item" and child.child_by_field_name("body") is None:  # Rust's ``mod flags;``
                imports.append(rust_module_ref(path, prefix, name, child.start_point[0] + 1))
            kind = _DEFS[kind_name]
            if kind_name == "class_declaration" and child.children and child.children[0].type == "extension":
                kind = "extension"  # Swift's ``extension Text { … }``: its methods are Text's, no class of its own
            out_of_line = kind_name == "function_definition" and "." in name  # ``DBImpl::Write``
            # ``fun Type.describe()``: a Kotlin extension function, a method of the type it extends
            extension = kind_name == "function_declaration" and "." in name
            if kind == "function" and (in_container or out_of_line or extension):
                kind = "method"
            start, end = child.start_point[0] + 1, child.end_point[0] + 1
            index = len(defs)
            span = (child.start_byte, child.end_byte)
            doc = _doc_start(child)
            defs.append(_Def(prefix + name, kind, start, end, end, top, span, out_of_line, doc))
            if kind_name in _CONTAINERS:
                body = child.child_by_field_name("body") or child
                _visit(body, f"{prefix}{name}.", True, False, defs, imports, path)
                if len(defs) > index + 1:
                    first = min(d.first for d in defs[index + 1 :])
                    defs[index] = replace(defs[index], header_end=max(start, first - 1))
        elif kind_name in _VARIABLES:
            for decl in child.named_children:
                value = decl.child_by_field_name("value")
                name = decl.child_by_field_name("name")
                if value is not None and value.type in js_functions.FUNCTION_VALUES and name is not None:
                    defs.append(_leaf(child, prefix + node_text(name), "function", top))
                elif value is not None and value.type == "object" and name is not None:  # ``const utils = {…}``
                    for method, member in js_functions.object_methods(value):
                        defs.append(_leaf(member, f"{prefix}{node_text(name)}.{method}", "method", top))
        elif kind_name in ("field_definition", "public_field_definition") and (
            field := js_functions.field_function_name(child)
        ):
            defs.append(_leaf(child, prefix + field, "method", top))
        elif kind_name == "expression_statement" and (exported := js_functions.exported_object(child)) is not None:
            for method, member in js_functions.object_methods(exported):  # the module's own functions
                defs.append(_leaf(member, prefix + method, "function", top))
        elif kind_name == "object" and node.type == "export_statement":  # ``export default { run() {…} }``
            for method, member in js_functions.object_methods(child):
                defs.append(_leaf(member, prefix + method, "function", top))
        elif kind_name == "call" and in_container and (attributes := ruby_attributes(child)):
            for attribute in attributes:  # ``attr_reader :name``: the methods it defines, on its line
                defs.append(_leaf(child, prefix + attribute, "method", top))
        elif kind_name == "expression_statement" and path.endswith(".rs") and (test := macro_test_name(child)):
            defs.append(_leaf(child, prefix + test, "function", top))  # ``rgtest!(f70_smart_case, …)``
        elif kind_name == "expression_statement" and (assigned := js_functions.assigned_name(child)):
            # ``Axios.prototype.request = function …``: a method of ``Axios``
            defs.append(_leaf(child, prefix + assigned, "method" if "." in assigned else "function", top))
        elif kind_name in _TRANSPARENT:
            if child.type == "export_statement" and child.child_by_field_name("source") is not None:
                imports += imports_of(child, path)  # a re-export (``export * from './x'``) imports it
            _visit(child, prefix, in_container, top, defs, imports, path)
        else:
            imports += imports_of(child, path)


def _php_namespace(node: Any) -> bool:
    """Whether a ``namespace_definition`` is PHP's (``namespace App\\Http;``), not C++'s."""
    name = node.child_by_field_name("name")
    return name is not None and name.type == "namespace_name"


def _leaf(node: Any, qualname: str, kind: str, top: bool) -> _Def:
    """A definition with no members, over ``node``'s lines and bytes."""
    start, end = node.start_point[0] + 1, node.end_point[0] + 1
    return _Def(qualname, kind, start, end, end, top, (node.start_byte, node.end_byte), doc_start=_doc_start(node))


# What is written right above a definition and belongs to it: its doc comment (Java's and
# JavaScript's ``/** … */``, Rust's ``///``, Go's and C++'s ``//`` lines) and Rust's attributes.
_LEADING = frozenset({"comment", "line_comment", "block_comment", "attribute_item"})


def _doc_start(node: Any) -> int:
    """The first line (1-based) of the comments and attributes right above ``node``, each on
    the line before the next (no blank line between); 0 when there are none. A comment that
    ends the line of the statement before (``limit = 3  // the default``) is that statement's."""
    first = 0
    row = node.start_point[0]
    # ``export function f``: the comment is the export statement's neighbour
    while node.prev_named_sibling is None and node.parent is not None and node.parent.start_point[0] == row:
        node = node.parent
    above = node.prev_named_sibling
    while above is not None and above.type in _LEADING and _last_row(above) >= row - 1:
        before = above.prev_named_sibling
        if before is not None and _last_row(before) == above.start_point[0]:
            break
        row = above.start_point[0]
        first = row + 1
        above = before
    return first


def _last_row(node: Any) -> int:
    """The row ``node``'s text ends on (0-based): a line comment that holds its newline (Rust's)
    ends at the start of the next row, on its own."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row


def _top_level_chunks(
    lines: list[str], defs: list[_Def], statements: list[tuple[int, int, str]], path: str, language: str | None
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
