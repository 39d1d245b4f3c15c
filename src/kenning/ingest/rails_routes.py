"""The actions a Rails app's routes name (``config/routes.rb``), each a call of its controller's
method (``tree_calls``), as Phoenix's routes are (``phoenix.routes``):

- ``get "/login" => "login#index"``, ``get "about", to: "home#about"``, ``root to: "home#index"``:
  ``LoginController.index``, ``HomeController.about``;
- ``resources :stories, except: [:index]``: the resource's actions (``index``, ``show``, ``new``,
  ``create``, ``edit``, ``update``, ``destroy``) its ``only:`` or ``except:`` leaves, of
  ``StoriesController`` (``controller: "posts"``: ``PostsController``'s); a singular ``resource
  :profile`` those but ``index``, of ``ProfilesController``; a route in its block named by a word
  alone (``post "upvote"``, in ``member do`` too) that controller's action of that name;
- ``namespace :mod do`` and ``scope module: "admin" do`` put their controllers in that module
  (``Mod.NotesController``, as the class ``Mod::NotesController`` is named).
"""

from __future__ import annotations

from typing import Any

from .grammars import node_text

_VERBS = frozenset({"get", "post", "put", "patch", "delete", "match", "root"})
_RESOURCE_ACTIONS = ("index", "show", "new", "create", "edit", "update", "destroy")
_NESTING = frozenset({"member", "collection", "constraints", "scope", "concern", "defaults"})


def is_routes_file(path: str) -> bool:
    """``config/routes.rb``, or a file it draws (``config/routes/admin.rb``)."""
    return path.endswith("config/routes.rb") or "config/routes/" in path and path.endswith(".rb")


def routes(root: Any) -> list[tuple[Any, str, str]]:
    """(the route, the action it calls, its controller's qualified name) of each route of a routes file."""
    found: list[tuple[Any, str, str]] = []
    _walk(root, "", None, found)
    return found


def _walk(node: Any, module: str, resource: str | None, found: list[tuple[Any, str, str]]) -> None:
    """``module``: the controllers' module (``mod/``); ``resource``: the controller of the
    ``resources`` block the routes are in."""
    for child in node.named_children:
        if child.type != "call":
            if child.type in ("body_statement", "do_block", "block", "block_body"):
                _walk(child, module, resource, found)
            continue
        method = child.child_by_field_name("method")
        name = node_text(method) if method is not None else ""
        arguments = child.child_by_field_name("arguments")
        block = child.child_by_field_name("block")
        args = arguments.named_children if arguments is not None else []
        if name == "draw" and block is not None:
            _walk(block, module, resource, found)
        elif name == "namespace" and block is not None and args and args[0].type == "simple_symbol":
            _walk(block, f"{module}{node_text(args[0]).lstrip(':')}/", None, found)
        elif name in _NESTING and block is not None:
            inner = _option(args, "module")
            _walk(block, f"{module}{_text(inner)}/" if inner is not None else module, resource, found)
        elif name in ("resources", "resource") and args and args[0].type == "simple_symbol":
            named = node_text(args[0]).lstrip(":")  # ``resource :profile``: one, its controller plural
            given = _option(args, "controller")
            controller = module + (
                _text(given) if given is not None else named if name == "resources" else _plural(named)
            )
            found += [(child, action, _class(controller)) for action in _actions(args, singular=name == "resource")]
            if block is not None:
                _walk(block, module, controller, found)
        elif name in _VERBS:
            target = _target(args)
            if target is not None:
                controller, _, action = target.partition("#")
                found.append((child, action, _class(module + controller)))
            elif resource is not None and args and args[0].type == "string" and _text(args[0]).isidentifier():
                found.append((child, _text(args[0]), _class(resource)))  # ``post "upvote"``


def _target(args: list[Any]) -> str | None:
    """The ``controller#action`` a route names (``"/login" => "login#index"``, ``to: "home#about"``)."""
    for arg in args:
        value = arg.child_by_field_name("value") if arg.type == "pair" else None
        if value is not None and value.type == "string":
            text = _text(value)
            controller, hash_, action = text.partition("#")
            if hash_ and controller and action.rstrip("!?").isidentifier():
                return text
    return None


def _actions(args: list[Any], *, singular: bool = False) -> list[str]:
    """A ``resources`` route's actions (a singular ``resource``'s: no ``index``), ``only:`` or
    ``except:`` applied."""
    actions = _RESOURCE_ACTIONS[1:] if singular else _RESOURCE_ACTIONS
    only, excepted = _option(args, "only"), _option(args, "except")
    if only is not None:
        named = _symbols(only)
        return [action for action in actions if action in named] + sorted(named - set(actions))
    left_out = _symbols(excepted) if excepted is not None else set()
    return [action for action in actions if action not in left_out]


def _plural(word: str) -> str:
    """The controller a singular ``resource`` routes to is named in the plural (``profile`` ->
    ``profiles``, ``category`` -> ``categories``, ``address`` -> ``addresses``), as Rails' common rules do."""
    if word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        return word[:-1] + "ies"
    return word + "es" if word.endswith(("s", "x", "z", "ch", "sh")) else word + "s"


def _option(args: list[Any], key: str) -> Any:
    """The value of the ``key:`` option among a call's arguments, else None."""
    for arg in args:
        name = arg.child_by_field_name("key") if arg.type == "pair" else None
        if name is not None and node_text(name).strip(":\"'") == key:
            return arg.child_by_field_name("value")
    return None


def _symbols(node: Any) -> set[str]:
    """The names a symbol, a symbol array (``%i[new edit]``) or an array of symbols or strings holds."""
    if node.type in ("simple_symbol", "string"):
        return {_text(node)}
    return {_text(item) for item in node.named_children if item.type in ("simple_symbol", "bare_symbol", "string")}


def _text(node: Any) -> str:
    return node_text(node).lstrip(":").strip("\"'")


def _class(controller: str) -> str:
    """``mod/mail_messages`` -> ``Mod.MailMessagesController``."""
    parts = controller.split("/")
    camel = [part.replace("_", " ").title().replace(" ", "") for part in parts]
    return ".".join([*camel[:-1], camel[-1] + "Controller"])
