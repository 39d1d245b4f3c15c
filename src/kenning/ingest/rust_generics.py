"""Rust's type parameters bound by a trait: ``fn search<S: Sink>(sink: S)``, ``impl<M: Matcher, S:
Sink> Core<M, S>`` (for the methods of that block), ``where S: Sink``. A value of such a type — a
parameter (``sink: S``) or a field (``self.sink`` of ``sink: S``) — is called as one of its first
trait (``sink.matched()``: ``Sink``'s method), where the type parameter alone names no type of the
project and the call reached nothing (ripgrep's searcher calls its sink so throughout)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .grammars import node_text

# (the definition declaring it, by its index among the file's scopes; None: the file) and the
# parameter's name -> its first trait bound's name
Bounds = dict[tuple[int | None, str], str]

_FIRST_BOUND = (
    "(trait_bounds . [(type_identifier) @generic_bound (generic_type type: (type_identifier) @generic_bound)"
    " (scoped_type_identifier name: (type_identifier) @generic_bound)])"
)
QUERY = f"""
(type_parameter name: (type_identifier) @generic bounds: {_FIRST_BOUND})
(where_predicate left: (type_identifier) @generic bounds: {_FIRST_BOUND})
"""


def bounds(found: list[dict[str, list[Any]]], scope_of: Any) -> Bounds:
    """The trait bounding each type parameter ``found`` captures (``QUERY``), by the definition
    that declares it (``scope_of``: a byte's innermost definition's index)."""
    bound: Bounds = {}
    for captures in found:
        name = captures["generic"][0]
        bound.setdefault((scope_of(name.start_byte), node_text(name)), node_text(captures["generic_bound"][0]))
    return bound


def bound_of(generics: Bounds, type_: str, scopes: Sequence[tuple[int, int, str]], at: int | None, byte: int) -> str:
    """``type_`` as a call at ``byte`` (in the definition of index ``at``) reads it: the trait that
    bounds it when it is a type parameter of a definition holding the call (the innermost first),
    else ``type_`` itself."""
    if not generics:
        return type_
    index = at
    while index is not None and index >= 0:
        start, end, _ = scopes[index]
        if start <= byte < end and (index, type_) in generics:
            return generics[index, type_]
        index -= 1
    return generics.get((None, type_), type_)
