"""The PostgreSQL engine (level 2): the store contract a second time, with its own SQL and
migrations. Selected by a ``postgresql://`` store URL; see docs/architecture.md ("Engines")."""

# Store contract sections not implemented on PostgreSQL yet (``kenning status`` lists them as
# degradations; their contract tests are strict xfails on this engine).
MISSING = (
    "sync (manifest, sync runs)",
    "graph",
    "memory",
    "guided-search cursors",
    "pack",
    "status counts",
    "store version",
    "report look-ups",
    "bench reads",
    "dense vectors",
)
