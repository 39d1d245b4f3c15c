"""Graph relations of a Python file, read from the ``ast`` tree the chunker already built:
symbols (``defines``), ``imports`` (modules, relative ones resolved), ``calls`` by name with
the module a name was imported from as a resolution hint, and for test files ``tested_by``
(a test that calls or imports a symbol)."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Iterator
from operator import itemgetter

from .chunks import Chunk
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
from .relations import GLOBALS, SELF_HINT, Ref, Relations, Symbol, add_call
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
    calls += _handed_functions(handed, (functions | imports.relative) - builtin, imports.modules, local_names, hiding)
    refs = imports.refs + _call_refs(calls, builtin, imports, own, typed, local_names, hiding, hints.named)
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


_SUPER = "super()"  # what ``super().save()`` is called on, as a CallRecord names it
# What a call's result is called on (``Client(x).send()``, ``f().g()``): ``_RESULT`` and the name
# called (``()Client``, ``()http.Client``, ``()f``; alone when the callee is no dotted name, ``f()().g()``):
# an object of that class when the name is one (``ClassHints.named``), else a result of a type unsaid.
_RESULT = "()"
# A call of a name or an attribute, as the walk meets it (the node's fields read while the node
# is at hand, not again after the sort): line, column, scope, name called, whether an attribute,
# and the name the attribute is taken from (``os`` in ``os.path.join()``; ``_SUPER`` for
# ``super().save()``; ``()f`` for ``f().g()`` (``_RESULT``); ``self.conn`` for ``self.conn.close()``,
# ``os.path`` for ``os.path.join()``; None for ``x[0].g()``). Calls of anything else (``f()()``)
# give no reference and are not recorded.
CallRecord = tuple[int, int, str | None, str, bool, str | None]
_POSITION = itemgetter(0, 1)
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
                            named = _SUPER if called.id == "super" else _RESULT + called.id
                        else:
                            named = _RESULT + ((_dotted(called) or "") if called.__class__ is attribute else "")
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


def _call_refs(
    calls: list[CallRecord],
    builtin: frozenset[str],
    imports: Imports,
    receivers: dict[str, tuple[str, str]],
    typed: dict[tuple[str, str], str],
    local: set[tuple[str, str]],
    hiding: set[tuple[str, str]],
    class_hint: Callable[[str], str | None],
) -> list[Ref]:
    """One ``calls`` reference per name called in a scope, in the order of the source (``calls``
    is sorted in place; the walk meets a call before the calls inside it, and the sort is stable);
    none for a builtin, nor for a name the function binds itself (``local``: a nested function,
    a parameter). A call on the method's own receiver (``self.save()``) is one apart, its
    hint naming the class (``python_classes.receivers``); on ``super()``, one apart too, naming
    the bases alone (none the file can name: an attribute call as any); on a typed local or an
    attribute of the own receiver typed in the class (``typed``: ``client.send()``,
    ``self.conn.close()``) or on an object made in place (``class_hint``: ``Client().send()``), one
    apart, naming its class as a self call's hint does; on another call's result
    (``Other.builder().build()``), a guess (``heuristic``); through an
    imported module (``app.greet.greet()``, ``os.path.join()``), one per module, unless the
    function binds that name itself (``hiding``: ``store = open_store(); store.save()`` after
    ``from app import store``, the local, not the module; not a parameter of a function nested
    in it, which hides the module in that function only, while ``local`` spans both)."""
    names, testing = imports.names, imports.testing
    refs: list[Ref] = []
    seen: dict[tuple[str | None, str, str | None], int] = {}  # -> its reference's index in refs (``add_call``)
    make = Ref._make
    calls.sort(key=_POSITION)
    for line, _, scope, name, qualified, named in calls:
        link = "extracted"
        if named is not None and named.startswith(_RESULT):  # on an object made in place (``Client().send()``)
            hint = class_hint(named[len(_RESULT) :])  # its class's method; on another result
            if hint is None:  # (``Other.builder().build()``): a guess at best (``graph.narrow``)
                link = "heuristic"
        elif qualified:
            hint = _typed(typed, receivers, scope, named) if typed and named is not None else None
            if hint is None and named is not None and (scope, named.partition(".")[0]) not in hiding:
                hint = _module_hint(imports, named)  # not through a local hiding the import
            if scope is not None and hint is None and named is not None:
                receiver = receivers.get(scope)
                if receiver is not None and receiver[0] == named:
                    hint = receiver[1]
                elif receiver is not None and named == _SUPER:
                    bases = receiver[1].split(" ", 1)[1:]  # the class itself left out
                    hint = SELF_HINT + bases[0] if bases else None
        elif name in builtin or (scope, name) in local:
            continue
        else:
            hint, name = names.get(name, (None, name))
        key = (scope, name, hint)  # a self call, a typed receiver or each module apart
        # From a test, the same reference also gives the tested_by edge: one row, not two.
        add_call(refs, seen, key, make(("calls", "symbol", name, line, scope, hint, qualified, False, link, testing)))
    return refs


def _typed(
    typed: dict[tuple[str, str], str], receivers: dict[str, tuple[str, str]], scope: str | None, named: str
) -> str | None:
    """The hint of a call on ``named`` in ``scope`` when it is a typed local (``client``), a
    typed global the scope does not bind (``app``; ``MODULE``), or a typed attribute of the
    method's own receiver (``self.conn``); else None."""
    head, dot, attr = named.partition(".")
    if not dot:
        hint = typed.get((MODULE if scope is None else scope, named))
        if hint is None and scope is not None:
            hint = typed.get((MODULE, named))
        return hint or None  # "": a local hiding a typed global
    if scope is None:
        return None
    receiver = receivers.get(scope)
    if receiver is None or receiver[0] != head:
        return None
    return typed.get((scope.rpartition(".")[0], "." + attr))


def _handed_functions(
    handed: list[tuple[str | None, ast.expr]],
    named: set[str],
    modules: dict[str, str],
    local: set[tuple[str, str]],
    hiding: set[tuple[str, str]],
) -> list[CallRecord]:
    """The names handed over as arguments that stand for functions, as their calls: one of
    ``named``, the file's own (its module-level ``def``s) and those a relative import binds (``from
    .views import about``: the project's, where an absolute one may bind any object, ``from django.db
    import connection``), not a name the function binds itself; ``views.about`` through a module
    the file imports (``modules``). A capitalised name is a class or a constant handed over as a
    value, not called (``isinstance``'s, Django's ``model=Article``)."""
    found: list[CallRecord] = []
    for scope, arg in handed:
        if arg.__class__ is ast.Name:
            name = arg.id
            if name in named and name[:1].islower() and (scope, name) not in local:
                found.append((arg.lineno, arg.col_offset, scope, name, False, None))
        elif arg.__class__ is ast.Attribute:
            owner = arg.value
            if owner.__class__ is not ast.Name or owner.id not in modules or (scope, owner.id) in hiding:
                continue
            if arg.attr[:1].islower():
                found.append((arg.lineno, arg.col_offset, scope, arg.attr, True, owner.id))
    return found


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


def _module_hint(imports: Imports, named: str) -> str | None:
    """The dotted name a call's receiver stands for when the file imported it: ``g`` after
    ``import app.greet as g`` (``app.greet``), ``greet`` after ``from app import greet``; and
    through a module a plain ``import`` bound, the attributes after it (``app.greet.Greeter``
    for ``app.greet.Greeter.make()`` after ``import app.greet`` or ``import app``). A name a
    ``from`` import bound may be any object (``from flask import current_app``): its attributes
    are not followed. None: the receiver is not imported."""
    hint = imports.modules.get(named)
    if hint is not None or "." not in named:
        return hint
    head, _, rest = named.partition(".")
    module = imports.modules.get(head)
    if module is None or head in imports.names:
        return None
    return f"{module}.{rest}"
