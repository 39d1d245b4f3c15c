-- Level 2 memory: sessions, their summaries, raw tool uses and guided-search cursors, per
-- project (SQLite: migration 0002 and its successors).
CREATE TABLE sessions (
    project text NOT NULL,
    id text NOT NULL,
    started text NOT NULL,
    ended text,
    cwd text,
    PRIMARY KEY (project, id)
);

CREATE TABLE session_summaries (
    fact_id bigint PRIMARY KEY REFERENCES facts (id) ON DELETE CASCADE,
    project text NOT NULL,
    session_id text NOT NULL,
    request text NOT NULL DEFAULT '',
    investigated text NOT NULL DEFAULT '',
    learned text NOT NULL DEFAULT '',
    completed text NOT NULL DEFAULT '',
    next_steps text NOT NULL DEFAULT '',
    FOREIGN KEY (project, session_id) REFERENCES sessions (project, id) ON DELETE CASCADE
);

-- Which session saved a fact.
ALTER TABLE facts ADD COLUMN session_id text;

CREATE TABLE tool_uses (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project text NOT NULL,
    tool_use_id text,
    session_id text NOT NULL,
    tool text NOT NULL,
    input text NOT NULL,
    response text NOT NULL,
    cwd text,
    created text NOT NULL,
    UNIQUE (project, tool_use_id),
    FOREIGN KEY (project, session_id) REFERENCES sessions (project, id) ON DELETE CASCADE
);
CREATE INDEX tool_uses_session ON tool_uses (project, session_id, id);

CREATE TABLE search_cursors (
    project text NOT NULL,                -- the store's project (the row filter)
    token text NOT NULL,
    scope text NOT NULL,                  -- the project the cursor searches (SQLite: its `project`)
    step integer NOT NULL CHECK (step IN (1, 2)),
    query text NOT NULL,
    options text NOT NULL,
    disclosed text NOT NULL,
    membership text NOT NULL,
    created text NOT NULL,
    expires text NOT NULL,
    closed integer NOT NULL DEFAULT 0,
    PRIMARY KEY (project, token)
);
CREATE INDEX search_cursors_expires ON search_cursors (expires);
