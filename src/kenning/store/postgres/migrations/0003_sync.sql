-- Level 2 sync: the manifest of indexed files and the log of sync runs, per project.
CREATE TABLE manifest (
    project text NOT NULL,
    path text NOT NULL,
    size bigint NOT NULL,
    mtime_ns bigint NOT NULL,
    fingerprint text NOT NULL,
    parser text NOT NULL,
    indexed_at text NOT NULL,
    excerpts integer NOT NULL,
    PRIMARY KEY (project, path)
);

CREATE TABLE sync_runs (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project text NOT NULL,
    finished text NOT NULL,
    report text NOT NULL
);
CREATE INDEX sync_runs_project ON sync_runs (project, id);

-- A fact's places are read by fact (freshness, re-pointing) as often as by path.
CREATE INDEX locations_fact ON locations (fact_id, path, uri);
CREATE INDEX facts_project_uri ON facts (project, source_uri);
