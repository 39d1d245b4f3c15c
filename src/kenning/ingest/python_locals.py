"""The names a function binds, as the walk meets them: a local name or an attribute of one
(``x``, ``self.conn``) and the class it is bound to an instance of, when the code names one —
``x = Client(...)``, ``def f(x: Client)``, ``x: Client = ...``, ``self.conn = Connection(...)``,
or a literal's builtin class (``x = {}``: ``dict``; ``x: list[Client] = []``: ``list``) —
else None: any other value, a loop or ``with`` variable, an untyped parameter. What the
module's top level (and a class body there) binds has the scope ``MODULE``; ``global x`` in a
function re-binds the module's ``x`` too, and is kept as ``GLOBAL`` in that function (its ``x``
is the module's). ``python_classes.typed_receivers`` keeps a name bound one way only, or the
class a top-level annotation declares (``module_annotations``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

# (scope, name or "name.attr" as written, dotted name of the class, or None: typed otherwise)
Binding = tuple[str, str, str | None]
MODULE = ""  # the scope of a module's globals (no symbol's qualname is empty)
GLOBAL = "global"  # the "class" of a name a function declares ``global``: a keyword, no class's name

# The nodes that bind names; the walk hands each to ``bind`` (inside a function).
BINDING_NODES = (
    ast.Assign,
    ast.AnnAssign,
    ast.AugAssign,
    ast.For,
    ast.AsyncFor,
    ast.comprehension,
    ast.withitem,
    ast.NamedExpr,
    ast.ExceptHandler,
    ast.Global,
    ast.Nonlocal,
    ast.Lambda,
)
_TRY = (ast.Try, ast.TryStar)
_UNTYPED_TARGET = (ast.AugAssign, ast.For, ast.AsyncFor, ast.comprehension, ast.NamedExpr)
# The builtin class of a literal's value: a method called on it (``", ".join(x)``, ``{}.get(k)``)
# is that class's, never a project's ``join`` or ``get``.
LITERALS: dict[type, str] = {
    ast.JoinedStr: "str",
    ast.List: "list",
    ast.ListComp: "list",
    ast.Tuple: "tuple",
    ast.Dict: "dict",
    ast.DictComp: "dict",
    ast.Set: "set",
    ast.SetComp: "set",
    ast.GeneratorExp: "generator",
}
# A generic annotation of a builtin container (``dict[str, Client]``, ``typing.List[int]``): the container.
_CONTAINERS = {
    **{name: name for name in ("dict", "list", "set", "frozenset", "tuple")},
    **{f"{prefix}{name.capitalize()}": name for prefix in ("", "typing.") for name in ("dict", "list", "set", "tuple")},
    **{f"{prefix}FrozenSet": "frozenset" for prefix in ("", "typing.")},
}


def bind(found: list[Binding], node: ast.AST, scope: str) -> None:
    """What ``node`` (one of ``BINDING_NODES``) binds in ``scope``, added to ``found``."""
    if isinstance(node, ast.Assign):
        cls = dotted(node.value.func) if isinstance(node.value, ast.Call) else literal_class(node.value)
        for target in node.targets:
            _target(found, target, scope, cls)
    elif isinstance(node, ast.AnnAssign):
        _target(found, node.target, scope, type_name(node.annotation))
    elif isinstance(node, _UNTYPED_TARGET):
        _target(found, node.target, scope, None)
    elif isinstance(node, ast.withitem):
        if node.optional_vars is not None:
            _target(found, node.optional_vars, scope, None)
    elif isinstance(node, ast.ExceptHandler):
        if node.name:
            found.append((scope, node.name, None))
    elif isinstance(node, ast.Lambda):
        bind_parameters(found, node.args, scope, typed=False)
    elif isinstance(node, ast.Nonlocal):  # bound in the enclosing function
        found.extend((scope, name, None) for name in node.names)
    elif isinstance(node, ast.Global):  # the module's name, which the function may re-bind
        found.extend((scope, name, GLOBAL) for name in node.names)
        found.extend((MODULE, name, None) for name in node.names)


def module_annotations(tree: ast.Module) -> dict[str, str | None]:
    """The class each global annotated at the module's top level declares (``MAP: dict[str, int]
    = {}``: ``dict``; ``client: Client | None = None``: ``Client``), read from the top level and
    the ``if``/``try``/``with`` blocks there, never a class body or a function: the declared type
    of the name wherever the module binds it, as a type checker holds every later assignment to
    it. None for an annotation that names no class, or names two."""
    found: dict[str, str | None] = {}
    for node in _top_level(tree):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            cls = type_name(node.annotation)
            if found.setdefault(node.target.id, cls) != cls:
                found[node.target.id] = None
    return found


def module_globals(tree: ast.Module) -> dict[str, int]:
    """The names the module's top level (and the ``if``/``try``/``with`` blocks there) assigns,
    each with the line of its first assignment: its globals, not a class body's attributes, which
    ``bind`` gives the scope ``MODULE`` too."""
    found: dict[str, int] = {}
    for node in _top_level(tree):
        if isinstance(node, ast.Assign):
            names = [target.id for target in node.targets if isinstance(target, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names = [node.target.id]
        else:
            continue
        for name in names:
            found[name] = min(found.get(name, node.lineno), node.lineno)
    return found


def _top_level(tree: ast.Module) -> Iterator[ast.stmt]:
    """The module's top-level statements, those of its ``if``/``try``/``with`` blocks included."""
    statements = list(tree.body)
    while statements:
        node = statements.pop()
        yield node
        if isinstance(node, (ast.If, ast.With, ast.AsyncWith)):
            statements.extend(node.body)
            statements.extend(getattr(node, "orelse", ()))
        elif isinstance(node, _TRY):
            statements.extend((*node.body, *node.orelse, *node.finalbody))
            statements.extend(item for handler in node.handlers for item in handler.body)


def bind_parameters(found: list[Binding], args: ast.arguments, scope: str, *, typed: bool) -> None:
    """A function's parameters, each with the class its annotation names (``typed``), else None."""
    for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
        found.append((scope, arg.arg, type_name(arg.annotation) if typed and arg.annotation is not None else None))
    for rest in (args.vararg, args.kwarg):
        if rest is not None:
            found.append((scope, rest.arg, None))


def _target(found: list[Binding], target: ast.expr, scope: str, cls: str | None) -> None:
    if isinstance(target, ast.Name):
        found.append((scope, target.id, cls))
    elif isinstance(target, ast.Attribute):
        if isinstance(target.value, ast.Name):
            found.append((scope, f"{target.value.id}.{target.attr}", cls))
    elif isinstance(target, (ast.Tuple, ast.List)):
        for item in target.elts:
            _target(found, item, scope, None)
    elif isinstance(target, ast.Starred):
        _target(found, target.value, scope, None)


def dotted(node: ast.expr) -> str | None:
    """``Client`` or ``models.Manager`` as written; None for anything else (``f()()``, ``a[0]``)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def literal_class(node: ast.expr) -> str | None:
    """The builtin class of a literal (``"a"``: ``str``, ``{}``: ``dict``, ``[x for x in y]``:
    ``list``); None for anything else (``None``, ``...``: no method is called on them)."""
    if isinstance(node, ast.Constant):
        value = node.value
        return type(value).__name__ if value is not None and value is not ... else None
    return LITERALS.get(node.__class__)


def type_name(node: ast.expr) -> str | None:
    """The class an annotation names: ``Client``, ``http.Client``, ``"Client"``, ``Client |
    None``, ``Optional[Client]``, the container of a builtin generic (``list[Client]``: ``list``,
    ``typing.Dict[str, int]``: ``dict``); None for anything else (``A | B``, ``Sequence[A]``)."""
    if isinstance(node, ast.Constant):
        text = node.value
        if isinstance(text, str) and all(part.isidentifier() for part in text.split(".")):
            return text
        return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        if _is_none(node.right):
            return type_name(node.left)
        return type_name(node.right) if _is_none(node.left) else None
    if isinstance(node, ast.Subscript):
        generic = dotted(node.value)
        if generic in ("Optional", "typing.Optional"):
            return type_name(node.slice)
        return _CONTAINERS.get(generic or "")
    return dotted(node)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None
