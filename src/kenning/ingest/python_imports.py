"""What a Python file's imports bind: the ``imports`` references, the names imported from a
module (``from m import name as local``) and the module aliases (``import a.b as c``), relative
imports made absolute against the file's package."""

from __future__ import annotations

import ast

from .relations import Ref


class Imports:
    """The imports met by the walk: their references, and the names they bind."""

    def __init__(self, package: str, testing: bool) -> None:
        self.package, self.testing = package, testing
        self.refs: list[Ref] = []
        self.names: dict[str, tuple[str, str]] = {}  # local name -> (module, name there): from m import name as local
        self.modules: dict[str, str] = {}  # local alias -> module (import a.b as c)
        self.relative: set[str] = set()  # local names a relative import binds (from .views import about)

    def add_import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.refs.append(Ref("imports", "module", alias.name, node.lineno))
            if self.testing:  # a test importing a module of the project tests that module
                self.refs.append(Ref("tested_by", "module", alias.name, node.lineno, reverse=True))
            local = alias.asname or alias.name.split(".")[0]
            self.modules[local] = alias.name if alias.asname else alias.name.split(".")[0]

    def add_import_from(self, node: ast.ImportFrom) -> None:
        base = absolute(node.module, node.level, self.package)
        if not base:
            return
        self.refs.append(Ref("imports", "module", base, node.lineno))
        for alias in node.names:
            if alias.name == "*":
                continue
            local = alias.asname or alias.name
            self.names[local] = (base, alias.name)
            if node.level:
                self.relative.add(local)
            self.modules.setdefault(local, f"{base}.{alias.name}")
            self.refs.append(Ref("imports", "module", f"{base}.{alias.name}", node.lineno))
            if self.testing:
                self.refs.append(Ref("tested_by", "symbol", alias.name, node.lineno, hint=base, reverse=True))


def absolute(name: str | None, level: int, package: str) -> str:
    if level == 0:
        return name or ""
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return ""
    base = parts[: len(parts) - (level - 1)]
    if name:
        base.append(name)
    return ".".join(base)
