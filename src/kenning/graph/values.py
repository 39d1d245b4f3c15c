"""What a name taken from a module of the project stands for, when it is no symbol there: a
module itself (``from app import greet`` with ``app/greet.py``: the ``imports`` edge says it,
no symbol named ``greet`` is imported), or a value the module binds (``registry.SHELLS`` in
``registry.SHELLS.copy()``, ``from django.contrib.admin import site``). A call on such a value
is a call on an instance of the class the module's ``GLOBALS`` reference names for it
(``ingest.relations``): a builtin's (``SHELLS = {}``: ``builtins.dict``) or another outside
class's reaches none of the project's methods, a project class's its method; with no such
reference, the name may still be a class its package re-exports (``models.Model``), else it is
a value of unknown class: the rule of an attribute call (a method of that name, never a
function)."""

from __future__ import annotations

from kenning.graph.bases import module_hints
from kenning.ingest.go_packages import IMPORT_HINT
from kenning.ingest.relations import GLOBALS, SELF_HINT
from kenning.store.db import Connection
from kenning.store.graph import RefRow


def as_module(row: RefRow) -> str | None:
    """For a plain name imported from a module (``from app import greet``: the hint ``app``, the
    target ``greet``), the dotted name it would have as a module (``app.greet``); None for any
    other reference."""
    hint = row.hint
    if row.target_kind != "symbol" or row.qualified or not hint or hint.startswith((SELF_HINT, IMPORT_HINT)):
        return None
    return f"{hint}.{row.target}"


class Values:
    """The class each module's typed globals are bound to, read from their ``GLOBALS``
    references by the global's name, once a resolution."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._by_name: dict[str, list[tuple[str, str]]] = {}

    def hint_of(self, value: str) -> str:
        """The hint of a call on ``value`` (``app.registry.SHELLS``, an attribute of a module of
        the project that is neither a module nor a symbol): ``SELF_HINT`` and the class (and the
        bases its file names) of the one global of that name the module, or a module below the
        package it names (re-exported), binds, absolute (``self:builtins.dict``,
        ``self:app.sites.AdminSite app.base.Base``); else ``SELF_HINT`` and ``value`` itself."""
        module, _, name = value.rpartition(".")
        rows = self._by_name.get(name)
        if rows is None:
            rows = self._by_name[name] = self._read(name)
        for matches in (
            lambda defined: defined == module,
            lambda defined: defined.endswith("." + module),  # below the project's root
            lambda defined: defined.startswith(module + ".") or f".{module}." in defined,  # re-exported
        ):
            chosen = [classes for defined, classes in rows if matches(defined)]
            if len(chosen) == 1:
                return SELF_HINT + chosen[0]
            if chosen:
                break
        return SELF_HINT + value

    def _read(self, name: str) -> list[tuple[str, str]]:
        """(module, classes made absolute) of each ``GLOBALS`` reference named ``name``."""
        found = []
        for module, entries in module_hints(self.conn, GLOBALS, name):
            prefix = f"{module}." if module else ""
            found.append((module, " ".join(prefix + c[1:] if c[0] == "." else c for c in entries)))
        return found
