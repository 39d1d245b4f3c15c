"""Calls a framework makes from what the code declares, not calls the code writes (``tree_calls``):
a Phoenix router's or a Rails app's routes, each a call of its controller's action
(``phoenix.routes``, ``rails_routes``), and the function components a Phoenix HEEx template
shows (a ``~H`` sigil's ``<.button>``: ``phoenix.component_tags``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from . import phoenix, rails_routes
from .grammars import node_text
from .relations import Ref, class_hint
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


# Laravel's resource routes: a controller's actions (``Route::apiResource``: no form's, ``create``, ``edit``).
_LARAVEL_ACTIONS = ("index", "create", "store", "show", "edit", "update", "destroy")
_LARAVEL_API_ACTIONS = ("index", "store", "show", "update", "destroy")


def laravel_resources(resources: Sequence[tuple[Any, str]]) -> list[tuple[Any, str, str]]:
    """(route, action, controller) of Laravel's resource routes (``Route::resource('photos',
    PhotoController::class)``: the controller's name and the verb, ``resource`` or ``apiResource``),
    each action the resource has, ``->only([…])`` or ``->except([…])`` applied."""
    found = []
    for name, verb in resources:
        actions = list(_LARAVEL_API_ACTIONS if verb == "apiResource" else _LARAVEL_ACTIONS)
        call = name.parent
        while call is not None and call.type != "scoped_call_expression":
            call = call.parent
        chained = call.parent if call is not None else None
        while chained is not None and chained.type == "member_call_expression":
            method, arguments = chained.child_by_field_name("name"), chained.child_by_field_name("arguments")
            listed = {node_text(s) for s in _strings(arguments)} if arguments is not None else set()
            if method is not None and node_text(method) == "only":
                actions = [a for a in actions if a in listed]
            elif method is not None and node_text(method) == "except":
                actions = [a for a in actions if a not in listed]
            chained = chained.parent
        found += [(name, action, node_text(name)) for action in actions]
    return found


def _strings(node: Any) -> list[Any]:
    """The string contents below ``node`` (an ``only([…])`` call's arguments)."""
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if current.type == "string_content":
            found.append(current)
        stack.extend(current.named_children)
    return found


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
