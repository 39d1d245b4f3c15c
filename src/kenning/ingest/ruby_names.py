"""Ruby's bare names that are calls (``tree_calls``): ``convert`` alone is a call of the method
``convert`` on the object, unless the definition around it binds ``convert`` as a local — by an
assignment, a parameter, a block's parameter, a rescued exception, a ``for`` variable — as Ruby
itself reads it (tree-sitter parses both as an ``identifier``). A name bound anywhere in the
definition is a local throughout it (Ruby: from the binding on), which keeps a guess out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .grammars import node_text
from .tree_names import symbol_arguments

# Nodes whose identifiers, as direct children, bind a local.
_BINDERS = frozenset(
    {
        "method_parameters",
        "block_parameters",
        "lambda_parameters",
        "left_assignment_list",
        "destructured_left_assignment",
        "destructured_parameter",
        "exception_variable",
        "rest_assignment",
    }
)
# Nodes whose ``name`` binds a local (their default value is an expression).
_NAMED_BINDERS = frozenset(
    {"optional_parameter", "keyword_parameter", "splat_parameter", "hash_splat_parameter", "block_parameter"}
)
# Nodes where an identifier names what is defined or aliased, not a value.
_NAMING = frozenset({"alias", "undef", "setter"})


def _role(node: Any) -> str:
    """``binding``, ``use`` (an expression: a local's value or a call) or ``other``."""
    parent = node.parent
    if parent is None:
        return "other"
    kind = parent.type
    if kind in _BINDERS:
        return "binding"
    if kind in _NAMED_BINDERS:
        return "binding" if parent.child_by_field_name("name") == node else "use"
    if kind in ("assignment", "operator_assignment"):
        return "binding" if parent.child_by_field_name("left") == node else "use"
    if kind == "for":
        return "binding" if parent.child_by_field_name("pattern") == node else "use"
    if kind in ("method", "singleton_method"):
        return "other" if parent.child_by_field_name("name") == node else "use"
    if kind == "call":  # its method is a call already (``tree_queries.CALLS``); its receiver a value
        return "use" if parent.child_by_field_name("receiver") == node else "other"
    return "other" if kind in _NAMING else "use"


def bare_calls(identifiers: Sequence[Any], scope_of: Callable[[int], int | None]) -> list[Any]:
    """The ``identifiers`` (every one of a file, in any order) that are calls: used as values and
    bound nowhere in their definition (``scope_of``: a byte's innermost definition)."""
    bound: set[tuple[int | None, str]] = set()
    used = []
    for node in identifiers:
        role = _role(node)
        if role == "binding":
            bound.add((scope_of(node.start_byte), node_text(node)))
        elif role == "use":
            used.append(node)
    return [node for node in used if (scope_of(node.start_byte), node_text(node)) not in bound]


# Rails' callbacks, named by symbol in a class body (``before_action :require_logged_in_user``,
# ``after_create :record_initial_upvote``, ``validate :check_title``): each calls the method its
# symbol names on the object (lobsters, walked: "who calls require_logged_in_user" missed the 15
# controllers filtering through it).
CALLBACKS = frozenset(
    {"before_action", "after_action", "around_action", "prepend_before_action", "append_before_action"}
    | {"before_validation", "after_validation", "validate", "before_save", "around_save", "after_save"}
    | {"before_create", "around_create", "after_create", "before_update", "around_update", "after_update"}
    | {"before_destroy", "around_destroy", "after_destroy", "after_commit", "after_rollback", "after_initialize"}
    | {"after_find", "after_touch", "after_create_commit", "after_update_commit", "after_destroy_commit"}
    | {"after_save_commit", "before_enqueue", "after_enqueue", "before_perform", "after_perform", "around_perform"}
)


def callback_symbols(method: Any) -> list[Any]:
    """The symbols a Rails callback written without a receiver names (``before_action :a, :b``),
    each a call of its method; none for any other call (``method``: the call's method name)."""
    return symbol_arguments(method.parent, CALLBACKS)
