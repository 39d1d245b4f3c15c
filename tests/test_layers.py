"""The import graph of ``src/kenning``: no cycles, no import against the layer order, no SQL outside store/,
no ``config`` outside interfaces/.

The layer order is read from docs/architecture.md (the numbered list under "## Layers"), so the
document and the code cannot drift apart.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "kenning"
SQL = re.compile(
    r"\b(SELECT\s.+\sFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|VIRTUAL)|PRAGMA\s+\w+)\b",
    re.S,
)  # SQL keywords are written in capitals here


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def unit(module: str) -> str:
    """The layer unit of a module: its top-level package or module under kenning (interfaces/* count apart)."""
    parts = module.split(".")
    if len(parts) == 1:
        return "kenning"
    if parts[1] == "interfaces":
        return "interfaces"
    return parts[1]


def _is_type_checking(node: ast.If) -> bool:
    return (
        isinstance(node.test, ast.Name)
        and node.test.id == "TYPE_CHECKING"
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def imports(module: str) -> list[tuple[str, int, bool]]:
    """(imported kenning module, line, inside a function) for each runtime import of ``module``."""
    path = MODULES[module]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(sub, in_function)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.extend((m, child.lineno, in_function) for m in resolve(alias.name))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (child.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in child.names:
                    candidates = resolve(f"{base}.{alias.name}") or resolve(base)
                    found.extend((m, child.lineno, in_function) for m in candidates)
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(tree, False)
    return found


def resolve(name: str) -> list[str]:
    if not name.startswith("kenning"):
        return []
    return [name] if name in MODULES else []


GRAPH = {m: sorted({i for i, _, _ in imports(m) if i != m}) for m in MODULES}


def layers() -> list[list[str]]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = re.search(r"^## Layers\n(.*?)^## ", text, re.S | re.M)
    assert section, "docs/architecture.md has no '## Layers' section"
    order = []
    for line in section.group(1).splitlines():
        item = re.match(r"\d+\. (.*?)(?: — |$)", line)
        if item:
            order.append(re.findall(r"`([a-z_]+)`", item.group(1)))
    assert order, "the '## Layers' section lists no layer"
    return order


def test_every_unit_has_a_layer() -> None:
    placed = {u for layer in layers() for u in layer} | {"kenning"}
    missing = sorted({unit(m) for m in MODULES} - placed)
    assert not missing, f"not placed in docs/architecture.md ## Layers: {missing}"


def test_no_import_against_the_layer_order() -> None:
    rank = {u: i for i, layer in enumerate(layers()) for u in layer}
    rank["kenning"] = -1  # the package's own __init__
    wrong = []
    for module in MODULES:
        for target, line, _ in imports(module):
            if rank[unit(target)] > rank[unit(module)]:
                wrong.append(f"{module}:{line} imports {target} ({unit(module)} is below {unit(target)})")
    assert not wrong, "\n".join(wrong)


def _cycles(graph: dict[str, list[str]]) -> list[list[str]]:
    """Strongly connected components with more than one member (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(graph[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, []))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_cycle_between_modules() -> None:
    """Imports inside functions count too: a lazy import may save start-up time, never hide a cycle."""
    assert not _cycles(GRAPH), _cycles(GRAPH)


def test_no_cycle_between_packages() -> None:
    units: dict[str, set[str]] = {}
    for module, targets in GRAPH.items():
        units.setdefault(unit(module), set()).update(unit(t) for t in targets if unit(t) != unit(module))
    graph = {u: sorted(t) for u, t in units.items()}
    assert not _cycles(graph), _cycles(graph)


def _config_imports(module: str) -> list[int]:
    """Lines of ``module`` importing ``kenning.config``: any import, at any depth (a function, a
    ``TYPE_CHECKING`` block), relative ones resolved."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names = [base, *(f"{base}.{a.name}" for a in node.names)]
        else:
            continue
        if any(n == "kenning.config" or n.startswith("kenning.config.") for n in names):
            found.append(node.lineno)
    return found


def test_only_the_interfaces_import_config() -> None:
    """``config`` reads ``.kenning/config.toml`` and the environment: the interfaces do that and
    pass a ``Project``, a path or a parsed setting down (issue 11)."""
    offences = [
        f"{module}:{line}"
        for module in MODULES
        if module != "kenning.config" and not module.startswith("kenning.interfaces")
        for line in _config_imports(module)
    ]
    assert not offences, "only kenning.interfaces may import kenning.config:\n" + "\n".join(offences)


def test_the_config_check_catches_an_import() -> None:
    """Not vacuous: the interfaces' own imports of config are found."""
    assert _config_imports("kenning.interfaces.web.app")


def test_freshness_imports_no_parser() -> None:
    """Freshness re-splits a changed file with the ``split`` its caller passes in
    (``ingest.spans.split``): it imports nothing of ``ingest`` (issue 11)."""
    found = [(m, line) for m, line, _ in imports("kenning.freshness") if m.startswith("kenning.ingest")]
    assert not found, f"kenning.freshness imports {found}"
    assert any(m == "kenning.ingest.spans" for m, _, _ in imports("kenning.search.ranker")), "the check reads imports"


def _sql_offences(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "sqlite3" for a in node.names):
            found.append(f"{node.lineno}: import sqlite3")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "sqlite3":
            found.append(f"{node.lineno}: from sqlite3 import")
        elif isinstance(node, ast.Attribute) and node.attr in {"execute", "executemany", "executescript"}:
            found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL.search(node.value):
            found.append(f"{node.lineno}: SQL text {node.value[:40]!r}")
    return found


@pytest.mark.parametrize("module", [m for m in MODULES if not m.startswith("kenning.store")])
def test_no_sql_outside_store(module: str) -> None:
    offences = _sql_offences(MODULES[module])
    assert not offences, f"{module} holds SQL (only kenning.store may):\n" + "\n".join(offences)


def test_the_sql_check_catches_sql() -> None:
    """The check above is not vacuous: the store's own modules trip it."""
    assert _sql_offences(SRC / "store" / "db.py")
