-- Files a sync read and skipped for what their bytes are (`binary`, `minified`), per project:
-- SQLite's migration 0027 says why.
CREATE TABLE skipped_files (
    project text NOT NULL,
    path text NOT NULL,
    size bigint NOT NULL,
    mtime_ns bigint NOT NULL,
    parser text NOT NULL,
    reason text NOT NULL,
    PRIMARY KEY (project, path)
);
