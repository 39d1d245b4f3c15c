-- Level 1 on level 2 (SQLite migration 0011): one vector per (project, embedder, fact),
-- float32 little-endian bytes (`bytea`, the SQLite BLOB's bytes), computed from the fact's text
-- as it was when `content_hash` was its hash, scored exactly in the client (dense/index.py);
-- one manifest row per (project, embedder): vectors of another model are never mixed in.
CREATE TABLE dense_vectors (
    project text NOT NULL,
    embedder text NOT NULL,
    fact_id bigint NOT NULL REFERENCES facts (id) ON DELETE CASCADE,
    content_hash text NOT NULL,
    vector bytea NOT NULL,
    PRIMARY KEY (project, embedder, fact_id)
);
-- Deleting a fact cascades here: without an index led by fact_id each delete scans the table.
CREATE INDEX dense_vectors_fact ON dense_vectors (fact_id);

CREATE TABLE dense_manifest (
    project text NOT NULL,
    embedder text NOT NULL,
    model_id text NOT NULL,
    weights_sha256 text NOT NULL,
    dimension integer NOT NULL,
    pooling text NOT NULL,
    fingerprint text NOT NULL,
    created text NOT NULL,
    version bigint NOT NULL DEFAULT 0,  -- bumped by every write to the vectors: a cache key
    PRIMARY KEY (project, embedder)
);
