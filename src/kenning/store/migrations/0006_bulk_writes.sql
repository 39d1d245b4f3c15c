-- Cheaper bulk writes (a cold sync inserts tens of thousands of excerpts in one transaction).
--
-- The store's write counter moved once per inserted fact (a trigger firing per row). Inserts
-- now move it once per statement from the code that writes facts (store/facts.py: `insert`,
-- `insert_rows`); updates and deletes still move it through their triggers. Readers only
-- compare it for equality.
DROP TRIGGER store_version_after_fact_insert;

-- FTS5 keeps new terms in memory until this many bytes, then writes a segment (default 1 MB):
-- fewer, larger segments make a bulk insert about a third cheaper. Memory is only used while
-- a transaction writes.
INSERT INTO facts_fts (facts_fts, rank) VALUES ('hashsize', 8388608);
INSERT INTO facts_trigram (facts_trigram, rank) VALUES ('hashsize', 8388608);
