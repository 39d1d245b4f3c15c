"""Laravel's routes as calls of their controllers' actions (``declared_calls``): a resource route
(``Route::resource('photos', PhotoController::class)``, ``Route::apiResource``) calls the resource's
actions, ``->only([…])`` or ``->except([…])`` applied; a route naming its action by a string calls it
in a group of one controller's routes (``Route::controller(X::class)->group(…)``) or as Laravel 7
wrote it (``'Admin\\UserController@show'``). Read from tree-sitter-php's tree (``tree_calls``: the
query's captures); a callable array and an invokable controller are ``tree_calls``'s own."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .grammars import node_text

# Laravel's resource routes: a controller's actions (``Route::apiResource``: no form's, ``create``, ``edit``).
_ACTIONS = ("index", "create", "store", "show", "edit", "update", "destroy")
_API_ACTIONS = ("index", "store", "show", "update", "destroy")


def resources(declared: Sequence[tuple[Any, str]]) -> list[tuple[Any, str, str]]:
    """(route, action, controller) of Laravel's resource routes (``Route::resource('photos',
    PhotoController::class)``: the controller's name and the verb, ``resource`` or ``apiResource``),
    each action the resource has, ``->only([…])`` or ``->except([…])`` applied."""
    found = []
    for name, verb in declared:
        actions = list(_API_ACTIONS if verb == "apiResource" else _ACTIONS)
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


def named_actions(strings: Sequence[Any]) -> list[tuple[Any, str, str]]:
    """(route, action, controller) of Laravel's routes to an action by its name: ``'show'`` in a
    group of one controller's routes (``Route::controller(OrderController::class)->group(function
    () { Route::get('/orders/{id}', 'show'); })``, the nearest such group around it), or
    ``'Admin\\UserController@show'`` (Laravel before 8: the class by its short name). Another
    string (a view's name, a route outside any controller's group) is none."""
    found = []
    for string in strings:
        text = node_text(string)[1:-1].replace("\\\\", "\\")
        named, at, action = text.rpartition("@")
        controller = named.rpartition("\\")[2] if at else _group_controller(string)
        if controller and _IDENTIFIER.fullmatch(controller) and _IDENTIFIER.fullmatch(action):
            found.append((string, action, controller))
    return found


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _group_controller(node: Any) -> str | None:
    """The controller of the nearest ``Route::controller(X::class)…->group(function () {…})`` whose
    function holds ``node``, or None."""
    parent = node.parent
    while parent is not None:
        if parent.type in ("anonymous_function", "arrow_function"):
            # the function is an argument of the call: argument, arguments, then the call
            call = parent.parent.parent.parent if parent.parent and parent.parent.parent else None
            if call is not None and call.type == "member_call_expression" and _name(call) == "group":
                controller = _chained_controller(call.child_by_field_name("object"))
                if controller is not None:
                    return controller
        parent = parent.parent
    return None


def _chained_controller(chained: Any) -> str | None:
    """``X`` of a ``controller(X::class)`` in a chain of calls (``Route::middleware(…)->controller(…)``)."""
    while chained is not None and chained.type in ("member_call_expression", "scoped_call_expression"):
        if _name(chained) == "controller":
            arguments = chained.child_by_field_name("arguments")
            first = arguments.named_children[0] if arguments and arguments.named_children else None
            access = first.named_children[0] if first and first.named_children else None
            if access is not None and access.type == "class_constant_access_expression":
                return node_text(access.named_children[0]).rpartition("\\")[2]  # ``\\App\\X::class``: ``X``
        chained = chained.child_by_field_name("object" if chained.type == "member_call_expression" else "scope")
    return None


def _name(call: Any) -> str | None:
    name = call.child_by_field_name("name")
    return node_text(name) if name is not None else None


def _strings(node: Any) -> list[Any]:
    """The string contents below ``node`` (an ``only([…])`` call's arguments)."""
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if current.type == "string_content":
            found.append(current)
        stack.extend(current.named_children)
    return found
