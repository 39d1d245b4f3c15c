-- Per-store secrets, created on first use (store/secrets.py). `cursor` keys the HMAC that
-- guards guided-search cursors (memory/cursors.py): a modified cursor is refused before any
-- lookup, and a cursor cannot be made without the store's secret.
CREATE TABLE store_secrets (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
);
