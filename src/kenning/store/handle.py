"""The store handle callers pass first to every store function, and the engine's errors.

Code outside ``store/`` names these, never ``sqlite3``: a second engine supplies its own
handle and maps its failures onto the same three error classes.
"""

from __future__ import annotations

import sqlite3

Connection = sqlite3.Connection  # an open, migrated project store (``store.db.connect``)
StoreError = sqlite3.Error  # any failure of the engine
DatabaseError = sqlite3.DatabaseError  # the store file is damaged, unreadable or not a store
