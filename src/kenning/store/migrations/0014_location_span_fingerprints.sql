-- Freshness per excerpt (issue 13): a location keeps the fingerprint of its own span — the
-- content hash of its excerpt (type, title, body), which identical content shares — instead
-- of its whole file's (the manifest holds that one). A ledger record's location already kept
-- its record's fingerprint (migration 0008) and keeps it.
UPDATE locations
SET fingerprint = (SELECT f.content_hash FROM facts f WHERE f.id = locations.fact_id)
WHERE path <> '.kenning/ledger.jsonl';
