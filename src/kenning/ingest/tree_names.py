"""The names tree-sitter definitions declare, as their languages write them: a C++ qualified
name, a Go method's receiver type, a Kotlin extension function's type, a Rust ``impl`` block's type,
a Ruby class path and the methods Ruby's ``attr_*`` calls define (``ingest.tree_code`` cuts the
excerpts)."""

from __future__ import annotations

from collections.abc import Container
from typing import Any

from .grammars import node_text

# Definitions their language names by a keyword, not a name of their own: Swift's initialiser,
# deinitialiser and subscript, Kotlin's secondary constructor (``ImageCache.init``).
_KEYWORD_NAMED = {
    "init_declaration": "init",
    "deinit_declaration": "deinit",
    "subscript_declaration": "subscript",
    "secondary_constructor": "constructor",
}
# Ruby's attribute methods, by the call that defines them: the reader ``name``, the writer ``name=``.
_RUBY_ATTRIBUTES = {"attr_reader": ("",), "attr": ("",), "attr_writer": ("=",), "attr_accessor": ("", "=")}


def ruby_attributes(node: Any) -> list[str]:
    """The methods a Ruby ``attr_reader :a, :b`` (``attr_writer``, ``attr_accessor``, ``attr``)
    written in a class or module body defines; none for any other call."""
    symbols = symbol_arguments(node, _RUBY_ATTRIBUTES)
    suffixes = _RUBY_ATTRIBUTES[node_text(node.child_by_field_name("method"))] if symbols else ()
    return [node_text(symbol).lstrip(":") + suffix for symbol in symbols for suffix in suffixes]


def symbol_arguments(call: Any, methods: Container[str]) -> list[Any]:
    """The ``:symbol`` arguments of a Ruby call with no receiver to one of ``methods``
    (``attr_reader :a, :b``, ``before_action :require_user``); none for any other node."""
    if call is None or call.type != "call" or call.child_by_field_name("receiver") is not None:
        return []
    method, arguments = call.child_by_field_name("method"), call.child_by_field_name("arguments")
    if method is None or arguments is None or node_text(method) not in methods:
        return []
    return [a for a in arguments.named_children if a.type == "simple_symbol"]


def definition_name(node: Any) -> str | None:
    """The name a definition node declares, qualified as its language writes it (``Server.Run``,
    ``DBImpl.Writer``, ``Table.Cell``, Rust's ``impl`` by its type); None when it has none."""
    if node.type == "impl_item":  # Rust: ``impl<T> Stack<T>`` and ``impl store::Pool`` by the type's own name
        target = node.child_by_field_name("type")
        while target is not None and target.type in ("generic_type", "scoped_type_identifier"):
            target = target.child_by_field_name("type" if target.type == "generic_type" else "name")
        return node_text(target) if target is not None else None
    if node.type in _KEYWORD_NAMED:
        return _KEYWORD_NAMED[node.type]
    if node.type in ("operator_declaration", "conversion_operator_declaration"):
        return _csharp_operator(node)
    if node.type == "property_declaration":
        return _csharp_property(node)
    name = node.child_by_field_name("name")
    if name is not None and name.type == "method_index_expression":  # Lua's ``function M:refresh()``
        return node_text(name).replace(":", ".")
    if name is not None and name.type == "qualified_identifier":  # C++: ``struct DBImpl::Writer {…}``
        return ".".join(_qualified_parts(name))
    if name is not None and name.type == "template_type":  # C++'s specialization: ``struct formatter<date> {…}``
        return _specialization(name)
    if name is not None and name.type == "scope_resolution":  # Ruby: ``class Table::Cell``
        return ".".join(node_text(name).lstrip(":").split("::"))
    if name is not None:
        receiver = node.child_by_field_name("receiver") if node.type == "method_declaration" else None
        owner = _receiver_type(receiver) if receiver is not None else None
        if node.type == "function_declaration" and owner is None:
            owner = _extended_type(node, name)
        return f"{owner}.{node_text(name)}" if owner else node_text(name)
    declarator = node.child_by_field_name("declarator")
    while declarator is not None:  # C/C++: int *f(int x) -> pointer_declarator -> function_declarator -> f
        if declarator.type == "qualified_identifier":
            return ".".join(_qualified_parts(declarator))
        if declarator.type in ("identifier", "field_identifier", "destructor_name", "operator_name"):
            return node_text(declarator)
        declarator = declarator.child_by_field_name("declarator")
    return None


def _csharp_operator(node: Any) -> str | None:
    """A C# operator's name as C++ writes one: ``operator==``, ``operator Colour`` (a conversion)."""
    tokens = [child for child in node.children if child.type != "modifier"]
    keyword = next((n for n, child in enumerate(tokens) if child.type == "operator"), None)
    if keyword is None or keyword + 1 >= len(tokens):
        return None
    after = tokens[keyword + 1]
    return f"operator {node_text(after)}" if after.is_named else f"operator{node_text(after)}"


def _csharp_property(node: Any) -> str | None:
    """A C# property that holds code — an accessor with a body (``set { …; Raise(); }``,
    ``get => _done``) or an expression body (``Code => _code.ToUpper()``) — by its name; None for
    an auto-property (``{ get; set; }``) and for the other grammars' ``property_declaration``
    (Kotlin's, Swift's, PHP's: their properties are no symbols)."""
    name = node.child_by_field_name("name")
    if name is None or name.type != "identifier":
        return None
    value = node.child_by_field_name("value")
    accessors = node.child_by_field_name("accessors")
    bodies = [a for a in accessors.named_children if a.child_by_field_name("body") is not None] if accessors else []
    coded = bodies or (value is not None and value.type == "arrow_expression_clause")
    return node_text(name) if coded else None


def _extended_type(node: Any, name: Any) -> str | None:
    """The type a Kotlin extension function extends, by its name: ``fun Type.describe()`` and
    ``fun <T> Class<T>.adapter()`` give ``Type`` and ``Class`` (the function is named as a method of
    it, so that ``type.describe()`` reaches it); None for any other function (JavaScript's and
    TypeScript's ``function_declaration`` hold no type before their name)."""
    for child in node.named_children:
        if child == name:
            return None
        if child.type == "nullable_type":  # ``fun String?.orEmpty()``
            child = next(iter(child.named_children), child)
        if child.type == "user_type":
            first = next(iter(child.named_children), None)
            return node_text(first) if first is not None and first.type == "identifier" else None
    return None


def _qualified_parts(node: Any) -> list[str]:
    """The names of a C++ qualified name, a template's arguments left out: ``SkipList<Key>::Insert``
    gives ``SkipList``, ``Insert``; ``DBImpl::~DBImpl`` gives ``DBImpl``, ``~DBImpl``."""
    parts = []
    while node is not None and node.type == "qualified_identifier":
        scope = node.child_by_field_name("scope")
        if scope is not None:
            named = scope.child_by_field_name("name") if scope.type == "template_type" else scope
            parts.append(node_text(named if named is not None else scope))
        node = node.child_by_field_name("name")
    if node is not None and node.type == "template_type":  # ``struct detail::formatter<date> {…}``
        parts.append(_specialization(node))
    elif node is not None:
        parts.append(node_text(node))
    return parts


SPECIALIZATION_CHARS = 40  # longer arguments (``enable_if_t<…>`` conditions over lines) leave the template's name


def _specialization(node: Any) -> str:
    """A C++ class template's specialization's name: the template's and its arguments without their
    spaces (``formatter<date>``, ``formatter<std::vector<T>,Char>``), or the template's alone when
    they run long. Whole, {fmt}'s ``formatter<Tuple, Char,\n enable_if_t<…>>`` went into its calls'
    hints, which split on spaces, and a cold sync of {fmt} stopped in the graph's resolution."""
    template = node.child_by_field_name("name")
    arguments = node.child_by_field_name("arguments")
    name = node_text(template) if template is not None else ""
    written = "".join(node_text(arguments).split()) if arguments is not None else ""
    return name + written if len(written) <= SPECIALIZATION_CHARS else name


def _receiver_type(receiver: Any) -> str | None:
    """A Go method's type, from its receiver: ``(s *Server)`` and ``(s *Server[T])`` give ``Server``."""
    declaration = next((n for n in receiver.named_children if n.type == "parameter_declaration"), None)
    node = declaration.child_by_field_name("type") if declaration is not None else None
    while node is not None and node.type != "type_identifier":
        # a pointer's type is its one named child; a generic type's, its ``type`` field
        node = (
            node.child_by_field_name("type") if node.type == "generic_type" else next(iter(node.named_children), None)
        )
    return node_text(node) if node is not None else None
