-- Excerpt bodies stored compressed (issue 13: on Django 5.0.6 the bodies were 25 MB and the
-- keywords 5 MB of a 154 MB store, 3.5× the input). A fact derived from a file or a commit
-- (producer 'projection') stores its keywords and body as one BLOB in `body`, the UTF-8 of
-- `keywords NUL body` deflated, its `keywords` left '', when that is shorter; saved notes
-- and memories stay TEXT (store/bodies.py). `kenning_text(body)` and
-- `kenning_keywords(body, keywords)` give the texts back: kenning registers them on every
-- connection it opens. This file names no such function (any SQLite can apply it); the rows a
-- store already holds are packed right after it, in the same transaction, by
-- `store.bodies.pack_stored` (migrations_runner.AFTER). A row left as TEXT stays valid.
--
-- The word index keeps its tokens (fed the plain text at write time: ranking is unchanged)
-- but reads its content through the view `facts_text`, which spells the texts out, so that
-- FTS5's 'rebuild' and 'integrity-check' see them. Keeping the word index in step with
-- `facts` needs the text a row had, hence `kenning_text`: SQLite resolves a trigger's
-- functions when any statement that fires it is prepared, so a trigger naming it would stop
-- every other tool from even preparing an UPDATE of `facts`. The word index's triggers are
-- therefore TEMP triggers that kenning creates on each connection it opens (store/bodies.py:
-- `facts_words_after_delete`, `facts_words_after_update`: the statements the earlier
-- triggers ran, with the texts); the trigram index (titles and paths), which still reads
-- `facts`, keeps its triggers here. A tool writing `facts` without kenning leaves the word
-- index behind; `INSERT INTO facts_fts (facts_fts) VALUES ('rebuild')` on a kenning
-- connection brings it back.
DROP TRIGGER facts_after_delete;
DROP TRIGGER facts_after_update;
DROP TABLE facts_fts;

CREATE VIEW facts_text AS
SELECT id, title, kenning_keywords(body, keywords) AS keywords, path, kenning_text(body) AS body FROM facts;

CREATE VIRTUAL TABLE facts_fts USING fts5(
    title, keywords, path, body,
    content = 'facts_text', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO facts_fts (facts_fts, rank) VALUES ('rank', 'bm25(2.0, 1.5, 1.2, 1.0)');
INSERT INTO facts_fts (facts_fts, rank) VALUES ('hashsize', 8388608);
-- The texts are still plain here (the rows are packed after this file, below): the index is
-- filled from `facts` directly, as 'rebuild' would from the view.
INSERT INTO facts_fts (rowid, title, keywords, path, body) SELECT id, title, keywords, path, body FROM facts;

CREATE TRIGGER facts_after_delete AFTER DELETE ON facts BEGIN
    INSERT INTO facts_trigram (facts_trigram, rowid, title, path)
        VALUES ('delete', old.id, old.title, old.path);
END;

CREATE TRIGGER facts_after_update AFTER UPDATE OF title, path ON facts BEGIN
    INSERT INTO facts_trigram (facts_trigram, rowid, title, path)
        VALUES ('delete', old.id, old.title, old.path);
    INSERT INTO facts_trigram (rowid, title, path)
        VALUES (new.id, new.title, new.path);
END;
