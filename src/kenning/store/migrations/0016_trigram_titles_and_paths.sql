-- The trigram index covers titles and paths only, no longer keywords (issue 13: on Django the
-- trigram index was 24 MB, more than the word index, and keywords made 17 of it). A code
-- excerpt's keywords repeat its title's qualified name, the words split out of it, its
-- parameter names and its module (dotted and split, which the path already spells): every
-- one of these is still in the word index, and the qualified name, which a substring search
-- is for (`rrf_fu`), is in the title. Measured on the three projects of
-- bench/real_projects.py: recall@5 unchanged, index 12 MB smaller (docs/benchmarks.md).
--
-- The triggers name the trigram columns: they are dropped and recreated with the table.
DROP TRIGGER facts_after_delete;
DROP TRIGGER facts_after_update;
DROP TABLE facts_trigram;

CREATE VIRTUAL TABLE facts_trigram USING fts5(
    title, path,
    content = 'facts', content_rowid = 'id',
    tokenize = 'trigram'
);
INSERT INTO facts_trigram (facts_trigram, rank) VALUES ('hashsize', 8388608);
INSERT INTO facts_trigram (facts_trigram) VALUES ('rebuild');

CREATE TRIGGER facts_after_delete AFTER DELETE ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, title, keywords, path, body)
        VALUES ('delete', old.id, old.title, old.keywords, old.path, old.body);
    INSERT INTO facts_trigram (facts_trigram, rowid, title, path)
        VALUES ('delete', old.id, old.title, old.path);
END;

CREATE TRIGGER facts_after_update AFTER UPDATE OF title, keywords, path, body ON facts BEGIN
    INSERT INTO facts_fts (facts_fts, rowid, title, keywords, path, body)
        VALUES ('delete', old.id, old.title, old.keywords, old.path, old.body);
    INSERT INTO facts_trigram (facts_trigram, rowid, title, path)
        VALUES ('delete', old.id, old.title, old.path);
    INSERT INTO facts_fts (rowid, title, keywords, path, body)
        VALUES (new.id, new.title, new.keywords, new.path, new.body);
    INSERT INTO facts_trigram (rowid, title, path)
        VALUES (new.id, new.title, new.path);
END;
