"""Graph relations of a Python file, read from the ``ast`` tree the chunker already built:
symbols (``defines``), ``imports`` (modules, relative ones resolved), ``calls`` by name with
the module a name was imported from as a resolution hint, and for test files ``tested_by``
(a test that calls or imports a symbol)."""

from __future__ import annotations

import ast
import builtins

from .chunks import Chunk
from .relations import Ref, Relations, Symbol, is_test_path

_BUILTINS = frozenset(dir(builtins))
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_LEAVES = frozenset({ast.Name, ast.Constant, ast.alias, ast.arg, ast.Pass, ast.Break, ast.Continue, ast.Load,
                     ast.Store, ast.Del, *ast.operator.__subclasses__(), *ast.cmpop.__subclasses__(),
                     *ast.unaryop.__subclasses__(), *ast.boolop.__subclasses__()})


def python_relations(tree: ast.Module, symbols: list, chunks: list[Chunk], path: str, module: str) -> Relations:
    spans = {c.meta.get("symbol"): (c.line_start, c.line_end) for c in chunks if c.meta.get("kind") != "module"}
    found = tuple(Symbol(q, kind, *spans.get(q, (node.lineno, node.end_lineno or node.lineno)))
                  for node, q, kind in symbols)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    refs: list[Ref] = []
    names: dict[str, tuple[str, str]] = {}  # local name -> (module, name there): from m import name as local
    modules: dict[str, str] = {}  # local alias -> module (import a.b as c)
    testing = is_test_path(path)
    scope_of = {id(node): qualname for node, qualname, kind in symbols if kind != "class"}
    calls: list[tuple[ast.Call, str | None]] = []
    stack: list[tuple[ast.AST, str | None]] = [(tree, None)]
    while stack:  # one pass over the tree: imports, and calls with the symbol they sit in
        node, scope = stack.pop()
        if isinstance(node, ast.Call):
            calls.append((node, scope))
        elif isinstance(node, _DEFS):
            scope = scope_of.get(id(node), scope)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                refs.append(Ref("imports", "module", alias.name, node.lineno))
                local = alias.asname or alias.name.split(".")[0]
                modules[local] = alias.name if alias.asname else alias.name.split(".")[0]
            continue
        elif isinstance(node, ast.ImportFrom):
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
        for name in node._fields:
            if name == "ctx":
                continue
            value = getattr(node, name, None)
            if type(value) is list:
                stack.extend((item, scope) for item in value if isinstance(item, ast.AST) and type(item) not in _LEAVES)
            elif isinstance(value, ast.AST) and type(value) not in _LEAVES:
                stack.append((value, scope))
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


def _call_refs(call: ast.Call, scope: str | None, names: dict[str, tuple[str, str]], modules: dict[str, str],
               seen: set[tuple[str | None, str]], testing: bool) -> list[Ref]:
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
    refs = [Ref("calls", "symbol", name, call.lineno, scope=scope, hint=hint, qualified=qualified, link="extracted")]
    if testing:
        refs.append(Ref("tested_by", "symbol", name, call.lineno, scope=scope, hint=hint, qualified=qualified,
                        reverse=True, link="extracted"))
    return refs
