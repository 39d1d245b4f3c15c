"""What a call's receiver says of its type when no binding types it (``tree_calls``): a value
asserted not null (``d!.Save()``), an object created where it is called (``(new Streamer())->stream()``,
Kotlin's and Swift's ``Store().persist()``), a type's shared instance (``UserDefaults.standard.set()``,
``Store.shared.save()``), another call's result (``Regex::builder().build()``: nothing), a field of a
field (``self.config.colors.matched()``: nothing)."""

from __future__ import annotations

from typing import Any

from .grammars import node_text
from .tree_languages import CAPITALISED_TYPES

# A value asserted not null (C#'s ``d!``, Kotlin's ``d!!``, Swift's ``d!``): a call on it is one on
# the value (``d!.Save()``).
_ASSERTIONS = frozenset({"postfix_unary_expression", "unary_expression", "postfix_expression"})


def asserted(receiver: Any) -> Any:
    """The receiver a not-null assertion wraps, else the receiver itself."""
    if receiver.type in _ASSERTIONS and node_text(receiver).endswith("!") and receiver.named_child_count:
        return receiver.named_children[0]
    return receiver


# An object created where it is called: ``new Store()`` (its type, the first name it holds), and
# Kotlin's and Swift's ``Store()``, a capitalised name called (``CAPITALISED_TYPES``).
_CREATIONS = frozenset({"object_creation_expression", "new_expression", "instance_expression"})
_TYPE_NAMES = frozenset({"name", "identifier", "type_identifier", "simple_identifier"})


# A type's one shared instance, by the names conventions give it: ``UserDefaults.standard``,
# ``Store.shared``, ``FileManager.default``, C#'s ``Store.Instance``, Java's ``Store.INSTANCE``.
SINGLETONS = frozenset({"shared", "standard", "default", "instance", "current", "main"})
_MEMBER_ACCESS = frozenset({"navigation_expression", "member_access_expression", "field_access", "member_expression"})


def created_type(receiver: Any, language: str) -> str | None:
    """The class of the object a call's receiver creates (``(new Streamer($x))->stream()``,
    ``new Store().Persist()``, ``Store().persist()``) or names as its type's shared instance
    (``UserDefaults.standard.set()``, ``Store.shared.save()``), else None."""
    while receiver.type == "parenthesized_expression" and receiver.named_child_count == 1:
        receiver = receiver.named_children[0]
    if receiver.type in _MEMBER_ACCESS and language in CAPITALISED_TYPES and receiver.named_child_count == 2:
        owner, member = receiver.named_children
        spelled = node_text(owner)
        member_name = node_text(member).lstrip(".").lower()  # Swift's suffix holds its dot
        if owner.type in _TYPE_NAMES and spelled[:1].isupper() and member_name in SINGLETONS:
            return spelled
    if receiver.type == "call_expression" and language in ("kotlin", "swift"):
        called = receiver.named_children[0] if receiver.named_child_count else None
        if called is not None and called.type in _TYPE_NAMES and node_text(called)[:1].isupper():
            return node_text(called)
        return None
    if receiver.type not in _CREATIONS:
        return None
    named = next((child for child in receiver.named_children if child.type in _TYPE_NAMES), None)
    return node_text(named) if named is not None else None


# A call's result as a receiver (``Regex::builder().build()``, ``list.stream().map()``), maybe
# awaited, tried (Rust's ``?``) or in parentheses: each language's call nodes.
_CALL_NODES = frozenset(
    {
        "call_expression",  # JavaScript, TypeScript, Rust, Go, C, C++, Kotlin, Swift, Scala
        "method_invocation",  # Java
        "invocation_expression",  # C#
        "call",  # Ruby
        "member_call_expression",  # PHP
        "nullsafe_member_call_expression",
        "function_call_expression",
        "scoped_call_expression",
    }
)
_WRAPPERS = frozenset({"parenthesized_expression", "try_expression", "await_expression"})


def chained(receiver: Any) -> bool:
    """Whether a call's receiver is another call's result, whose type the code does not spell
    (``Regex::builder().build()``): the call names a method of no type it knows, a guess even
    when the caller's file holds the only method of that name (``graph.narrow``)."""
    while receiver.type in _WRAPPERS and receiver.named_child_count:
        receiver = receiver.named_children[0]
    return receiver.type in _CALL_NODES


# A field or member read from an object (``a.b``), each language's node for it.
_FIELD_ACCESS = _MEMBER_ACCESS | {"field_expression", "selector_expression", "member_access_expression"}


def field_of_field(receiver: Any) -> bool:
    """Whether a call's receiver is a field read from another field (``self.config.colors`` in
    ``self.config.colors.matched()``, ``a.b.c``), whose type no binding of the file says: the call names
    a method of no type it knows, a guess even when the caller's file holds the only method of that
    name (ripgrep's was linked ``extracted`` to ``StandardSink.matched``, another class of the file)."""
    while receiver.type in _WRAPPERS and receiver.named_child_count:
        receiver = receiver.named_children[0]
    if receiver.type not in _FIELD_ACCESS or not receiver.named_child_count:
        return False
    owner = receiver.named_children[0]
    while owner.type in _WRAPPERS and owner.named_child_count:
        owner = owner.named_children[0]
    return owner.type in _FIELD_ACCESS
