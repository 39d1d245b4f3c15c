"""Calls a framework makes from what the code declares, not calls the code writes (``tree_calls``):
a Phoenix router's or a Rails app's routes, each a call of its controller's action
(``phoenix.routes``, ``rails_routes``, ``laravel_routes``), the function components a Phoenix HEEx template
shows (a ``~H`` sigil's ``<.button>``: ``phoenix.component_tags``), and the handler MediatR runs for a
request sent (``mediatr``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from . import phoenix, rails_routes
from .grammars import node_text
from .relations import SELF_HINT, Ref, class_hint
from .tree_bindings import scope_at

Key = tuple[str | None, str, str | None, bool]


def routes(root: Any, language: str, path: str) -> list[tuple[Any, str, str]]:
    """(route, action, controller's qualified name) of the routes a Phoenix router or a Rails routes
    file declares, in the order written."""
    if language == "elixir":
        found = phoenix.routes(root)
    elif language == "ruby" and rails_routes.is_routes_file(path):
        found = rails_routes.routes(root)
    else:
        return []
    return sorted(found, key=lambda route: route[0].start_byte)


def refs(
    templates: Sequence[Any],
    declared_routes: Sequence[tuple[Any, str, str]],
    scopes: Sequence[tuple[int, int, str]],
    starts: list[int],
    types: frozenset[str],
    bases: dict[str, tuple[int, list[str]]],
    modules: dict[str, str],
    testing: bool,
) -> Iterator[tuple[Key, Ref]]:
    """The ``calls`` references (with their keys, ``relations.add_call``'s) of HEEx templates'
    function components (``<.button>`` as a bare ``button()`` is, the module's own or an imported
    one; ``<Modal.modal>`` through that module, as an ``alias`` names it) and of routes (as
    ``UserController.show()`` is)."""
    for at_byte, line, name, module in (tag for template in templates for tag in phoenix.component_tags(template)):
        scope = _scope(scopes, starts, at_byte)
        owner = scope if scope in types else scope.rpartition(".")[0] if scope else ""
        first, dot, rest = module.partition(".")
        hint = modules.get(first, first) + dot + rest if module else class_hint(owner, bases) if owner else None
        yield (
            (scope, name, hint, bool(module)),
            Ref("calls", "symbol", name, line, scope, hint, bool(module), False, "extracted", testing),
        )
    for route, action, controller in declared_routes:
        scope = _scope(scopes, starts, route.start_byte)
        ref = Ref("calls", "symbol", action, route.start_point[0] + 1, scope, controller, True, False, "extracted")
        yield (scope, action, controller, True), ref


def _scope(scopes: Sequence[tuple[int, int, str]], starts: list[int], at: int) -> str | None:
    found = scope_at(scopes, starts, at)
    return scopes[found][2] if found is not None else None


# MediatR (C#): what sends a request or publishes a notification to the handler the container finds
# for its type (``sender.Send(new CreateTodoItemCommand(…))``, ``_mediator.Publish(domainEvent)``).
_MEDIATR = frozenset({"Send", "Publish", "CreateStream"})


def mediatr(
    calls: Sequence[tuple[int, Any, dict[str, list[Any]]]],
    typed: dict[tuple[int | None, str], str],
    scopes: Sequence[tuple[int, int, str]],
    starts: list[int],
    testing: bool,
) -> list[tuple[Key, Ref]]:
    """A call of ``Handle`` of the request's handler for each MediatR ``Send``/``Publish`` whose
    request's type the code spells (an object made in place, a typed parameter or local), the
    handler found by MediatR's naming (``CreateTodoItemCommand``: ``CreateTodoItemCommandHandler``):
    a guess (``heuristic``), which reaches nothing when no class is so named; the container matches
    the handler by the type it implements (``IRequestHandler<CreateTodoItemCommand, int>``)."""
    found: list[tuple[Key, Ref]] = []
    for _, node, captures in calls:
        if "method" not in captures or node_text(node) not in _MEDIATR:
            continue
        invocation = node.parent.parent if node.parent is not None else None
        arguments = invocation.child_by_field_name("arguments") if invocation is not None else None
        first = arguments.named_children[0] if arguments is not None and arguments.named_children else None
        value = first.named_children[0] if first is not None and first.named_children else None
        at = scope_at(scopes, starts, node.start_byte)
        if value is None:
            continue
        if value.type == "object_creation_expression":
            made = value.child_by_field_name("type")
            request = node_text(made) if made is not None and made.type == "identifier" else None
        else:
            request = typed.get((at, node_text(value))) if value.type == "identifier" else None
        if not request or "." in request:
            continue
        scope = scopes[at][2] if at is not None else None
        hint = f"{SELF_HINT}.{request}Handler"
        ref = Ref("calls", "symbol", "Handle", node.start_point[0] + 1, scope, hint, True, False, "heuristic", testing)
        found.append(((scope, "Handle", hint, True), ref))
    return found
