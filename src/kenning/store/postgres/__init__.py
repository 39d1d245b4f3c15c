"""The PostgreSQL engine (level 2): the store contract a second time, with its own SQL and
migrations. Selected by a ``postgresql://`` store URL; see docs/architecture.md ("Engines")."""
