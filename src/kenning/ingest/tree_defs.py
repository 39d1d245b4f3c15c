"""The definitions of a tree-sitter tree (``tree_code``): classes, functions, methods, modules and
what else a language defines (a JavaScript object's functions, Ruby's ``attr_reader``, a test a Rust
macro defines), each with its lines, the comments and attributes written right above it, and its
bytes; and, on the way, the file's ``imports`` (``tree_imports``). Function bodies are not entered:
nested functions stay inside their parent; classes, modules, namespaces and impl blocks are."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from . import elixir_source, js_functions
from .grammars import node_text
from .relations import Ref
from .rust_tests import macro_test_name
from .tree_imports import imports_of, rust_module_ref
from .tree_names import definition_name, ruby_attributes

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
    "method_elem": "method",  # a Go interface's method (``Save(x int) error``): the interface's
    "function_signature_item": "method",  # a Rust trait's required method (``fn matched(&mut self) -> bool;``)
}
# The kinds of definition whose methods are called on an object of theirs (``tree_calls``).
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
    "interface_type",  # a Go interface's methods (``type App interface { … }``), below its ``type_spec``
}
_VARIABLES = {"lexical_declaration", "variable_declaration"}


@dataclass(frozen=True)
class Def:
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


def visit(
    node: Any, prefix: str, in_container: bool, top: bool, defs: list[Def], imports: list[Ref], path: str
) -> None:
    for child in node.named_children:
        kind_name = child.type
        if kind_name == "namespace_definition" and child.child_by_field_name("name") is None:
            # C++'s anonymous namespace (``namespace { … }``): its members are the file's own
            body = child.child_by_field_name("body")
            if body is not None:
                visit(body, prefix, in_container, top, defs, imports, path)
        elif kind_name in _NAMESPACES or kind_name == "namespace_definition" and _php_namespace(child):
            body = child.child_by_field_name("body")
            if body is not None:  # ``namespace App;``: what follows is the file's own
                visit(body, prefix, in_container, top, defs, imports, path)
        elif kind_name == "call" and path.endswith(elixir_source.SUFFIXES):
            _elixir(child, prefix, top, defs, imports, path)
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
            defs.append(Def(prefix + name, kind, start, end, end, top, span, out_of_line, doc))
            if kind_name in _CONTAINERS or kind_name == "type_spec" and _go_interface(child):
                body = child.child_by_field_name("body") or child
                visit(body, f"{prefix}{name}.", True, False, defs, imports, path)
                if len(defs) > index + 1:
                    first = min(d.first for d in defs[index + 1 :])
                    defs[index] = replace(defs[index], header_end=max(start, first - 1))
        elif path.endswith(".lua") and kind_name in (*_VARIABLES, "assignment_statement"):
            # ``local f = function() … end``, ``M.picker = function(o) … end`` (its requires: ``lua_requires``)
            defs += [_leaf(child, prefix + name, kind, top) for name, kind in lua_functions(child)]
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
        elif kind_name == "singleton_class" and in_container:  # Ruby's ``class << self``: the class's own
            body = child.child_by_field_name("body")  # methods, named as ``def self.get`` names them (``Base.get``)
            if body is not None:
                visit(body, prefix, True, top, defs, imports, path)
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
            visit(child, prefix, in_container, top, defs, imports, path)
        else:
            imports += imports_of(child, path)


def _elixir(node: Any, prefix: str, top: bool, defs: list[Def], imports: list[Ref], path: str) -> None:
    """An Elixir call at a module's level: a module and its members, a function (its clauses one
    after the other: one definition), or an import (``elixir_source``)."""
    found = elixir_source.definition(node)
    if found is None:
        imports += imports_of(node, path)
        return
    name, kind, body = found
    if kind == "group":  # ExUnit's ``describe``: its tests are named after it (``elixir_source``)
        if body is not None:
            visit(body, prefix, True, top, defs, imports, path)
        return
    start, end = node.start_point[0] + 1, node.end_point[0] + 1
    previous = defs[-1] if defs else None
    if body is None and previous is not None and previous.qualname == prefix + name and previous.kind == kind:
        defs[-1] = replace(previous, end=end, header_end=end, bytes=(previous.bytes[0], node.end_byte))
        return
    index = len(defs)
    defs.append(
        Def(prefix + name, kind, start, end, end, top, (node.start_byte, node.end_byte), False, _doc_start(node))
    )
    if body is not None:
        visit(body, f"{prefix}{name}.", True, False, defs, imports, path)
        # its head stops before its first member, or before a block of its body when one comes first (a
        # router's ``pipeline`` and ``scope`` blocks, a schema's ``schema`` block: excerpts of their own
        # lines, ``tree_code._member_chunks``)
        firsts = [d.first for d in defs[index + 1 :]] + [elixir_source.first_block(body)]
        first = min(line for line in firsts if line) if any(firsts) else 0
        if first:
            defs[index] = replace(defs[index], header_end=max(start, first - 1))


def lua_functions(node: Any) -> list[tuple[str, str]]:
    """The functions a Lua assignment defines (``local f = function() … end``, ``M.picker =
    function(o) … end``): each name and kind (a table's field: a method, as ``function M.setup``)."""
    assignment = (
        node
        if node.type == "assignment_statement"
        else next((c for c in node.named_children if c.type == "assignment_statement"), None)
    )
    if assignment is None:
        return []
    targets = next((c for c in assignment.named_children if c.type == "variable_list"), None)
    values = next((c for c in assignment.named_children if c.type == "expression_list"), None)
    if targets is None or values is None:
        return []
    found = []
    for target, value in zip(targets.named_children, values.named_children, strict=False):
        if value.type == "function_definition" and target.type in ("identifier", "dot_index_expression"):
            name = node_text(target)
            found.append((name, "method" if "." in name else "function"))
    return found


def _go_interface(node: Any) -> bool:
    """Whether a Go ``type_spec`` declares an interface, whose methods are definitions of their own
    (pocketbase's ``App``: 1,535 lines, one excerpt and no method nodes before)."""
    declared = node.child_by_field_name("type")
    return declared is not None and declared.type == "interface_type"


def _php_namespace(node: Any) -> bool:
    """Whether a ``namespace_definition`` is PHP's (``namespace App\\Http;``), not C++'s."""
    name = node.child_by_field_name("name")
    return name is not None and name.type == "namespace_name"


def _leaf(node: Any, qualname: str, kind: str, top: bool) -> Def:
    """A definition with no members, over ``node``'s lines and bytes."""
    start, end = node.start_point[0] + 1, node.end_point[0] + 1
    return Def(qualname, kind, start, end, end, top, (node.start_byte, node.end_byte), doc_start=_doc_start(node))


# What is written right above a definition and belongs to it: its doc comment (Java's and
# JavaScript's ``/** … */``, Rust's ``///``, Go's and C++'s ``//`` lines), Rust's attributes and
# TypeScript's decorators (a NestJS controller's ``@Post(':slug/comments')`` above its method: the
# grammar writes a class member's decorators beside it, not in it).
_LEADING = frozenset({"comment", "line_comment", "block_comment", "attribute_item", "decorator"})


def _doc_start(node: Any) -> int:
    """The first line (1-based) of the comments and attributes right above ``node``, each on
    the line before the next (no blank line between), or a doc block (``/** … */``) one blank
    line above it, as express writes every one; 0 when there are none. A comment that ends the
    line of the statement before (``limit = 3  // the default``) is that statement's."""
    first = 0
    row = node.start_point[0]
    # ``export function f``: the comment is the export statement's neighbour
    while node.prev_named_sibling is None and node.parent is not None and node.parent.start_point[0] == row:
        node = node.parent
    above = node.prev_named_sibling
    gap = 2 if above is not None and _doc_block(above) and _last_row(above) == row - 2 else 1
    while (
        above is not None
        and (above.type in _LEADING or elixir_source.is_attribute(above))
        and _last_row(above) >= row - gap
    ):
        before = above.prev_named_sibling
        if before is not None and _last_row(before) == above.start_point[0]:
            break
        row = above.start_point[0]
        first = row + 1
        above, gap = before, 1
    return first


def _doc_block(node: Any) -> bool:
    """Whether ``node`` is a doc comment block (``/** … */``: JSDoc, Javadoc, Doxygen)."""
    return node.type in ("comment", "block_comment") and node.text.lstrip().startswith(b"/**")


def _last_row(node: Any) -> int:
    """The row ``node``'s text ends on (0-based): a line comment that holds its newline (Rust's)
    ends at the start of the next row, on its own."""
    row, column = node.end_point
    return row - 1 if column == 0 and row > node.start_point[0] else row
