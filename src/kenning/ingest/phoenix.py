"""Phoenix, the Elixir web framework, as the graph reads it (``declared_calls``): a router's routes, each a
call of its controller's action, and the function components a HEEx template shows (``<.button>``,
``<Modal.modal>``), in a ``~H`` sigil or a ``.heex`` file."""

from __future__ import annotations

import re
from typing import Any

from .elixir_source import keyword_values
from .grammars import node_text
from .relations import Ref

# Phoenix's router: the verbs whose route names a controller and its action, and a LiveView's route.
_ROUTES = frozenset({"get", "post", "put", "patch", "delete", "options", "head", "live"})


def routes(root: Any) -> list[tuple[Any, str, str]]:
    """(the route, the function it calls, its module) of each route a Phoenix router declares:
    ``get "/users/:id", UserController, :show`` in ``scope "/", ShopWeb do`` calls
    ``ShopWeb.UserController.show``; ``live "/users", UserLive.Index`` a LiveView's ``mount``. A scope's
    alias (``scope "/api", API do``, ``scope "/", alias: Admin do``) prefixes those of the routes in it."""
    found = []
    bodies: list[tuple[Any, str]] = [(root, "")]
    while bodies:
        body, prefix = bodies.pop()
        for node in body.named_children:
            target = node.child_by_field_name("target") if node.type == "call" else None
            if target is None or target.type != "identifier":
                continue
            macro = node_text(target)
            arguments = next((c for c in node.named_children if c.type == "arguments"), None)
            block = next((c for c in node.named_children if c.type == "do_block"), None)
            if block is not None and macro in ("defmodule", "scope"):
                bodies.append((block, _scope_alias(prefix, arguments) if macro == "scope" else ""))
                continue
            args = arguments.named_children if macro in _ROUTES and arguments is not None else []
            if len(args) < 2 or args[0].type != "string" or args[1].type != "alias":
                continue
            module = f"{prefix}.{node_text(args[1])}".lstrip(".")
            action = "mount" if macro == "live" else node_text(args[2]).lstrip(":") if len(args) > 2 else ""
            if action.isidentifier():
                found.append((node, action, module))
    return found


def _scope_alias(prefix: str, arguments: Any) -> str:
    """The alias the routes of a ``scope`` block take: the outer one's, then the scope's own (its
    second argument, or its ``alias:`` option; ``alias: false`` none)."""
    if arguments is None:
        return prefix
    given = [c for c in arguments.named_children[1:2] if c.type == "alias"] or keyword_values(arguments, "alias")
    if not given:
        return prefix
    if given[0].type != "alias":  # ``alias: false``
        return ""
    return f"{prefix}.{node_text(given[0])}".lstrip(".")


# Function components a HEEx template shows (``<.button kind="x">``, ``<HexpmWeb.Components.Modal.modal>``).
_COMPONENT_TAG = re.compile(rb"<(?:\.([a-z_]\w*)|((?:[A-Z]\w*\.)+)([a-z_]\w*))")
# Phoenix.Component's own, which ``use Phoenix.Component`` imports into every template's module.
PHOENIX_COMPONENTS = frozenset(
    {"link", "form", "inputs_for", "live_component", "live_file_input", "live_img_preview", "live_title"}
    | {"dynamic_tag", "focus_wrap", "intersperse", "async_result", "portal"}
)


def component_tags(template: Any) -> list[tuple[int, int, str, str]]:
    """(byte, line, function, module: "" for ``<.button>``) of each function component a HEEx
    template (a ``~H`` sigil's content) shows, Phoenix.Component's own left out."""
    return _tags(template.text, template.start_point[0] + 1, template.start_byte)


def heex_calls(text: str) -> list[Ref]:
    """The ``calls`` references of a ``.heex`` template's function components, from the file (the
    module that embeds it is not in it): ``<.button>`` a plain call of ``button``, ``<Modal.modal>``
    one through the module as the template spells it."""
    return [
        Ref("calls", "symbol", name, line, None, module or None, bool(module), False, "extracted")
        for _, line, name, module in _tags(text.encode("utf-8", "surrogatepass"), 1, 0)
    ]


def _tags(text: bytes, first: int, start: int) -> list[tuple[int, int, str, str]]:
    found = []
    for match in _COMPONENT_TAG.finditer(text):
        local, module, remote = match.group(1), match.group(2), match.group(3)
        name = (local or remote).decode()
        if local and name in PHOENIX_COMPONENTS:
            continue
        line = first + text.count(b"\n", 0, match.start())
        found.append((start + match.start(), line, name, module.decode()[:-1] if module else ""))
    return found
