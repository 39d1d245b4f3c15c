"""Graph relations of a Python file, read from the ``ast`` tree the chunker already built:
symbols (``defines``), ``imports`` (modules, relative ones resolved), ``calls`` by name with
the module a name was imported from as a resolution hint, and for test files ``tested_by``
(a test that calls or imports a symbol)."""

from __future__ import annotations

import ast
import builtins

from .chunks import Chunk
from .relations import Ref, Relations, Symbol
from .test_files import is_test_path

_BUILTINS = frozenset(dir(builtins))
_DEFS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
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
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(node_type: type) -> tuple[str, ...]:
    fields = _CHILD_FIELDS.get(node_type)
    if fields is None:
        fields = tuple(f for f in getattr(node_type, "_fields", ()) if f not in _PLAIN_FIELDS)
        _CHILD_FIELDS[node_type] = fields
    return fields


def python_relations(tree: ast.Module, symbols: list, chunks: list[Chunk], path: str, module: str) -> Relations:
    spans = {c.meta.get("symbol"): (c.line_start, c.line_end) for c in chunks if c.meta.get("kind") != "module"}
    found = tuple(
        Symbol(q, kind, *spans.get(q, (node.lineno, node.end_lineno or node.lineno))) for node, q, kind in symbols
    )
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    refs: list[Ref] = []
    names: dict[str, tuple[str, str]] = {}  # local name -> (module, name there): from m import name as local
    modules: dict[str, str] = {}  # local alias -> module (import a.b as c)
    testing = is_test_path(path)
    scope_of = {id(node): qualname for node, qualname, kind in symbols if kind != "class"}
    calls: list[tuple[ast.Call, str | None]] = []
    # One depth-first pass over the tree: imports, and calls with the symbol they sit in. A
    # (None, scope) entry below a symbol's subtree restores the enclosing scope after it.
    stack: list = [tree]
    push, pop = stack.append, stack.pop
    scope: str | None = None
    while stack:
        node = pop()
        kind = node.__class__
        if kind is tuple:
            scope = node[1]
            continue
        if kind is ast.Call:
            calls.append((node, scope))
        elif kind in _DEFS:
            inner = scope_of.get(id(node), scope)
            if inner != scope:
                push((None, scope))
                scope = inner
        elif kind is ast.Import:
            for alias in node.names:
                refs.append(Ref("imports", "module", alias.name, node.lineno))
                local = alias.asname or alias.name.split(".")[0]
                modules[local] = alias.name if alias.asname else alias.name.split(".")[0]
            continue
        elif kind is ast.ImportFrom:
            base = _absolute(node.module, node.level, package)
            if base:
                refs.append(Ref("imports", "module", base, node.lineno))
                for alias in node.names:
                    if alias.name == "*":
                        continue
                    local = alias.asname or alias.name
                    names[local] = (base, alias.name)
                    modules.setdefault(local, f"{base}.{alias.name}")
                    refs.append(Ref("imports", "module", f"{base}.{alias.name}", node.lineno))
                    if testing:
                        refs.append(Ref("tested_by", "symbol", alias.name, node.lineno, hint=base, reverse=True))
            continue
        for field in _CHILD_FIELDS.get(kind) or _child_fields(kind):
            value = getattr(node, field, None)
            if value.__class__ is list:
                for item in value:
                    if item.__class__ not in _NOT_VISITED:
                        push(item)
            elif value.__class__ not in _NOT_VISITED:
                push(value)
    local = {q.rsplit(".", 1)[-1] for _, q, _ in symbols} | set(names) | set(modules)
    builtin = _BUILTINS - local  # `len(x)` calls the builtin unless the module shadows it
    seen: set[tuple[str | None, str]] = set()
    for call, scope in sorted(calls, key=lambda c: (c[0].lineno, c[0].col_offset)):
        if isinstance(call.func, ast.Name) and call.func.id in builtin:
            continue
        refs.extend(_call_refs(call, scope, names, modules, seen, testing))
    return Relations(module=module, symbols=found, refs=tuple(refs))


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


def _call_refs(
    call: ast.Call,
    scope: str | None,
    names: dict[str, tuple[str, str]],
    modules: dict[str, str],
    seen: set[tuple[str | None, str]],
    testing: bool,
) -> list[Ref]:
    func = call.func
    if isinstance(func, ast.Name):
        hint, name = names.get(func.id, (None, func.id))
        qualified = False
    elif isinstance(func, ast.Attribute):
        name, qualified = func.attr, True
        hint = modules.get(func.value.id) if isinstance(func.value, ast.Name) else None
    else:
        return []
    if (scope, name) in seen:
        return []
    seen.add((scope, name))
    # From a test, the same reference also gives the tested_by edge: one row, not two.
    return [
        Ref(
            "calls",
            "symbol",
            name,
            call.lineno,
            scope=scope,
            hint=hint,
            qualified=qualified,
            link="extracted",
            tested=testing,
        )
    ]
