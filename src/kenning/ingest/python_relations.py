"""Graph relations of a Python file, read from the ``ast`` tree the chunker already built:
symbols (``defines``), ``imports`` (modules, relative ones resolved), ``calls`` by name with
the module a name was imported from as a resolution hint, and for test files ``tested_by``
(a test that calls or imports a symbol)."""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator

from .chunks import Chunk
from .relations import Ref, Relations, Symbol
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
_VISIT, _CALL, _DEF, _IMPORT, _IMPORT_FROM, _RESTORE = range(6)
_ACTIONS = {
    ast.Call: _CALL,
    ast.FunctionDef: _DEF,
    ast.AsyncFunctionDef: _DEF,
    ast.ClassDef: _DEF,
    ast.Import: _IMPORT,
    ast.ImportFrom: _IMPORT_FROM,
}
# Every node type -> (action, child fields), looked up once a node; ``tuple``: a scope to restore.
_STEPS: dict[type, tuple[int, tuple[str, ...]]] = {
    kind: (_ACTIONS.get(kind, _VISIT), _child_fields(kind)) for kind in _node_types() if kind not in _NOT_VISITED
}
_STEPS[tuple] = (_RESTORE, ())


def python_relations(tree: ast.Module, symbols: list, chunks: list[Chunk], path: str, module: str) -> Relations:
    spans = {c.meta.get("symbol"): (c.line_start, c.line_end) for c in chunks if c.meta.get("kind") != "module"}
    found = tuple(
        Symbol(q, kind, *spans.get(q, (node.lineno, node.end_lineno or node.lineno))) for node, q, kind in symbols
    )
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    imports = _Imports(package, is_test_path(path))
    scope_of = {id(node): qualname for node, qualname, kind in symbols if kind != "class"}
    calls = _walk(tree, scope_of, imports)
    local = {q.rsplit(".", 1)[-1] for _, q, _ in symbols} | set(imports.names) | set(imports.modules)
    builtin = _BUILTINS - local  # `len(x)` calls the builtin unless the module shadows it
    refs = imports.refs + _call_refs(calls, builtin, imports)
    return Relations(module=module, symbols=found, refs=tuple(refs))


def _walk(tree: ast.Module, scope_of: dict[int, str], imports: _Imports) -> list[tuple[ast.Call, str | None]]:
    """One depth-first pass over the tree: its imports (into ``imports``), and its calls with
    the symbol they sit in (``scope_of``: a function's or method's ``id`` -> its qualname)."""
    calls: list[tuple[ast.Call, str | None]] = []
    # A (None, scope) entry below a symbol's subtree restores the enclosing scope after it.
    stack: list = [tree]
    push, pop = stack.append, stack.pop
    scope: str | None = None
    steps, not_visited = _STEPS, _NOT_VISITED
    while stack:
        node = pop()
        action, fields = steps[node.__class__]
        if action is not _VISIT:
            if action is _CALL:
                calls.append((node, scope))
            elif action is _RESTORE:
                scope = node[1]
                continue
            elif action is _DEF:
                inner = scope_of.get(id(node), scope)
                if inner != scope:
                    push((None, scope))
                    scope = inner
            elif action is _IMPORT:
                imports.add_import(node)
                continue
            else:  # _IMPORT_FROM
                imports.add_import_from(node)
                continue
        for field in fields:
            value = getattr(node, field, None)
            if value.__class__ is list:
                for item in value:
                    if item.__class__ not in not_visited:
                        push(item)
            elif value.__class__ not in not_visited:
                push(value)
    return calls


class _Imports:
    """The imports met by the walk: their references, and the names they bind."""

    def __init__(self, package: str, testing: bool) -> None:
        self.package, self.testing = package, testing
        self.refs: list[Ref] = []
        self.names: dict[str, tuple[str, str]] = {}  # local name -> (module, name there): from m import name as local
        self.modules: dict[str, str] = {}  # local alias -> module (import a.b as c)

    def add_import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.refs.append(Ref("imports", "module", alias.name, node.lineno))
            local = alias.asname or alias.name.split(".")[0]
            self.modules[local] = alias.name if alias.asname else alias.name.split(".")[0]

    def add_import_from(self, node: ast.ImportFrom) -> None:
        base = _absolute(node.module, node.level, self.package)
        if not base:
            return
        self.refs.append(Ref("imports", "module", base, node.lineno))
        for alias in node.names:
            if alias.name == "*":
                continue
            local = alias.asname or alias.name
            self.names[local] = (base, alias.name)
            self.modules.setdefault(local, f"{base}.{alias.name}")
            self.refs.append(Ref("imports", "module", f"{base}.{alias.name}", node.lineno))
            if self.testing:
                self.refs.append(Ref("tested_by", "symbol", alias.name, node.lineno, hint=base, reverse=True))


def _absolute(name: str | None, level: int, package: str) -> str:
    if level == 0:
        return name or ""
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return ""
    base = parts[: len(parts) - (level - 1)]
    if name:
        base.append(name)
    return ".".join(base)


def _call_refs(calls: list[tuple[ast.Call, str | None]], builtin: frozenset[str], imports: _Imports) -> list[Ref]:
    """One ``calls`` reference per name called in a scope, in the order of the source; none
    for a builtin, or for a call of something other than a name or attribute (``f()()``)."""
    names, modules, testing = imports.names, imports.modules, imports.testing
    refs = []
    seen: set[tuple[str | None, str]] = set()
    for call, scope in sorted(calls, key=_position):
        func = call.func
        if func.__class__ is ast.Name:
            if func.id in builtin:
                continue
            hint, name = names.get(func.id, (None, func.id))
            qualified = False
        elif func.__class__ is ast.Attribute:
            value = func.value
            name, qualified = func.attr, True
            hint = modules.get(value.id) if value.__class__ is ast.Name else None
        else:
            continue
        if (scope, name) in seen:
            continue
        seen.add((scope, name))
        # From a test, the same reference also gives the tested_by edge: one row, not two.
        refs.append(Ref("calls", "symbol", name, call.lineno, scope, hint, qualified, False, "extracted", testing))
    return refs


def _position(call: tuple[ast.Call, str | None]) -> tuple[int, int]:
    return call[0].lineno, call[0].col_offset
