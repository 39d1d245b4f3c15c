-- The two full-text indexes merge their segments when eight of one level exist, not four
-- (FTS5's default), issue 19: a cold sync writes one segment per batch (and one more each
-- time 8 MB of terms fill the in-memory table), and the merges at four were half of each
-- commit's work: on the Node.js + npm docs ×10 (41 MB, 61,498 excerpts, six batches) 0.62 of
-- 2.08 s of CPU for the two indexes alone, 0.35 at eight (the same at sixteen), and the
-- file 4 MB smaller (the pages a merge frees stay in the file). An index then holds up to
-- seven segments of a level where it held three; a query reads each one's entry for a term.
-- Only new writes follow it; the segments already merged stay as they are.
INSERT INTO facts_fts (facts_fts, rank) VALUES ('automerge', 8);
INSERT INTO facts_trigram (facts_trigram, rank) VALUES ('automerge', 8);
