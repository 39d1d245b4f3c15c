-- The store's write counter moved once per inserted fact (a trigger firing per row): a sync
-- inserting 60,000 excerpts paid 60,000 extra updates. Inserts now move it once per statement
-- from the code that writes facts (store/facts.py: `insert`, `insert_rows`); updates and
-- deletes still move it through their triggers. Readers only compare it for equality.
DROP TRIGGER store_version_after_fact_insert;
