"""Every third-party package that kenning or its tests import is declared in pyproject.toml."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = (ROOT / "src" / "kenning", ROOT / "tests", ROOT / "bench")
DATA = ROOT / "tests" / "fixtures"  # corpora to index, not code kenning runs


def _normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [
        *project["dependencies"],
        *(r for extra in project.get("optional-dependencies", {}).values() for r in extra),
    ]
    return {_normalise(re.split(r"[\s<>=!~;\[]", r, maxsplit=1)[0]) for r in requirements}


def _optional(tree: ast.AST) -> set[int]:
    """Imports inside ``try: … except ImportError``: an optional engine, handled when absent."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            "ImportError" in ast.unparse(h.type) or "ModuleNotFoundError" in ast.unparse(h.type)
            for h in node.handlers
            if h.type is not None
        ):
            guarded |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return guarded


def _sources() -> list[Path]:
    return [p for folder in SCANNED for p in sorted(folder.rglob("*.py")) if DATA not in p.parents]


def imported_top_levels() -> dict[str, str]:
    """Top-level module name -> one file importing it (absolute imports only, in any scope,
    optional ones excepted)."""
    # the repository's own modules, and the test folders (a test may import ``store.pg_engine``)
    folders = {p.parent.name for p in _sources() if p.parent.parent == ROOT / "tests"}
    local = {p.stem for p in _sources()} | folders | {"kenning"}
    found: dict[str, str] = {}
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        optional = _optional(tree)
        for node in ast.walk(tree):
            if id(node) in optional:
                continue
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".", 1)[0]
                if top not in sys.stdlib_module_names and top not in local:
                    found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def test_every_imported_third_party_package_is_declared_in_pyproject():
    distributions = packages_distributions()
    wanted = declared()
    missing = []
    for module, where in sorted(imported_top_levels().items()):
        dists = {_normalise(d) for d in distributions.get(module, [])}
        if not dists:
            missing.append(f"{module} (imported by {where}) is not installed: declare it, or drop the import")
        elif not dists & wanted:
            missing.append(f"{module} (imported by {where}) comes from {', '.join(sorted(dists))}, not declared")
    assert not missing, "\n".join(missing)


def test_the_check_sees_a_third_party_import_and_knows_the_declared_names():
    found = imported_top_levels()
    assert {"click", "mcp", "pytest"} <= set(found)
    assert "os" not in found and "kenning" not in found and "conftest" not in found
    assert {"click", "mcp", "pytest"} <= declared()
