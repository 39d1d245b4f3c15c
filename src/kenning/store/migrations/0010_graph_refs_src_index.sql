-- graph_refs.src cascades from graph_nodes: without an index, every deleted node scanned the
-- whole table (one file's delete took 9.1 s on a 27 MB corpus; 0.06 s with the index).
CREATE INDEX IF NOT EXISTS graph_refs_src ON graph_refs (src);
