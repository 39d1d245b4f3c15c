"""Elixir's definitions and imports, read from tree-sitter-elixir's tree (``tree_defs``, ``tree_imports``).

Elixir's grammar has no definition nodes: ``defmodule``, ``def`` and ``alias`` are calls of macros
(``(call target: (identifier "def") (arguments (call target: (identifier "get_user")) …))``), so
they are read by the macro's name here:
- ``defmodule MyApp.Accounts`` is a module (a nested ``defmodule Inner`` is ``MyApp.Accounts.Inner``, as
  Elixir names it), ``defprotocol`` an interface, ``defimpl Printable, for: User`` the module
  ``Printable.User``; their ``do`` blocks hold their members;
- ``def``, ``defp``, ``defmacro``, ``defguard``, ``defdelegate`` (and their private forms, Nx's
  ``defn``) are functions, named by their head (``def get_user!(id)``, ``def list_users do``, ``def
  f(x) when is_map(x)``); a function's clauses written one after the other are one definition;
- ExUnit's ``test "creates a user" do`` (StreamData's ``property``) is a function (``test creates a
  user``, its ``describe``'s name before it: Elixir's own name for it), a ``describe`` block transparent;
- ``alias``, ``import``, ``use`` and ``require`` of ``MyApp.Accounts`` (or ``MyApp.Accounts.{User,
  Token}``) import the file ending with ``my_app/accounts`` (Mix's layout: ``lib/my_app/accounts.ex``);
  a module of Elixir's own (``GenServer``, ``Logger``) none.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from .grammars import node_text
from .relations import Ref

SUFFIXES = (".ex", ".exs")
_MODULES = {"defmodule": "module", "defprotocol": "interface", "defimpl": "module"}
_FUNCTIONS = frozenset(
    {"def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate", "defn", "defnp"}
)
_IMPORTING = frozenset({"alias", "import", "use", "require"})
_TESTS = frozenset({"test", "property"})  # ExUnit's, and StreamData's property tests
# Modules Elixir and Erlang's runtime give (``use GenServer``, ``require Logger``): no file of a project.
STANDARD = frozenset(
    {"Kernel", "Enum", "Map", "MapSet", "List", "Keyword", "String", "Integer", "Float", "Atom", "Tuple"}
    | {"IO", "File", "Path", "System", "Process", "Node", "Port", "Code", "Macro", "Module", "Application"}
    | {"Logger", "GenServer", "Supervisor", "DynamicSupervisor", "Agent", "Task", "Registry", "Stream"}
    | {"Regex", "URI", "Base", "Bitwise", "Date", "DateTime", "NaiveDateTime", "Time", "Calendar", "Access"}
    | {"Exception", "Inspect", "Protocol", "Range", "Record", "Version", "Function", "ExUnit", "Mix", "EEx"}
)


def definition(node: Any) -> tuple[str, str, Any] | None:
    """``(name, kind, body)`` of the definition a ``call`` node is (``body``: the ``do`` block whose
    calls are its members, a module's; None for a function), else None."""
    target = node.child_by_field_name("target")
    if target is None or target.type != "identifier":
        return None
    macro = node_text(target)
    arguments = next((c for c in node.named_children if c.type == "arguments"), None)
    if arguments is None or not arguments.named_children:
        return None
    head = arguments.named_children[0]
    if macro in _MODULES:
        if head.type != "alias":
            return None
        name = node_text(head)
        if macro == "defimpl":  # ``defimpl Printable, for: User``: Elixir's ``Printable.User``
            name = ".".join([name, *(node_text(a) for a in keyword_values(arguments, "for") if a.type == "alias")])
        body = next((c for c in node.named_children if c.type == "do_block"), None)
        return name, _MODULES[macro], body
    if macro == "describe" and head.type == "string":  # ExUnit's group: its tests are the module's
        return "", "group", next((c for c in node.named_children if c.type == "do_block"), None)
    if macro in _TESTS and head.type == "string":  # ``test "creates a user" do``: a function of the test module
        return f"{macro} {' '.join(filter(None, (_describe(node), _string(head))))}".replace(".", "_"), "function", None
    if macro in _FUNCTIONS:
        if head.type == "binary_operator":  # ``def f(x) when is_map(x)``: the head before ``when``
            head = head.child_by_field_name("left") or head
        if head.type == "call":
            head = head.child_by_field_name("target") or head
        return (node_text(head), "function", None) if head.type == "identifier" else None
    return None


def first_block(body: Any) -> int:
    """The line (1-based) of the first statement of a module's body that holds a ``do`` block and
    defines nothing (a router's ``pipeline`` and ``scope``, a schema's ``schema "users" do``); 0 when
    there is none."""
    for node in body.named_children:
        if node.type == "call" and definition(node) is None and any(c.type == "do_block" for c in node.children):
            return node.start_point[0] + 1
    return 0


def _string(node: Any) -> str:
    return "".join(node_text(c) for c in node.named_children if c.type == "quoted_content")


def _describe(test: Any) -> str:
    """The name of the ``describe`` block a test is written in ("" outside one)."""
    block = test.parent
    group = block.parent if block is not None and block.type == "do_block" else None
    if group is None or group.type != "call" or (found := definition(group)) is None or found[1] != "group":
        return ""
    arguments = next(c for c in group.named_children if c.type == "arguments")
    return _string(arguments.named_children[0])


def keyword_values(arguments: Any, key: str) -> list[Any]:
    """The values of ``key:`` in a call's keyword arguments (``for: User``)."""
    values = []
    for keywords in (c for c in arguments.named_children if c.type == "keywords"):
        for pair in keywords.named_children:
            name, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
            if name is not None and value is not None and node_text(name).rstrip(": ") == key:
                values.append(value)
    return values


def is_attribute(node: Any) -> bool:
    """Whether ``node`` is a module attribute (``@doc "…"``, ``@spec f(t) :: t``, ``@impl true``),
    which belongs to the definition below it, as a doc comment does."""
    return node.type == "unary_operator" and bool(node.children) and node.children[0].type == "@"


def imports(node: Any, suffix: str) -> list[Ref]:
    """The ``imports`` references of an ``alias``, ``import``, ``use`` or ``require``: ``suffix``,
    the kind of target (a file ending with the module's path)."""
    target = node.child_by_field_name("target") if node.type == "call" else None
    if target is None or node_text(target) not in _IMPORTING:
        return []
    arguments = next((c for c in node.named_children if c.type == "arguments"), None)
    if arguments is None or not arguments.named_children:
        return []
    aliased = _aliased_before(node) if node_text(target) != "alias" else {}
    found = []
    for module in _named(arguments):
        first, dot, rest = module.partition(".")
        if first not in STANDARD:  # ``import Helpers`` after ``alias Shop.Helpers``: Shop.Helpers
            found.append(
                Ref("imports", suffix, module_path(aliased.get(first, first) + dot + rest), node.start_point[0] + 1)
            )
    return found


def _aliased_before(node: Any) -> dict[str, str]:
    """The names the ``alias`` statements written before ``node`` in its module's body give modules."""
    found: dict[str, str] = {}
    for sibling in node.parent.named_children if node.parent is not None else ():
        if sibling.start_byte >= node.start_byte:
            break
        target = sibling.child_by_field_name("target") if sibling.type == "call" else None
        arguments = next((c for c in sibling.named_children if c.type == "arguments"), None)
        if target is not None and node_text(target) == "alias" and arguments is not None and arguments.named_children:
            found.update(_alias_names(arguments))
    return found


def _named(arguments: Any) -> list[str]:
    """The modules an ``alias``, ``import``, ``use`` or ``require`` names: one, or those of
    ``MyApp.Accounts.{User, Token}``."""
    head = arguments.named_children[0]
    if head.type == "alias":
        return [node_text(head)]
    if head.type == "dot" and (tuple_ := head.child_by_field_name("right")) is not None and tuple_.type == "tuple":
        left = head.child_by_field_name("left")
        prefix = node_text(left) if left is not None else ""
        return [f"{prefix}.{node_text(a)}" for a in tuple_.named_children if a.type == "alias"]
    return []


def aliases(root: Any) -> dict[str, str]:
    """The names a file's ``alias`` statements give modules, in its modules' bodies (not in
    functions): ``alias Shop.Accounts.Token`` and ``alias Shop.Accounts.{User, Token}`` name
    ``Token`` ``Shop.Accounts.Token``; ``alias Shop.Repo, as: Store`` names ``Store``."""
    found: dict[str, str] = {}
    for _, macro, arguments in _statements(root):
        if macro == "alias":
            found.update(_alias_names(arguments))
    return found


def _alias_names(arguments: Any) -> dict[str, str]:
    """The names one ``alias`` statement gives modules (``as:`` renaming one)."""
    modules = _named(arguments)
    renamed = [node_text(v) for v in keyword_values(arguments, "as") if v.type == "alias"]
    return {renamed[0] if renamed and len(modules) == 1 else module.rpartition(".")[2]: module for module in modules}


def imported_modules(root: Any, aliased: dict[str, str]) -> dict[str, tuple[int, list[str]]]:
    """Each module's ``import``s and ``use``s of other modules than Elixir's, in full (``aliased``:
    ``aliases``), by the module's qualified name: (the first one's line, the modules); and a module's
    ``quote`` blocks' (``def controller do quote do import MyAppWeb.Gettext …``, ExUnit's ``using do``),
    what a module that ``use``s it gets. A bare call in the module reaches an imported or used
    module's function as one of its own, the imports of a used module's ``quote`` blocks followed
    (``tree_calls``, ``graph.bases``: as a class's bases)."""
    found: dict[str, tuple[int, list[str]]] = {}
    statements = [(m, macro, a) for m, macro, a in _statements(root) if macro in _BRINGING and m]
    if b"quote" in root.text:
        statements += _quoted(root)
    for module, _, arguments in statements:
        for name in _named(arguments):
            first, dot, rest = name.partition(".")
            full = aliased.get(first, first) + dot + rest
            if first not in STANDARD:
                line, names = found.setdefault(module, (arguments.start_point[0] + 1, []))
                if full not in names:
                    names.append(full)
    return found


_BRINGING = frozenset({"import", "use"})  # what gives a module functions to call bare


def _quoted(root: Any) -> list[tuple[str, str, Any]]:
    """(qualified name of the module, macro, its arguments) of each ``import`` or ``use`` written in
    a ``quote`` block of a module (in a function or a macro: ``__using__``, ExUnit's ``using``)."""
    found = []
    stack: list[tuple[str, Any]] = [("", root)]
    while stack:
        module, node = stack.pop()
        if node.type == "call":
            defined = definition(node)
            if defined is not None and defined[1] in ("module", "interface") and defined[2] is not None:
                stack.append((f"{module}.{defined[0]}".strip("."), defined[2]))
                continue
            target = node.child_by_field_name("target")
            if module and target is not None and node_text(target) == "quote":
                block = next((c for c in node.named_children if c.type == "do_block"), None)
                for statement in block.named_children if block is not None else ():
                    macro = statement.child_by_field_name("target") if statement.type == "call" else None
                    arguments = next((c for c in statement.named_children if c.type == "arguments"), None)
                    if macro is not None and node_text(macro) in _BRINGING and arguments and arguments.named_children:
                        found.append((module, node_text(macro), arguments))
                continue
        stack.extend((module, child) for child in node.named_children)
    return found


def _statements(root: Any) -> Iterator[tuple[str, str, Any]]:
    """(qualified name of the module, macro, its arguments) of each call with arguments written in a
    module's body (not in a function), a nested module's too; the file's own top level with module ""."""
    bodies: list[tuple[str, Any]] = [("", root)]
    while bodies:
        module, body = bodies.pop()
        for node in body.named_children:
            if node.type != "call":
                continue
            defined = definition(node)
            if defined is not None and defined[2] is not None:
                name = defined[0] if defined[1] != "group" else ""
                bodies.append((f"{module}.{name}".strip(".") if name else module, defined[2]))
                continue
            target = node.child_by_field_name("target")
            arguments = next((c for c in node.named_children if c.type == "arguments"), None)
            if target is not None and arguments is not None and arguments.named_children:
                yield module, node_text(target), arguments


def module_path(module: str) -> str:
    """The path Mix keeps a module at, under ``lib/``: each part in snake case
    (``MyAppWeb.UserController`` -> ``my_app_web/user_controller``, ``HTTPClient`` -> ``http_client``)."""
    return "/".join(_snake(part) for part in module.split("."))


def _snake(part: str) -> str:
    return _LOWER_UPPER.sub(r"\1_\2", _ACRONYM.sub(r"\1_\2", part)).lower()


_ACRONYM = re.compile(r"([A-Z]+)([A-Z][a-z])")
_LOWER_UPPER = re.compile(r"([a-z\d])([A-Z])")
