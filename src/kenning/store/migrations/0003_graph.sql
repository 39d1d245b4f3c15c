-- The declared graph (SPEC §7): nodes, typed edges, and the raw references edges are
-- resolved from. `origin` names what produced a row (a file path, 'ledger', 'git'): when
-- that source changes, everything it produced is dropped and rebuilt.
CREATE TABLE graph_nodes (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL,            -- file, symbol, task, evidence, verdict, decision, commit
    key         TEXT NOT NULL UNIQUE,     -- kind-qualified identity: 'symbol:src/a.py:Cls.run'
    name        TEXT NOT NULL,            -- what people type: path, short symbol name, task id, ADR-0007
    qualname    TEXT NOT NULL DEFAULT '', -- dotted module / qualified symbol / title
    path        TEXT,
    line_start  INTEGER,
    line_end    INTEGER,
    fact_id     INTEGER REFERENCES facts(id) ON DELETE SET NULL,  -- node -> excerpt
    origin      TEXT NOT NULL
);
CREATE INDEX graph_nodes_name ON graph_nodes (name, kind);
CREATE INDEX graph_nodes_qualname ON graph_nodes (qualname);
CREATE INDEX graph_nodes_path ON graph_nodes (path);
CREATE INDEX graph_nodes_fact ON graph_nodes (fact_id);  -- excerpt -> nodes
CREATE INDEX graph_nodes_origin ON graph_nodes (origin);

-- A reference as read from a source, before resolution: "this function calls `rrf_fuse`".
CREATE TABLE graph_refs (
    id          INTEGER PRIMARY KEY,
    origin      TEXT NOT NULL,
    src         INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
    type        TEXT NOT NULL,
    target_kind TEXT NOT NULL,            -- symbol, module, file, task, evidence, decision
    target      TEXT NOT NULL,
    hint        TEXT,                     -- module a name was imported from, when known
    qualified   INTEGER NOT NULL DEFAULT 0,  -- 1: attribute call (obj.name), weaker evidence
    reverse     INTEGER NOT NULL DEFAULT 0,  -- 1: the edge runs target -> src (tested_by)
    link        TEXT NOT NULL CHECK (link IN ('declared', 'heuristic', 'extracted')),
    line        INTEGER,
    source_kind TEXT NOT NULL,
    source_uri  TEXT NOT NULL,
    fingerprint TEXT
);
CREATE INDEX graph_refs_target ON graph_refs (target_kind, target);
CREATE INDEX graph_refs_origin ON graph_refs (origin);

CREATE TABLE graph_edges (
    id          INTEGER PRIMARY KEY,
    src         INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
    dst         INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
    type        TEXT NOT NULL CHECK (type IN ('depends_on', 'evidence_of', 'verdict_of', 'supersedes',
                    'imports', 'calls', 'defines', 'tested_by', 'links_to', 'touches')),
    link        TEXT NOT NULL CHECK (link IN ('declared', 'heuristic', 'extracted')),
    source_kind TEXT NOT NULL,            -- file, commit, task
    source_uri  TEXT NOT NULL,
    fingerprint TEXT,
    line        INTEGER,
    origin      TEXT NOT NULL,            -- informative: edges go with their reference or their nodes
    ref_id      INTEGER REFERENCES graph_refs(id) ON DELETE CASCADE
);
CREATE INDEX graph_edges_src ON graph_edges (src, type);
CREATE INDEX graph_edges_dst ON graph_edges (dst, type);
CREATE INDEX graph_edges_ref ON graph_edges (ref_id);

-- Non-file sources the graph reads: the ledger (stat + fingerprint) and git (last commit read).
CREATE TABLE graph_sources (
    name        TEXT PRIMARY KEY,         -- 'ledger', 'git'
    size        INTEGER,
    mtime_ns    INTEGER,
    fingerprint TEXT,
    cursor      TEXT,
    updated_at  TEXT NOT NULL
) WITHOUT ROWID;
