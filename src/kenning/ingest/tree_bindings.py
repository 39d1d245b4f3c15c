"""The types a file's bindings give its names, for ``tree_calls``: the locals and parameters bound
to a type the code spells (``tree_types.TYPED``, a name assigned again left out: ``ASSIGNED``), the
fields a class declares with a type (``FIELDS``, an inner class reading its outer class's), and
which field of the method's own object a receiver names. By the scope each name is bound in
(``scope_at``: the innermost definition holding it)."""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from .grammars import node_text
from .relations import STANDARD_NAMESPACES
from .tree_languages import BARE_FIELDS, CPP_FIELD_ACCESS, FIELD_ACCESS, MEMBER_ACCESS, NAMES, OUTER_FIELDS, SELF

Key = TypeVar("Key")


def scope_at(scopes: Sequence[tuple[int, int, str]], starts: list[int], at: int) -> int | None:
    """The index of the innermost definition holding byte ``at`` (the last one begun before it
    that has not ended), or None: the file."""
    index = bisect.bisect_right(starts, at) - 1
    while index >= 0:
        if scopes[index][1] > at:
            return index
        index -= 1
    return None


def typed_names(
    language: str,
    bound: list[dict[str, list[Any]]],
    assigned: list[Any],
    scopes: Sequence[tuple[int, int, str]],
    starts: list[int],
) -> dict[tuple[int | None, str], str]:
    """(scope index, name) -> the type a definition binds the name to (``bound``: the matches of
    ``TYPED``); a name bound to two types in one scope, or assigned again (``assigned``: the
    names ``ASSIGNED`` found), is left out: which value a call meets then depends on the flow."""
    times = Counter((scope_at(scopes, starts, node.start_byte), node_text(node)) for node in assigned)
    once = 1 if language in ("ruby", "php") else 0  # Ruby's and PHP's typed binding is itself an assignment
    found = _one_type(
        ((scope_at(scopes, starts, c["bound"][0].start_byte), node_text(c["bound"][0])), _type_of(c))
        for c in bound
        # Rust's ``T::open()``, Ruby's ``T.find``: such a function may return anything
        if "bound_new" not in c or node_text(c["bound_new"][0]) == "new"
    )
    return {key: type_ for key, type_ in found.items() if times[key] <= once}


def _type_of(captures: dict[str, list[Any]]) -> str:
    """The type a binding spells: its name, or Go's ``package.Type`` (``cobra.Command``)."""
    type_ = node_text(captures["bound_type"][0])
    package = captures.get("bound_package")
    return f"{node_text(package[0])}.{type_}" if package else type_


def declared_fields(
    declared: list[dict[str, list[Any]]], scopes: Sequence[tuple[int, int, str]], starts: list[int]
) -> dict[tuple[str, str], str]:
    """(class qualname, field) -> the type the class declares the field with (``FIELDS``); a
    field declared with two types (a nested class's homonym) is left out."""
    pairs = []
    for captures in declared:
        node = captures["field"][0]
        at = scope_at(scopes, starts, node.start_byte)
        if at is None:
            continue
        owner = scopes[at][2]
        if node.parent is not None and (
            node.parent.type == "required_parameter"
            or node.parent.parent is not None
            and node.parent.parent.type == "property_promotion_parameter"
        ):
            owner = owner.rpartition(".")[0]  # a constructor's parameter property: its class's
        package = captures.get("field_package")  # C++'s ``port::Mutex mu_;``: ``port.Mutex``
        type_ = node_text(captures["field_type"][0])
        pairs.append(((owner, node_text(node)), f"{node_text(package[0])}.{type_}" if package else type_))
    return _one_type(pairs)


def _one_type(pairs: Iterable[tuple[Key, str]]) -> dict[Key, str]:
    """Each key with its type, those given two types left out."""
    found: dict[Key, str] = {}
    mixed: set[Key] = set()
    for key, type_ in pairs:
        if found.setdefault(key, type_) != type_:
            mixed.add(key)
    return {key: type_ for key, type_ in found.items() if key not in mixed}


def typed_member(receiver: Any, at: int | None, typed: dict[tuple[int | None, str], str]) -> str | None:
    """For a C++ receiver that is a member of a local or parameter of a declared type
    (``impl->versions_`` with ``DBImpl* impl``): ``"DBImpl versions_"``, the class and the member
    (``graph.fields`` reads its type); else None."""
    if receiver.type != "field_expression":
        return None
    obj, member = (receiver.child_by_field_name(name) for name in CPP_FIELD_ACCESS)
    if obj is None or member is None or obj.type != "identifier":
        return None
    package, _, type_ = typed.get((at, node_text(obj)), "").rpartition(".")
    return f"{type_} {node_text(member)}" if type_ and package not in STANDARD_NAMESPACES else None


def field_type(
    fields: dict[tuple[str, str], str], field: tuple[str, str] | None, types: frozenset[str], language: str
) -> str | None:
    """The type of the field ``field`` ((class, name)) names: its class's, else, in Java and Kotlin,
    an enclosing class's (an inner class reads its outer class's fields: JUnit's ``@Nested`` tests
    call ``petValidator.validate()`` on their outer class's ``PetValidator petValidator``)."""
    if field is None:
        return None
    found = fields.get(field)
    cls, name = field
    while found is None and language in OUTER_FIELDS and "." in cls:
        cls = cls.rpartition(".")[0]
        if cls not in types:
            break
        found = fields.get((cls, name))
    return found


def own_field(receiver: Any, language: str, self_var: str | None) -> str | None:
    """The field named by a receiver that is one of the method's own object (``this.store``,
    ``self.store``, Go's ``s.store`` with ``s`` the receiver, Java's and C++'s bare ``store``,
    C++'s ``this->store``), else None."""
    if language in BARE_FIELDS and receiver.type in ("identifier", "simple_identifier"):
        return node_text(receiver)
    access = CPP_FIELD_ACCESS if language == "cpp" and receiver.type == "field_expression" else None
    access = access or (MEMBER_ACCESS.get(language) if receiver.type == "member_access_expression" else None)
    access = access or FIELD_ACCESS.get(receiver.type)
    if access is None:
        return None
    obj, field = (receiver.child_by_field_name(name) for name in access)
    if field is not None and field.type == "navigation_suffix":  # Swift's ``.store``: the name in it
        field = field.child_by_field_name("suffix")
    if obj is None or field is None:
        return None
    if obj.type in SELF or self_var is not None and obj.type in NAMES and node_text(obj) == self_var:
        return node_text(field)
    return None
