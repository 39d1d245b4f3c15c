"""Numbered SQL migrations, applied in order and recorded in `schema_migrations`."""
