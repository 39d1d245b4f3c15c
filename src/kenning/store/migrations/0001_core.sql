-- Facts: every indexed excerpt or saved note (kenning.fact/v1). Identical file content is
-- stored once; `locations` lists every place it stands.
CREATE TABLE facts (
    id              INTEGER PRIMARY KEY,
    type            TEXT NOT NULL,
    title           TEXT NOT NULL,
    body            TEXT NOT NULL,
    keywords        TEXT NOT NULL DEFAULT '',
    path            TEXT NOT NULL DEFAULT '',
    source_kind     TEXT NOT NULL,
    source_uri      TEXT NOT NULL,
    fingerprint     TEXT,
    content_hash    TEXT NOT NULL,
    date_source     TEXT,
    date_indexed    TEXT NOT NULL,
    date_confirmed  TEXT,
    lifecycle       TEXT NOT NULL DEFAULT 'active'
                    CHECK (lifecycle IN ('active', 'superseded', 'retired')),
    superseded_by   INTEGER REFERENCES facts(id) ON DELETE SET NULL,
    lifecycle_reason TEXT,
    lifecycle_date  TEXT,
    producer        TEXT NOT NULL,
    tags            TEXT NOT NULL DEFAULT '[]',
    importance      INTEGER CHECK (importance BETWEEN 1 AND 10),
    why             TEXT,
    how_to_apply    TEXT,
    memory_type     TEXT CHECK (memory_type IN ('durable', 'working')),
    meta            TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX facts_lifecycle_type ON facts (lifecycle, type);
CREATE INDEX facts_content_hash ON facts (content_hash);
CREATE INDEX facts_superseded_by ON facts (superseded_by);

CREATE TABLE locations (
    fact_id     INTEGER NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
    uri         TEXT NOT NULL,
    path        TEXT NOT NULL,
    line_start  INTEGER,
    line_end    INTEGER,
    fingerprint TEXT NOT NULL,
    PRIMARY KEY (fact_id, uri)
) WITHOUT ROWID;
CREATE INDEX locations_path ON locations (path);

-- The ingestion manifest: one row per indexed file.
CREATE TABLE manifest (
    path        TEXT PRIMARY KEY,
    size        INTEGER NOT NULL,
    mtime_ns    INTEGER NOT NULL,
    fingerprint TEXT NOT NULL,
    parser      TEXT NOT NULL,
    indexed_at  TEXT NOT NULL,
    excerpts    INTEGER NOT NULL
) WITHOUT ROWID;

-- Sync reports, recorded only when a sync changed something.
CREATE TABLE sync_runs (
    id       INTEGER PRIMARY KEY,
    finished TEXT NOT NULL,
    report   TEXT NOT NULL
);

-- Lexical indexes over facts (external content: the text lives once, in `facts`).
-- Inserts are indexed by the code (store/facts.py: `insert`, or in batches with `index_fts`:
-- FTS5 indexes a batch an order of magnitude faster than row by row from a trigger);
-- deletes and text updates are kept in step by the triggers below.
CREATE VIRTUAL TABLE facts_fts USING fts5(
    title, keywords, path, body,
    content = 'facts', content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 2'
);
INSERT INTO facts_fts (facts_fts, rank) VALUES ('rank', 'bm25(10.0, 8.0, 4.0, 1.0)');

CREATE VIRTUAL TABLE facts_trigram USING fts5(
    title, keywords, path,
    content = 'facts', content_rowid = 'id',
    tokenize = 'trigram'
);

CREATE TRIGGER facts_after_delete AFTER DELETE ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, title, keywords, path, body)
        VALUES ('delete', old.id, old.title, old.keywords, old.path, old.body);
    INSERT INTO facts_trigram (facts_trigram, rowid, title, keywords, path)
        VALUES ('delete', old.id, old.title, old.keywords, old.path);
END;

CREATE TRIGGER facts_after_update AFTER UPDATE OF title, keywords, path, body ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, title, keywords, path, body)
        VALUES ('delete', old.id, old.title, old.keywords, old.path, old.body);
    INSERT INTO facts_trigram (facts_trigram, rowid, title, keywords, path)
        VALUES ('delete', old.id, old.title, old.keywords, old.path);
    INSERT INTO facts_fts (rowid, title, keywords, path, body)
        VALUES (new.id, new.title, new.keywords, new.path, new.body);
    INSERT INTO facts_trigram (rowid, title, keywords, path)
        VALUES (new.id, new.title, new.keywords, new.path);
END;
