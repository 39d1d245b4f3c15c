"""Graph relations of a Python file, read from the ``ast`` tree the chunker already built:
symbols (``defines``), ``imports`` (modules, relative ones resolved), ``calls`` by name with
the module a name was imported from as a resolution hint, and for test files ``tested_by``
(a test that calls or imports a symbol)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .chunks import Chunk
from .relations import Ref, Relations, Symbol, is_test_path

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def python_relations(tree: ast.Module, symbols: list, chunks: list[Chunk], path: str, module: str) -> Relations:
    spans = {c.meta.get("symbol"): (c.line_start, c.line_end) for c in chunks if c.meta.get("kind") != "module"}
    found = tuple(Symbol(q, kind, *spans.get(q, (node.lineno, node.end_lineno or node.lineno)))
                  for node, q, kind in symbols)
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    refs: list[Ref] = []
    names: dict[str, str] = {}  # local name -> module it was imported from (from m import name)
    modules: dict[str, str] = {}  # local alias -> module (import a.b as c)
    testing = is_test_path(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                refs.append(Ref("imports", "module", alias.name, node.lineno))
                local = alias.asname or alias.name.split(".")[0]
                modules[local] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node.module, node.level, package)
            if not base:
                continue
            refs.append(Ref("imports", "module", base, node.lineno))
            for alias in node.names:
                if alias.name == "*":
                    continue
                local = alias.asname or alias.name
                names[local] = base
                modules.setdefault(local, f"{base}.{alias.name}")
                refs.append(Ref("imports", "module", f"{base}.{alias.name}", node.lineno))
                if testing:
                    refs.append(Ref("tested_by", "symbol", alias.name, node.lineno, hint=base, reverse=True))
    seen: set[tuple[str | None, str]] = set()
    for node, qualname, kind in symbols:
        if kind == "class":
            continue
        for call in _calls(node.body):
            refs.extend(_call_refs(call, qualname, names, modules, seen, testing))
    for call in _calls([s for s in tree.body if not isinstance(s, _DEFS)], skip_defs=True):
        refs.extend(_call_refs(call, None, names, modules, seen, testing))
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


def _calls(body: list[ast.stmt], skip_defs: bool = False) -> Iterator[ast.Call]:
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if skip_defs and isinstance(node, _DEFS):
            continue
        if isinstance(node, ast.Call):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _call_refs(call: ast.Call, scope: str | None, names: dict[str, str], modules: dict[str, str],
               seen: set[tuple[str | None, str]], testing: bool) -> list[Ref]:
    func = call.func
    if isinstance(func, ast.Name):
        name, qualified, hint = func.id, False, names.get(func.id)
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
