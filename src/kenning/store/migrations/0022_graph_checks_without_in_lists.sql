-- The same constraints on graph edges and references, spelled so that SQLite checks them cheaply
-- (issue 19: the graph pass of a cold sync). SQLite (3.40 here) checks `type IN ('a', 'b', …)`
-- in a CHECK constraint by building a small lookup table for every row written: inserting
-- Django's 191,732 edges into graph_edges took 1.41 s of CPU with its two IN lists, 0.66 s with
-- the same tests spelled `type = 'a' OR type = 'b' OR …`, 0.63 s with no such test (in memory,
-- the other constraints kept). The accepted values are unchanged.
--
-- The tables are rebuilt as in 0013: renamed first (an edge references its reference with ON
-- DELETE CASCADE, and the renames carry that reference over to the old tables, so dropping
-- them cannot cascade into the new rows), then copied with their ids, then dropped.
DROP VIEW graph_edges_sourced;
DROP INDEX graph_refs_target;
DROP INDEX graph_refs_origin;
DROP INDEX graph_refs_src;
DROP INDEX graph_edges_src;
DROP INDEX graph_edges_dst;
DROP INDEX graph_edges_ref;
ALTER TABLE graph_refs RENAME TO graph_refs_before_0022;
ALTER TABLE graph_edges RENAME TO graph_edges_before_0022;

CREATE TABLE graph_refs (
    id          INTEGER PRIMARY KEY,
    origin      TEXT NOT NULL,            -- '': the source node's origin (0017)
    src         INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
    type        TEXT NOT NULL,
    target_kind TEXT NOT NULL,            -- symbol, module, file, task, evidence, decision
    target      TEXT NOT NULL,
    hint        TEXT,                     -- module a name was imported from, when known
    qualified   INTEGER NOT NULL DEFAULT 0,  -- 1: attribute call (obj.name), weaker evidence
    reverse     INTEGER NOT NULL DEFAULT 0,  -- 1: the edge runs target -> src (tested_by)
    link        TEXT NOT NULL CHECK (link = 'declared' OR link = 'heuristic' OR link = 'extracted'),
    line        INTEGER,
    source_kind TEXT NOT NULL,
    source_uri  TEXT,                     -- NULL: origin || ':' || line || '-' || line
    fingerprint TEXT,                     -- NULL: the manifest's fingerprint of origin
    tested      INTEGER NOT NULL DEFAULT 0   -- 1: a call from a test, also resolved into tested_by
);
INSERT INTO graph_refs (id, origin, src, type, target_kind, target, hint, qualified, reverse, link, line,
                        source_kind, source_uri, fingerprint, tested)
SELECT id, origin, src, type, target_kind, target, hint, qualified, reverse, link, line,
       source_kind, source_uri, fingerprint, tested
FROM graph_refs_before_0022;
CREATE INDEX graph_refs_target ON graph_refs (target_kind, target);
CREATE INDEX graph_refs_origin ON graph_refs (origin) WHERE origin <> '';
CREATE INDEX graph_refs_src ON graph_refs (src);

CREATE TABLE graph_edges (
    id          INTEGER PRIMARY KEY,
    src         INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
    dst         INTEGER NOT NULL REFERENCES graph_nodes(id) ON DELETE CASCADE,
    type        TEXT NOT NULL CHECK (
                    type = 'depends_on' OR type = 'evidence_of' OR type = 'verdict_of' OR type = 'supersedes'
                    OR type = 'imports' OR type = 'calls' OR type = 'defines' OR type = 'tested_by'
                    OR type = 'links_to' OR type = 'touches'),
    link        TEXT NOT NULL CHECK (link = 'declared' OR link = 'heuristic' OR link = 'extracted'),
    source_kind TEXT,                     -- these five: NULL when read from the reference
    source_uri  TEXT,
    fingerprint TEXT,                     -- NULL also: the manifest's fingerprint of origin
    line        INTEGER,
    origin      TEXT,
    ref_id      INTEGER REFERENCES graph_refs(id) ON DELETE CASCADE,
    CHECK (ref_id IS NOT NULL OR (source_kind IS NOT NULL AND source_uri IS NOT NULL AND origin IS NOT NULL))
);
INSERT INTO graph_edges (id, src, dst, type, link, source_kind, source_uri, fingerprint, line, origin, ref_id)
SELECT id, src, dst, type, link, source_kind, source_uri, fingerprint, line, origin, ref_id
FROM graph_edges_before_0022;
CREATE INDEX graph_edges_src ON graph_edges (src, type);
CREATE INDEX graph_edges_dst ON graph_edges (dst, type);
CREATE INDEX graph_edges_ref ON graph_edges (ref_id);

DROP TABLE graph_edges_before_0022;
DROP TABLE graph_refs_before_0022;

-- Every edge with its source spelled out, as the graph serves it (0018's).
CREATE VIEW graph_edges_sourced AS
SELECT e.id, e.src, e.dst, e.type, e.link,
       coalesce(e.source_kind, r.source_kind) AS source_kind,
       coalesce(
           e.source_uri, r.source_uri,
           coalesce(nullif(r.origin, ''), nullif(rn.origin, ''), rn.path) || ':' || r.line || '-' || r.line
       ) AS source_uri,
       coalesce(e.fingerprint, r.fingerprint, m.fingerprint) AS fingerprint,
       coalesce(e.line, r.line) AS line,
       coalesce(e.origin, nullif(r.origin, ''), nullif(rn.origin, ''), rn.path) AS origin,
       e.ref_id
FROM graph_edges e
LEFT JOIN graph_refs r ON r.id = e.ref_id
LEFT JOIN graph_nodes rn ON rn.id = r.src
LEFT JOIN manifest m ON m.path = coalesce(e.origin, nullif(r.origin, ''), nullif(rn.origin, ''), rn.path);
