-- Words as SQLite's FTS5 index reads them (its migration 0005: `porter unicode61`):
-- * every run of letters and digits is a word (paths and identifiers split at `/ . _ -`),
-- * stemmed by the Snowball English stemmer, without its stop-word list (FTS5 keeps every
--   word), after unaccent: `runs` finds `run`, `élève` finds `eleve`;
-- * a phrase never spans two columns: a lexeme no query can hold (a space) sits between them.
CREATE TEXT SEARCH DICTIONARY kenning_english_stem (TEMPLATE = snowball, Language = english);
-- (A server without unaccent, migration 0001: the stemmer alone, accents kept as written.)
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_ts_dict WHERE dictname = 'unaccent') THEN
        ALTER TEXT SEARCH CONFIGURATION kenning_simple
            ALTER MAPPING FOR hword, hword_part, word, asciiword, asciihword, hword_asciipart
            WITH unaccent, kenning_english_stem;
    ELSE
        ALTER TEXT SEARCH CONFIGURATION kenning_simple
            ALTER MAPPING FOR hword, hword_part, word, asciiword, asciihword, hword_asciipart
            WITH kenning_english_stem;
    END IF;
END
$$;

DROP INDEX facts_words;
ALTER TABLE facts DROP COLUMN words;
ALTER TABLE facts ADD COLUMN words tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('kenning_simple', regexp_replace(title, '[^[:alnum:]]+', ' ', 'g')), 'A') ||
    $$' ':1$$::tsvector ||
    setweight(to_tsvector('kenning_simple', regexp_replace(keywords, '[^[:alnum:]]+', ' ', 'g')), 'B') ||
    $$' ':1$$::tsvector ||
    setweight(to_tsvector('kenning_simple', regexp_replace(path, '[^[:alnum:]]+', ' ', 'g')), 'C') ||
    $$' ':1$$::tsvector ||
    setweight(to_tsvector('kenning_simple', regexp_replace(body, '[^[:alnum:]]+', ' ', 'g')), 'D')) STORED;
CREATE INDEX facts_words ON facts USING gin (words);
