"""The project store: one SQLite database per project, schema only in migrations."""
