-- Where a fact's `dates.source` comes from (issue 13): `commit` (the last commit that touched
-- a file unmodified since, or a commit fact's own date), `mtime` (the file's modification
-- time), `declared` (a date the source states: front matter, an ADR, a ledger record) or
-- `saved` (when a memory or note was saved). Rows written before are classified from what
-- they hold; a file excerpt dated by its mtime is dated from git when its file is next read.
ALTER TABLE facts ADD COLUMN date_source_kind TEXT
    CHECK (date_source_kind IN ('commit', 'mtime', 'declared', 'saved'));

UPDATE facts
SET date_source_kind = CASE
    WHEN source_kind = 'commit' THEN 'commit'
    WHEN source_kind <> 'file' THEN 'saved'
    WHEN source_uri LIKE '.kenning/ledger.jsonl#%' THEN 'declared'
    WHEN json_extract(meta, '$.front_matter.date') IS NOT NULL
      OR json_extract(meta, '$.decision.date') IS NOT NULL THEN 'declared'
    ELSE 'mtime'
END
WHERE date_source IS NOT NULL;
