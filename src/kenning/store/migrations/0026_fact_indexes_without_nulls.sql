-- Two indexes of `facts` keep only the rows that have a value (issue 19: a cold sync writes every
-- excerpt once). `superseded_by` and `session_id` are NULL for every excerpt of a file, and a
-- SQLite index holds a NULL entry per row all the same: two B-tree entries written per excerpt that
-- no query reads. A partial index `WHERE x IS NOT NULL` serves every lookup that names a value
-- (`x = ?`, the foreign key's `superseded_by = old.id` when a fact is deleted, a join on
-- `session_id`): SQLite uses a partial index where the query's terms imply its WHERE, and
-- `x = anything` implies `x IS NOT NULL`. Inserting the bench corpus's 60,000 excerpts into
-- `facts`: 0.42 -> 0.37 s of CPU (docs/benchmarks.md, forty-second session of issue 19).
DROP INDEX facts_superseded_by;
CREATE INDEX facts_superseded_by ON facts (superseded_by) WHERE superseded_by IS NOT NULL;
DROP INDEX facts_session;
CREATE INDEX facts_session ON facts (session_id) WHERE session_id IS NOT NULL;
