-- The graph's references and edges go with their node or reference as before, by triggers rather
-- than foreign keys (issue 19: the graph pass of a cold sync). SQLite looks up the parent row of
-- every foreign key of every row written: three per edge (its two nodes, its reference), one per
-- reference: about 0.4 s of a cold sync of Django 5.0.6 (`bench/sync_floor.py --django --against`,
-- docs/benchmarks.md, twenty-first session; its 146,424 references and 180,653 edges inserted alone
-- pointed the same way). A trigger costs nothing when a row is written, only when a node or a
-- reference is deleted, as the cascade did.
--
-- What the foreign keys also did, refuse a row naming a node or a reference that is not there, is
-- left to the writers: every id they write is one they allotted or read under the sync's lock, and
-- only a sync deletes nodes and references. The tests check that no sync leaves such a row
-- (tests/graph/test_graph_no_dangling_rows.py).
--
-- The foreign keys themselves are dropped by editing the tables' stored definitions, SQLite's
-- documented procedure for removing a foreign key without touching a row: `store.schema_checks`,
-- run by the migration runner right after this file, in the same transaction. Where SQLite refuses
-- to edit its schema (a build in defensive mode) they stay, checked at their old cost; the triggers
-- then find nothing left to delete.
CREATE TRIGGER graph_nodes_after_delete AFTER DELETE ON graph_nodes BEGIN
    DELETE FROM graph_refs WHERE src = old.id;
    DELETE FROM graph_edges WHERE src = old.id;
    DELETE FROM graph_edges WHERE dst = old.id;
END;

CREATE TRIGGER graph_refs_after_delete AFTER DELETE ON graph_refs BEGIN
    DELETE FROM graph_edges WHERE ref_id = old.id;
END;
