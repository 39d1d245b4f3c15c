-- A node read from a file has that file as its origin, which its path already holds (issue 13:
-- 38,000 paths repeated, and their index, 3 MB on Django). The origin is now stored as ''
-- when it is the node's path (as migration 0017 did for references: the column stays NOT
-- NULL, the index holds the other origins only: ledger, git, a decision record's file when it
-- differs). Readers take `coalesce(nullif(origin, ''), path)`; a query for an origin asks for
-- `origin = ? AND origin <> ''` (this index) or `path = ? AND origin = ''` (graph_nodes_path).
DROP VIEW graph_edges_sourced;
DROP INDEX graph_nodes_origin;

UPDATE graph_nodes SET origin = '' WHERE origin = path;

CREATE INDEX graph_nodes_origin ON graph_nodes (origin) WHERE origin <> '';

-- Every edge with its source spelled out, as the graph serves it (0017's, with a node's
-- origin read from its path when stored as '').
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
