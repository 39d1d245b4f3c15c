"""JavaScript's functions that no declaration names (``tree_code``): a function assigned to a member
(``Axios.prototype.request = function request(config) {…}``, ``Axios.create = (c) => …``,
``module.exports = function dispatchRequest(…)``, ``exports.merge = function (…)``) and the methods of
an object a ``const`` binds (``const utils = { merge: function (a, b) {…}, forEach(obj, fn) {…} }``),
a class's fields holding a function (``handleClick = (e) => {…}``), and the functions of an object a
module exports whole (``module.exports = { parse(text) {…} }``: ``parse``).
Older code and libraries write most of their functions so; each becomes a symbol, its calls its own."""

from __future__ import annotations

from typing import Any

from .grammars import node_text

FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function", "generator_function"})
_EXPORTS = ("module.exports", "exports")


def assigned_name(statement: Any) -> str | None:
    """The name an expression statement assigning a function gives it: ``Axios.request`` for
    ``Axios.prototype.request = function …`` (a prototype's method is its class's), the function's
    own name for ``module.exports = function name(…)``, ``merge`` for ``exports.merge = …``; None
    for any other statement."""
    expression = next(iter(statement.named_children), None)
    if expression is None or expression.type != "assignment_expression":
        return None
    left, right = expression.child_by_field_name("left"), expression.child_by_field_name("right")
    if left is None or right is None or right.type not in FUNCTION_VALUES:
        return None
    target = node_text(left)
    if left.type == "identifier":
        return target
    if left.type != "member_expression" or not all(part.isidentifier() for part in target.split(".")):
        return None  # ``handlers[name] = …``, ``a.b().c = …``
    if target in _EXPORTS:
        own = right.child_by_field_name("name")
        return node_text(own) if own is not None else None
    for exported in _EXPORTS:
        target = target.removeprefix(exported + ".")
    return target.replace(".prototype.", ".")


def exported_object(statement: Any) -> Any | None:
    """The object a module exports whole (``module.exports = { parse(text) {…}, stringify: … }``), whose
    functions are the module's own (``parse``); None for any other statement."""
    expression = next(iter(statement.named_children), None)
    if expression is None or expression.type != "assignment_expression":
        return None
    left, right = expression.child_by_field_name("left"), expression.child_by_field_name("right")
    if left is None or right is None or right.type != "object" or node_text(left) not in _EXPORTS:
        return None
    return right


def field_function_name(field: Any) -> str | None:
    """The name of a class field holding a function (``handleClick = (e) => {…}``, React's way of
    binding a handler; ``static make = function () {…}``); None for any other field."""
    value = field.child_by_field_name("value")
    name = field.child_by_field_name("name" if field.type == "public_field_definition" else "property")
    if value is None or value.type not in FUNCTION_VALUES or name is None:
        return None
    return node_text(name) if name.type in ("property_identifier", "private_property_identifier") else None


def object_methods(value: Any) -> list[tuple[str, Any]]:
    """(name, node) of the functions an object literal holds: ``merge: function (…) {…}``,
    ``forEach(obj, fn) {…}``, ``run: () => …``."""
    found = []
    for member in value.named_children:
        if member.type == "method_definition":
            name = member.child_by_field_name("name")
        elif (
            member.type == "pair"
            and (v := member.child_by_field_name("value")) is not None
            and v.type in FUNCTION_VALUES
        ):
            name = member.child_by_field_name("key")
        else:
            continue
        if name is not None and name.type in ("property_identifier", "identifier"):
            found.append((node_text(name), member))
    return found
