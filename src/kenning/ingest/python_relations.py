"""Graph relations of a Python file, read from the ``ast`` tree the chunker already built:
symbols (``defines``), ``imports`` (modules, relative ones resolved), ``calls`` by name with
the module a name was imported from as a resolution hint, and for test files ``tested_by``
(a test that calls or imports a symbol)."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator

from .chunks import Chunk
from .python_call_refs import RESULT, SUPER, CallRecord, call_refs, handed_functions
from .python_classes import ClassHints, bases_refs, receivers, typed_receivers
from .python_imports import Imports
from .python_locals import (
    BINDING_NODES,
    GLOBAL,
    LITERALS,
    MODULE,
    Binding,
    bind,
    bind_parameters,
    module_annotations,
    module_globals,
)
from .relations import GLOBALS, SELF_HINT, Ref, Relations, Symbol
from .test_files import is_test_path

_BUILTINS = frozenset(dir(builtins))
_LEAVES = frozenset(
    {
        ast.Name,
        ast.Constant,
        ast.alias,
        ast.arg,
        ast.Pass,
        ast.Break,
        ast.Continue,
        ast.Load,
        ast.Store,
        ast.Del,
        *ast.operator.__subclasses__(),
        *ast.cmpop.__subclasses__(),
        *ast.unaryop.__subclasses__(),
        *ast.boolop.__subclasses__(),
    }
)
# What the walk never visits: leaves, and the plain values some fields hold.
_NOT_VISITED = _LEAVES | {str, int, bool, type(None)}
# Fields that hold only names, numbers, operators or contexts: nothing to visit below them.
_PLAIN_FIELDS = frozenset(
    {
        "ctx",
        "name",
        "names",
        "id",
        "attr",
        "arg",
        "asname",
        "module",
        "level",
        "type_comment",
        "kind",
        "conversion",
        "is_async",
        "simple",
        "op",
        "ops",
        "kwd_attrs",
        "rest",
    }
)


def _child_fields(node_type: type) -> tuple[str, ...]:
    return tuple(f for f in getattr(node_type, "_fields", ()) if f not in _PLAIN_FIELDS)


def _node_types(base: type = ast.AST) -> Iterator[type]:
    subclasses: list[type] = base.__subclasses__()
    for sub in subclasses:
        yield sub
        yield from _node_types(sub)


# What the walk does at a node of each type: one of these, then visit its child fields.
_VISIT, _CALL, _DEF, _IMPORT, _IMPORT_FROM, _RESTORE, _BIND = range(7)
_ACTIONS = {
    ast.Call: _CALL,
    ast.FunctionDef: _DEF,
    ast.AsyncFunctionDef: _DEF,
    ast.ClassDef: _DEF,
    ast.Import: _IMPORT,
    ast.ImportFrom: _IMPORT_FROM,
    **dict.fromkeys(BINDING_NODES, _BIND),
}
# Every node type -> (action, child fields), looked up once a node; ``tuple``: a scope to restore.
_STEPS: dict[type, tuple[int, tuple[str, ...]]] = {
    kind: (_ACTIONS.get(kind, _VISIT), _child_fields(kind)) for kind in _node_types() if kind not in _NOT_VISITED
}
_STEPS[tuple] = (_RESTORE, ())
# A call is visited by hand: its function (straight to the object of ``a.b.f``), arguments and
# keywords' values (without the ``keyword`` nodes).
_STEPS[ast.Call] = (_CALL, ())
# Parameters (``arg``) are leaves: of a signature only the default values are visited.
_STEPS[ast.arguments] = (_VISIT, ("kw_defaults", "defaults"))
# Nodes passed through without a stop: below them only their ``value`` (an attribute's object,
# an expression statement's expression) may hold a call.
_PASSED = (ast.Attribute, ast.Expr)
# Builtins whose arguments are values, not functions they call (``isinstance(x, kind)``, ``print(name)``).
_NOT_HANDED = frozenset(
    {"isinstance", "issubclass", "super", "getattr", "setattr", "hasattr", "delattr", "type", "print", "len"}
    | {"repr", "str", "id", "callable", "vars", "dir", "bool", "int", "float", "list", "tuple", "set", "dict"}
)


def python_relations(tree: ast.Module, symbols: list, chunks: list[Chunk], path: str, module: str) -> Relations:
    spans = {c.meta.get("symbol"): (c.line_start, c.line_end) for c in chunks if c.meta.get("kind") != "module"}
    found = tuple(
        Symbol(q, kind, *spans.get(q, (node.lineno, node.end_lineno or node.lineno))) for node, q, kind in symbols
    )
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    imports = Imports(package, is_test_path(path))
    scope_of = {id(node): qualname for node, qualname, kind in symbols if kind != "class"}
    bindings: list[Binding] = []
    nested: list[Binding] = []  # the parameters of functions nested in a symbol's
    defined: set[tuple[str, str]] = set()
    imported: set[tuple[str, str]] = set()
    handed: list[tuple[str | None, ast.expr]] = []  # (scope, a name or attribute handed over)
    calls = _walk(tree, scope_of, imports, bindings, nested, defined, imported, handed)
    local = {q.rsplit(".", 1)[-1] for _, q, _ in symbols} | set(imports.names) | set(imports.modules)
    builtin = _BUILTINS - local  # `len(x)` calls the builtin unless the module shadows it
    hints = ClassHints(symbols, imports)
    own = receivers(symbols, hints)
    top = {q for _, q, _ in symbols if "." not in q} | set(imports.names) | set(imports.modules)
    typed = typed_receivers(bindings + nested, own, hints, top, module_annotations(tree))
    hiding = _locals(bindings, defined, imported, symbols, imports.testing)
    local_names = _locals(bindings + nested, defined, imported, symbols, imports.testing)
    functions = {q for _, q, kind in symbols if kind == "function" and "." not in q}
    calls += handed_functions(handed, (functions | imports.relative) - builtin, imports.modules, local_names, hiding)
    refs = imports.refs + call_refs(calls, builtin, imports, own, typed, local_names, hiding, hints.named)
    refs += bases_refs(hints)
    refs += _globals_refs(typed, tree)
    return Relations(module=module, symbols=found, refs=tuple(refs))


def _globals_refs(typed: dict[tuple[str, str], str], tree: ast.Module) -> list[Ref]:
    """A ``GLOBALS`` reference for each global of known class (``typed``) the module's top
    level assigns (``module_globals``)."""
    values = [(name, hint) for (scope, name), hint in typed.items() if scope == MODULE and hint]
    if not values:
        return []
    assigned = module_globals(tree)
    return [
        Ref(GLOBALS, GLOBALS, name, assigned[name], None, hint[len(SELF_HINT) :])
        for name, hint in values
        if name in assigned
    ]


def _locals(
    bindings: list[Binding],
    defined: set[tuple[str, str]],
    imported: set[tuple[str, str]],
    symbols: list,
    testing: bool,
) -> set[tuple[str, str]]:
    """``(scope, name)`` for each name a function binds itself (a parameter, an assignment, a
    loop variable, a nested ``def`` or ``class``; in a nested function too, which shares its
    enclosing function's scope): a plain call of it calls that local, never a project symbol of
    its name. Not a name the function declares ``global`` or imports (``from .testing import
    FlaskClient as cls``: the import says what it is), nor, in a test file, a parameter of a
    test (``def test_x(purge_module)``: a pytest fixture, the function of that name)."""
    found = {(scope, name) for scope, name, cls in bindings if scope != MODULE and "." not in name} | defined
    if not found:
        return found
    found.difference_update((scope, name) for scope, name, cls in bindings if cls is GLOBAL)
    found.difference_update(imported)
    if testing:
        for node, qualname, kind in symbols:
            if kind != "class" and node.name.startswith("test"):
                args = node.args
                found.difference_update((qualname, a.arg) for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
    return found


_LITERAL_RECEIVERS = frozenset({ast.Constant, *LITERALS})  # a method of a builtin class: no reference


def _walk(
    tree: ast.Module,
    scope_of: dict[int, str],
    imports: Imports,
    bindings: list[Binding],
    nested: list[Binding],
    defined: set[tuple[str, str]],
    imported: set[tuple[str, str]],
    handed: list[tuple[str | None, ast.expr]],
) -> list[CallRecord]:
    """One depth-first pass over the tree: its imports (into ``imports``; ``(scope, name)`` for
    each name a function imports, into ``imported``), the names functions bind (into
    ``bindings``, ``python_locals``; the parameters of a function nested in one, which has no
    symbol and shares its scope, into ``nested``; a ``def`` or ``class`` in a function, into
    ``defined``), and its calls with the symbol they sit in (``scope_of``: a function's or
    method's ``id`` -> its qualname); the names and ``module.name`` attributes handed over as a
    call's arguments (into ``handed``, as calls: ``path("about/", views.about)``), not a builtin's
    (``isinstance(x, Store)``)."""
    calls: list[CallRecord] = []
    # A (None, scope) entry below a symbol's subtree restores the enclosing scope after it.
    stack: list = [tree]
    push, pop, record, hand_over = stack.append, stack.pop, calls.append, handed.append
    not_handed = _NOT_HANDED
    scope: str | None = None
    steps, not_visited = _STEPS, _NOT_VISITED
    attribute, expression = _PASSED
    name_node, call_node, class_node = ast.Name, ast.Call, ast.ClassDef
    literals = _LITERAL_RECEIVERS
    named: str | None  # the name an attribute call is made on, when written as one
    while stack:
        node = pop()
        if node.__class__ is attribute or node.__class__ is expression:
            # ``a.b.c`` and ``f(x)`` as a statement: straight to what they hold (``self.x``: nothing).
            node = node.value
            while node.__class__ is attribute:
                node = node.value
            if node.__class__ in not_visited:
                continue
        action, fields = steps[node.__class__]
        if action is not _VISIT:
            if action is _CALL:
                func = node.func
                hand = func.__class__ is not name_node or func.id not in not_handed
                if func.__class__ is name_node:
                    record((node.lineno, node.col_offset, scope, func.id, False, None))
                elif func.__class__ is attribute:
                    value = func.value
                    if value.__class__ is name_node:
                        named = value.id
                    elif value.__class__ is attribute:
                        named = _dotted(value)  # ``os.path`` in ``os.path.join()``, ``a.b.c`` in ``a.b.c.d()``
                    elif value.__class__ is call_node:
                        called = value.func
                        if called.__class__ is name_node:
                            named = SUPER if called.id == "super" else RESULT + called.id
                        else:
                            named = RESULT + ((_dotted(called) or "") if called.__class__ is attribute else "")
                    else:
                        named = None
                    if named is not None or value.__class__ not in literals:  # not ``", ".join(x)``
                        record((node.lineno, node.col_offset, scope, func.attr, True, named))
                while func.__class__ is attribute:
                    func = func.value
                if func.__class__ not in not_visited:
                    push(func)
                for arg in node.args:
                    kind = arg.__class__
                    if kind not in not_visited:
                        push(arg)
                    if hand and (kind is name_node or kind is attribute):
                        hand_over((scope, arg))
                for keyword in node.keywords:
                    arg = keyword.value
                    kind = arg.__class__
                    if kind not in not_visited:
                        push(arg)
                    if hand and (kind is name_node or kind is attribute):
                        hand_over((scope, arg))
                continue
            if action is _RESTORE:
                scope = node[1]
                continue
            elif action is _BIND:
                bind(bindings, node, MODULE if scope is None else scope)
            elif action is _DEF:
                inner = scope_of.get(id(node), scope)
                if scope is not None and (inner == scope or node.__class__ is class_node):
                    defined.add((scope, node.name))  # a def or class in a function: a local name
                if inner is not None and node.__class__ is not class_node:
                    # a nested function (no symbol of its own): its parameters hide the enclosing ones
                    bind_parameters(nested if inner == scope else bindings, node.args, inner, typed=inner != scope)
                if inner != scope:
                    push((None, scope))
                    scope = inner
            elif action is _IMPORT:
                imports.add_import(node)
                if scope is not None:
                    imported.update((scope, alias.asname or alias.name.split(".")[0]) for alias in node.names)
                continue
            else:  # _IMPORT_FROM
                imports.add_import_from(node)
                if scope is not None:
                    imported.update((scope, alias.asname or alias.name) for alias in node.names)
                continue
        for field in fields:
            value = getattr(node, field)
            if value.__class__ is list:
                for item in value:
                    if item.__class__ not in not_visited:
                        push(item)
            elif value.__class__ not in not_visited:
                push(value)
    return calls


def _dotted(node: ast.Attribute) -> str | None:
    """``a.b.c`` as written, for an attribute taken from a name through attributes alone; else
    None (``f().g``, ``a[0].b``)."""
    parts = [node.attr]
    value = node.value
    while value.__class__ is ast.Attribute:
        parts.append(value.attr)
        value = value.value
    if value.__class__ is not ast.Name:
        return None
    parts.append(value.id)
    return ".".join(reversed(parts))
