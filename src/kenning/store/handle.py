"""The store handle callers pass first to every store function, and the engine's errors.

Code outside ``store/`` names these, never ``sqlite3``: a second engine supplies its own
handle and maps its failures onto the same three error classes.
"""

from __future__ import annotations

import sqlite3

Connection = sqlite3.Connection  # an open, migrated project store (``store.db.connect``)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from kenning.store.postgres.connection import PgConnection

    # A handle on either engine: what the store functions serving both engines accept (they
    # dispatch on ``is_pg``). Code given only ``Connection`` holds a SQLite store.
    EngineConnection = Connection | PgConnection
StoreError = sqlite3.Error  # any failure of the engine
DatabaseError = sqlite3.DatabaseError  # the store file is damaged, unreadable or not a store
