-- Files a sync read and skipped for what their bytes are (`binary`, `minified`), with the size,
-- mtime and parser they were read with: while those still hold, the next sync counts them
-- skipped again without opening them, as it leaves unchanged indexed files unread (the manifest).
-- Before, every sync read them again and entered the batch writer for them: four minified
-- bundles (3.4 MB) made a no-op sync 0.12-0.18 s against 0.10-0.13 s without them. A file
-- skipped for a reason its bytes alone do not decide (`compiled`: its source map and the source
-- it names; `unreadable`; `parse_error`, which a lack of memory may cause) is not kept here.
CREATE TABLE skipped_files (
    path     TEXT PRIMARY KEY,
    size     INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    parser   TEXT NOT NULL,
    reason   TEXT NOT NULL
) WITHOUT ROWID;
