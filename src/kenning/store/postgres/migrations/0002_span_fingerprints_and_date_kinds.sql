-- Issue 13, as SQLite's migrations 0014 and 0015: a location keeps the fingerprint of its own
-- span (its excerpt's content hash) instead of its file's, and a fact says where its source
-- date comes from (`date_source_kind`: commit, mtime, declared, saved).
UPDATE locations l
SET fingerprint = f.content_hash
FROM facts f
WHERE f.id = l.fact_id AND l.project = f.project AND l.path <> '.kenning/ledger.jsonl';

ALTER TABLE facts ADD COLUMN date_source_kind text
    CHECK (date_source_kind IN ('commit', 'mtime', 'declared', 'saved'));

UPDATE facts
SET date_source_kind = CASE
    WHEN source_kind = 'commit' THEN 'commit'
    WHEN source_kind <> 'file' THEN 'saved'
    WHEN source_uri LIKE '.kenning/ledger.jsonl#%' THEN 'declared'
    WHEN meta::jsonb #>> '{front_matter,date}' IS NOT NULL
      OR meta::jsonb #>> '{decision,date}' IS NOT NULL THEN 'declared'
    ELSE 'mtime'
END
WHERE date_source IS NOT NULL;
