-- Two kinds of edges are no longer stored but derived where the graph is read (issue 19: the
-- graph pass of a cold sync; issue 13: the store's size). Of Django 5.0.6's 180,653 edges, 91,325
-- repeated what other rows say:
-- - `defines`, a file to each symbol it holds (34,958): a symbol node names its file (`path`) and
--   its lines, which were the edge's source;
-- - `tested_by` mirrored from a call a test makes (56,367): a resolved call whose reference is
--   `tested` (and neither `reverse` nor itself a `tested_by`) gave two edges with the same
--   reference, the call and, reversed, its `tested_by`.
-- They cost a cold sync of Django 0.31 s of CPU and the store 11 MB with their indexes (132.6 ->
-- 121.3 MB: `bench/sync_floor.py --django --against`, `bench/real_projects.py`; docs/benchmarks.md,
-- issue 19's twenty-eighth session).
--
-- The view every graph read goes through (`graph_edges_sourced`) spells them out again, with ids
-- of their own above any stored edge's: a mirrored `tested_by` is its call's id + 2^40, a
-- `defines` its symbol's node id + 2^41 (the ids only break ties between equal edges, after
-- their ends, sources and lines). A file holding two definitions of one name now has one
-- `defines` edge to its one node, as PostgreSQL's writer now makes it (spanning the lines the node
-- holds). PostgreSQL stores both kinds still; the reads give the same edges.
DROP VIEW graph_edges_sourced;
DELETE FROM graph_edges WHERE type = 'defines' AND ref_id IS NULL;
DELETE FROM graph_edges WHERE type = 'tested_by' AND ref_id IN (
    SELECT id FROM graph_refs WHERE tested = 1 AND reverse = 0 AND type <> 'tested_by'
);

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
LEFT JOIN manifest m ON m.path = coalesce(e.origin, nullif(r.origin, ''), nullif(rn.origin, ''), rn.path)
UNION ALL
SELECT e.id + 1099511627776, e.dst, e.src, 'tested_by', e.link,
       r.source_kind,
       coalesce(
           r.source_uri,
           coalesce(nullif(r.origin, ''), nullif(rn.origin, ''), rn.path) || ':' || r.line || '-' || r.line
       ),
       coalesce(r.fingerprint, m.fingerprint),
       r.line,
       coalesce(nullif(r.origin, ''), nullif(rn.origin, ''), rn.path),
       e.ref_id
FROM graph_edges e
JOIN graph_refs r ON r.id = e.ref_id AND r.tested = 1 AND r.reverse = 0 AND r.type <> 'tested_by' AND r.type = e.type
JOIN graph_nodes rn ON rn.id = r.src
LEFT JOIN manifest m ON m.path = coalesce(nullif(r.origin, ''), nullif(rn.origin, ''), rn.path)
UNION ALL
SELECT s.id + 2199023255552, f.id, s.id, 'defines', 'declared',
       'file', s.path || ':' || s.line_start || '-' || s.line_end, m.fingerprint, s.line_start, s.path, NULL
FROM graph_nodes s
JOIN graph_nodes f ON f.path = s.path AND f.kind = 'file'
LEFT JOIN manifest m ON m.path = s.path
WHERE s.kind = 'symbol';
