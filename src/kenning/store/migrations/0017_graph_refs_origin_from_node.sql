-- A reference's origin is, nearly always, the origin of the node it starts from (issue 13: on
-- Django the origin column and its index took 11 MB, a path repeated for each of 143,000
-- references). It is now stored as '' when it is its source node's origin and read from
-- that node; only a reference whose node another source wrote keeps its own. The column
-- stays NOT NULL (rebuilding the table would cascade into the edges), hence '' rather than
-- NULL; the index holds the explicit origins only, and a query asking for an origin says
-- `origin = ? AND origin <> ''` to use it. A source's references whose origin is '' go when
-- its nodes go (graph_refs.src cascades).
DROP VIEW graph_edges_sourced;
DROP INDEX graph_refs_origin;

UPDATE graph_refs SET origin = ''
WHERE origin = (SELECT n.origin FROM graph_nodes n WHERE n.id = graph_refs.src);

CREATE INDEX graph_refs_origin ON graph_refs (origin) WHERE origin <> '';

-- Every edge with its source spelled out, as the graph serves it (as in 0013, with a
-- reference's origin read from its source node when stored as '').
CREATE VIEW graph_edges_sourced AS
SELECT e.id, e.src, e.dst, e.type, e.link,
       coalesce(e.source_kind, r.source_kind) AS source_kind,
       coalesce(e.source_uri, r.source_uri, coalesce(nullif(r.origin, ''), rn.origin) || ':' || r.line || '-' || r.line)
           AS source_uri,
       coalesce(e.fingerprint, r.fingerprint, m.fingerprint) AS fingerprint,
       coalesce(e.line, r.line) AS line,
       coalesce(e.origin, nullif(r.origin, ''), rn.origin) AS origin,
       e.ref_id
FROM graph_edges e
LEFT JOIN graph_refs r ON r.id = e.ref_id
LEFT JOIN graph_nodes rn ON rn.id = r.src
LEFT JOIN manifest m ON m.path = coalesce(e.origin, nullif(r.origin, ''), rn.origin);
