"""The PostgreSQL engine (level 2): the store contract a second time, with its own SQL and
migrations. Selected by a ``postgresql://`` store URL; see docs/architecture.md ("Engines")."""

# Store contract sections not implemented on PostgreSQL yet (``kenning status`` lists them as
# degradations; their contract tests are strict xfails on this engine).
MISSING = (
    "kenning bench --speed",  # its sync measure would sync a copy under the project's name
)
