"""The type of a field a class declares in another file, for a C++ call on it: ``DBImpl::Write`` in
``db_impl.cc`` calls ``table_cache_->Evict()``, and ``db_impl.h`` declares ``TableCache* const
table_cache_;`` in ``class DBImpl``. Read from the ``FIELDS`` references (``ingest.relations``) each
class's file wrote, by the class's short name, once a resolution. A call whose class declares no
such field (a local, a parameter kenning could not type, a global) stays an attribute call."""

from __future__ import annotations

from kenning.graph.bases import module_hints
from kenning.ingest.relations import FIELD_HINT, FIELDS, SELF_HINT, STANDARD_NAMESPACES
from kenning.store.db import Connection

OUTSIDE = "outside"  # what ``hint_of`` gives for a field of such a type


class Fields:
    """The fields each class declares with a type, looked up as asked and kept for the
    resolution's duration."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self._by_short: dict[str, list[tuple[str, dict[str, str]]]] = {}

    def hint_of(self, hint: str) -> str | None:
        """For a call's ``FIELD_HINT`` (``field:leveldb.DBImpl table_cache_``): a self call's hint
        naming the field's type (``self:.TableCache``), ``OUTSIDE`` for a type of the standard
        library's, None when no one class of that name declares that field (an attribute call)."""
        cls, _, name = hint[len(FIELD_HINT) :].partition(" ")
        short = cls.rpartition(".")[2]
        rows = self._by_short.get(short)
        if rows is None:
            rows = self._by_short[short] = self._read(short)
        declared = [fields for full, fields in rows if full == cls] or [
            fields for full, fields in rows if full.endswith("." + cls) or cls.endswith("." + full)
        ]
        types = {fields[name] for fields in declared if name in fields}
        if len(types) != 1:
            return None
        package, _, type_ = types.pop().rpartition(".")
        # written as the parser writes a type it names (``tree_calls._class_hint``): its method,
        # else the bases', else an attribute call (an interface's pure virtual method is no symbol)
        return OUTSIDE if package in STANDARD_NAMESPACES else f"{SELF_HINT}.{type_}"

    def _read(self, short: str) -> list[tuple[str, dict[str, str]]]:
        """(class, field -> type) of each ``FIELDS`` reference named ``short``."""
        found = []
        for _, entries in module_hints(self.conn, FIELDS, short):
            found.append((entries[0], dict(entry.partition("=")[::2] for entry in entries[1:])))
        return found
