-- A ledger fact's source fingerprint becomes the sha256 of its record instead of the whole
-- ledger file (appending other records no longer makes it stale). Forgetting the ledger's
-- recorded state makes the next sync re-read it and rewrite those fingerprints.
DELETE FROM graph_sources WHERE name = 'ledger';
