-- Graph rows without the text they repeat (issue 13: on Django the graph was more than half
-- of a database 5.7× the size of its input).
--
-- - An edge resolved from a reference (`ref_id`) repeats that reference's source kind, URI,
--   fingerprint, line and origin: those columns are now NULL and read from the reference.
-- - A reference's source URI is, for file references, `origin:line-line`: NULL then.
-- - A file row's fingerprint is its file's, the one the manifest holds for `origin`: NULL
--   then, read from the manifest. Rows of other sources (git, ledger) keep theirs.
-- - A call from a test gave two references (calls, and tested_by reversed) with the same
--   target, line and hint: it is now one, `tested` = 1, resolved into both edges. Rows written
--   before stay as they were (both forms resolve the same way) until their file is re-read.
-- Readers (store/graph.py) coalesce in this order; writers leave out what can be derived.
--
-- The tables are renamed, not dropped first: an edge references its reference with ON DELETE
-- CASCADE, and the renames carry that reference over to the old tables, so dropping them
-- cannot cascade into the new rows.
DROP INDEX graph_refs_target;
DROP INDEX graph_refs_origin;
DROP INDEX graph_refs_src;
DROP INDEX graph_edges_src;
DROP INDEX graph_edges_dst;
DROP INDEX graph_edges_ref;
ALTER TABLE graph_refs RENAME TO graph_refs_before_0013;
ALTER TABLE graph_edges RENAME TO graph_edges_before_0013;

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
    source_uri  TEXT,                     -- NULL: origin || ':' || line || '-' || line
    fingerprint TEXT,                     -- NULL: the manifest's fingerprint of origin
    tested      INTEGER NOT NULL DEFAULT 0   -- 1: a call from a test, also resolved into tested_by
);
INSERT INTO graph_refs (id, origin, src, type, target_kind, target, hint, qualified, reverse, link, line,
                        source_kind, source_uri, fingerprint)
SELECT r.id, r.origin, r.src, r.type, r.target_kind, r.target, r.hint, r.qualified, r.reverse, r.link, r.line,
       r.source_kind,
       CASE WHEN r.source_uri = r.origin || ':' || r.line || '-' || r.line THEN NULL ELSE r.source_uri END,
       CASE WHEN r.source_kind = 'file' AND r.fingerprint = m.fingerprint THEN NULL ELSE r.fingerprint END
FROM graph_refs_before_0013 r LEFT JOIN manifest m ON m.path = r.origin;
CREATE INDEX graph_refs_target ON graph_refs (target_kind, target);
CREATE INDEX graph_refs_origin ON graph_refs (origin);
CREATE INDEX graph_refs_src ON graph_refs (src);  -- migration 0010: node deletes cascade through it

CREATE TABLE graph_edges (
    id          INTEGER PRIMARY KEY,
    src         INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
    dst         INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
    type        TEXT NOT NULL CHECK (type IN ('depends_on', 'evidence_of', 'verdict_of', 'supersedes',
                    'imports', 'calls', 'defines', 'tested_by', 'links_to', 'touches')),
    link        TEXT NOT NULL CHECK (link IN ('declared', 'heuristic', 'extracted')),
    source_kind TEXT,                     -- these five: NULL when read from the reference
    source_uri  TEXT,
    fingerprint TEXT,                     -- NULL also: the manifest's fingerprint of origin
    line        INTEGER,
    origin      TEXT,
    ref_id      INTEGER REFERENCES graph_refs(id) ON DELETE CASCADE,
    CHECK (ref_id IS NOT NULL OR (source_kind IS NOT NULL AND source_uri IS NOT NULL AND origin IS NOT NULL))
);
INSERT INTO graph_edges (id, src, dst, type, link, source_kind, source_uri, fingerprint, line, origin, ref_id)
SELECT e.id, e.src, e.dst, e.type, e.link,
       CASE WHEN e.ref_id IS NULL THEN e.source_kind END,
       CASE WHEN e.ref_id IS NULL THEN e.source_uri END,
       CASE WHEN e.ref_id IS NULL AND NOT (e.source_kind = 'file' AND e.fingerprint IS m.fingerprint)
            THEN e.fingerprint END,
       CASE WHEN e.ref_id IS NULL THEN e.line END,
       CASE WHEN e.ref_id IS NULL THEN e.origin END,
       e.ref_id
FROM graph_edges_before_0013 e LEFT JOIN manifest m ON m.path = e.origin;
CREATE INDEX graph_edges_src ON graph_edges (src, type);
CREATE INDEX graph_edges_dst ON graph_edges (dst, type);
CREATE INDEX graph_edges_ref ON graph_edges (ref_id);

DROP TABLE graph_edges_before_0013;
DROP TABLE graph_refs_before_0013;

-- Every edge with its source spelled out, as the graph serves it.
CREATE VIEW graph_edges_sourced AS
SELECT e.id, e.src, e.dst, e.type, e.link,
       coalesce(e.source_kind, r.source_kind) AS source_kind,
       coalesce(e.source_uri, r.source_uri, r.origin || ':' || r.line || '-' || r.line) AS source_uri,
       coalesce(e.fingerprint, r.fingerprint, m.fingerprint) AS fingerprint,
       coalesce(e.line, r.line) AS line,
       coalesce(e.origin, r.origin) AS origin,
       e.ref_id
FROM graph_edges e
LEFT JOIN graph_refs r ON r.id = e.ref_id
LEFT JOIN manifest m ON m.path = coalesce(e.origin, r.origin);
