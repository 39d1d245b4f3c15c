-- Two indexes of `facts` made smaller (issue 13: on Django 5.0.6 they were 5 MB of a store
-- still 3.05× its input).
--
-- - `facts_content_hash` held every 64-character hex digest (3.4 MB): the index now holds its
--   first 16 characters (64 bits: a collision among a project's excerpts is a one in 10^10
--   event, and the query still compares the whole digest). A lookup by content hash says
--   `substr(content_hash, 1, 16) = ? AND +content_hash = ?` to use it (without the `+`,
--   SQLite would rewrite the indexed expression into a constant from the second term).
-- - `facts_memory_chrono` ordered every fact by source kind and indexing date (1.7 MB) for
--   the memory timelines, which only read saved notes and memories: it now leaves out the
--   excerpts of files; a query for saved facts says `source_kind <> 'file'` to use it.
DROP INDEX facts_content_hash;
CREATE INDEX facts_content_hash ON facts (substr(content_hash, 1, 16));

DROP INDEX facts_memory_chrono;
CREATE INDEX facts_memory_chrono ON facts (source_kind, date_indexed, id) WHERE source_kind <> 'file';
