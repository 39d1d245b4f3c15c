-- Level 1 (dense retrieval): one vector per (embedder, fact), float32 little-endian in a
-- BLOB, computed from the fact's text as it was when `content_hash` was its hash; and one
-- manifest row per embedder (model id, weights sha256, dimension, pooling, configuration
-- fingerprint): vectors from another model or configuration are never mixed in.
CREATE TABLE dense_vectors (
    embedder     TEXT NOT NULL,
    fact_id      INTEGER NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
    content_hash TEXT NOT NULL,
    vector       BLOB NOT NULL,
    PRIMARY KEY (embedder, fact_id)
);  -- a rowid table: 1.5 KB rows in a WITHOUT ROWID b-tree took 4.6 KB each (overflow pages)
-- Counting and joining vectors without reading their BLOBs (coverage at every answer).
CREATE INDEX dense_vectors_hash ON dense_vectors (embedder, fact_id, content_hash);
-- Deleting a fact cascades here: without an index led by fact_id each delete scans the table.
CREATE INDEX dense_vectors_fact ON dense_vectors (fact_id);

CREATE TABLE dense_manifest (
    embedder       TEXT PRIMARY KEY,
    model_id       TEXT NOT NULL,
    weights_sha256 TEXT NOT NULL,
    dimension      INTEGER NOT NULL,
    pooling        TEXT NOT NULL,
    fingerprint    TEXT NOT NULL,
    created        TEXT NOT NULL,
    version        INTEGER NOT NULL DEFAULT 0  -- bumped by every write to the vectors: a cache key
) WITHOUT ROWID;
