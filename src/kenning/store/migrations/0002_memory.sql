-- Agent memory: observations are facts (type `observation`, producer `agent` or `human`,
-- source kind `session` or `manual`); these tables hold what a fact row cannot.

-- The session an observation or summary was written in (NULL for notes outside a session).
ALTER TABLE facts ADD COLUMN session_id TEXT;
CREATE INDEX facts_session ON facts (session_id);
CREATE INDEX facts_memory_chrono ON facts (source_kind, date_indexed, id);

-- Agent sessions, opened by the first write that names them.
CREATE TABLE sessions (
    id       TEXT PRIMARY KEY,
    project  TEXT NOT NULL,
    started  TEXT NOT NULL,
    ended    TEXT,
    cwd      TEXT
) WITHOUT ROWID;

-- Session summaries: each is also a fact (type `session_summary`) so that it is searched,
-- cited and aged like any other; this table keeps its five parts.
CREATE TABLE session_summaries (
    fact_id      INTEGER PRIMARY KEY REFERENCES facts(id) ON DELETE CASCADE,
    session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    request      TEXT NOT NULL DEFAULT '',
    investigated TEXT NOT NULL DEFAULT '',
    learned      TEXT NOT NULL DEFAULT '',
    completed    TEXT NOT NULL DEFAULT '',
    next_steps   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX session_summaries_session ON session_summaries (session_id);

-- Raw tool uses recorded by `kenning hook post-tool-use` (exact I/O, the last layer).
CREATE TABLE tool_uses (
    id          INTEGER PRIMARY KEY,
    tool_use_id TEXT UNIQUE,
    session_id  TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    tool        TEXT NOT NULL,
    input       TEXT NOT NULL,
    response    TEXT NOT NULL,
    cwd         TEXT,
    created     TEXT NOT NULL
);
CREATE INDEX tool_uses_session ON tool_uses (session_id, id);

-- Guided search state (mem_search): kept here so that a cursor survives a server restart.
-- The token handed to the agent is opaque; rows, options and scope never leave the server.
CREATE TABLE search_cursors (
    token      TEXT PRIMARY KEY,
    step       INTEGER NOT NULL CHECK (step IN (1, 2)),
    project    TEXT NOT NULL,
    query      TEXT NOT NULL,
    options    TEXT NOT NULL,
    disclosed  TEXT NOT NULL,
    membership TEXT NOT NULL,
    created    TEXT NOT NULL,
    expires    TEXT NOT NULL,
    closed     INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX search_cursors_expires ON search_cursors (expires);
