"""Calls written in a Rust macro's arguments. tree-sitter keeps a macro's arguments as tokens
(``assert_eq!(parse_reader("a"), 1)`` is ``assert_eq``, ``!`` and a token tree), and Rust's tests
call what they test there (``assert!``, ``assert_eq!``, ``matches!``): a name followed right away by
a parenthesised token tree is read as a call, bare, on the name (or ``self``) before a ``.``, or
through the name (or ``super``, ``crate``) before a ``::`` (``tree_queries.CALLS``: ``@macro_call``)."""

from __future__ import annotations

from typing import Any

# (its first byte, the called name's node, its captures as ``tree_calls`` reads a call's)
Call = tuple[int, Any, dict[str, list[Any]]]


def as_call(name: Any) -> Call | None:
    """The call whose name is the token ``name``, followed by its arguments; None when a token
    other than the token tree comes between (``a, (b)``), or when a ``.`` or ``::`` before it
    follows no name (``(x).len()``: the receiver is no name)."""
    after = name.next_sibling
    if after is None or after.type != "token_tree":
        return None
    before = name.prev_sibling
    if before is None or before.type not in (".", "::"):
        return (name.start_byte, name, {"call": [name]})
    owner = before.prev_sibling
    if owner is None or owner.type not in ("identifier", "self", "super", "crate"):
        return None
    return (name.start_byte, name, {"method": [name], "recv" if before.type == "." else "path": [owner]})
