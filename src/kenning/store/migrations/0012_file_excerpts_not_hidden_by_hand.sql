-- Excerpts of project files follow their file (issue 13): a supersede by hand no longer
-- applies to them (lifecycle.SourceOwned), and one made before stayed hidden across every
-- resync. A sync supersedes a file excerpt only once it has lost every location, so a
-- superseded file excerpt that still has one was superseded by hand: it is active again.
UPDATE facts
SET lifecycle = 'active', superseded_by = NULL, lifecycle_reason = NULL, lifecycle_date = NULL
WHERE lifecycle = 'superseded'
  AND source_kind = 'file'
  AND substr(source_uri, 1, 9) <> '.kenning/'
  AND EXISTS (SELECT 1 FROM locations l WHERE l.fact_id = facts.id);
