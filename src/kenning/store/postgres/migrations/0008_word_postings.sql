-- Word postings for ranking (store.postgres.fts): per project, word (lexeme) and range of
-- 4,096 ids (appending to a row rewrites it), the facts holding the word with their hit counts
-- per column and their length in words. A question ranks from these short arrays (FTS5's BM25: inverse document
-- frequency from the arrays' sizes, column weights, length normalisation from `word_stats`)
-- instead of reading every matching fact row. Triggers keep both tables in step with
-- `facts.words` on every insert (COPY included), update and delete.
CREATE TABLE word_postings (
    project text NOT NULL,
    lexeme text NOT NULL,
    bucket bigint NOT NULL,  -- id >> 12
    ids bigint[] NOT NULL,
    hits bigint[] NOT NULL,  -- per fact: title + keywords << 16 + path << 32 + body << 48 (hit counts)
    lens integer[] NOT NULL,  -- per fact: its words, all columns (FTS5's document length)
    PRIMARY KEY (project, lexeme, bucket)
);

CREATE TABLE word_stats (
    project text PRIMARY KEY,
    docs bigint NOT NULL,
    words bigint NOT NULL
);

-- The postings of the given facts, appended to their rows; their words added to the counts.
-- (a COPY of 20,000 facts unnests about a million postings: sorted in memory, not on disk).
CREATE FUNCTION kenning_postings_add(p_ids bigint[], p_projects text[], p_words tsvector[]) RETURNS void
LANGUAGE sql SET work_mem = '64MB' AS $$
    WITH e AS MATERIALIZED (
        SELECT n.project, n.id, u.lexeme, cardinality(u.positions) AS times, array_to_string(u.weights, '') AS ws
        FROM unnest(p_ids, p_projects, p_words) AS n(id, project, words), unnest(n.words) AS u
        WHERE u.lexeme <> ' '
    ), l AS MATERIALIZED (
        SELECT project, id, sum(times)::integer AS len FROM e GROUP BY project, id
    ), added AS (
        INSERT INTO word_postings AS w (project, lexeme, bucket, ids, hits, lens)
        SELECT e.project, e.lexeme, e.id >> 12, array_agg(e.id), array_agg(
            (length(ws) - length(replace(ws, 'A', '')))::bigint
            + ((length(ws) - length(replace(ws, 'B', '')))::bigint << 16)
            + ((length(ws) - length(replace(ws, 'C', '')))::bigint << 32)
            + ((length(ws) - length(replace(ws, 'D', '')))::bigint << 48)), array_agg(l.len)
        FROM e JOIN l USING (project, id)
        GROUP BY e.project, e.lexeme, e.id >> 12 ORDER BY 1, 2, 3
        ON CONFLICT (project, lexeme, bucket) DO UPDATE
            SET ids = w.ids || excluded.ids, hits = w.hits || excluded.hits, lens = w.lens || excluded.lens
    )
    INSERT INTO word_stats AS s (project, docs, words)
    SELECT project, count(*), sum(len) FROM l GROUP BY project ORDER BY project
    ON CONFLICT (project) DO UPDATE SET docs = s.docs + excluded.docs, words = s.words + excluded.words;
$$;

-- The postings of the given facts (as they were) taken out of their rows; empty rows go.
CREATE FUNCTION kenning_postings_remove(p_ids bigint[], p_projects text[], p_words tsvector[]) RETURNS void
LANGUAGE sql AS $$
    UPDATE word_postings AS w SET (ids, hits, lens) = (
        SELECT coalesce(array_agg(i), '{}'), coalesce(array_agg(h), '{}'), coalesce(array_agg(n), '{}')
        FROM unnest(w.ids, w.hits, w.lens) AS u(i, h, n) WHERE u.i NOT IN (SELECT unnest(p_ids)))
    WHERE (w.project, w.lexeme, w.bucket) IN (
        SELECT DISTINCT o.project, u.lexeme, o.id >> 12
        FROM unnest(p_ids, p_projects, p_words) AS o(id, project, words), unnest(o.words) AS u
        WHERE u.lexeme <> ' ');
    DELETE FROM word_postings AS w WHERE w.ids = '{}' AND (w.project, w.lexeme, w.bucket) IN (
        SELECT DISTINCT o.project, u.lexeme, o.id >> 12
        FROM unnest(p_ids, p_projects, p_words) AS o(id, project, words), unnest(o.words) AS u
        WHERE u.lexeme <> ' ');
    UPDATE word_stats AS s SET docs = s.docs - g.docs, words = s.words - g.words FROM (
        SELECT o.project, count(*) AS docs, coalesce(sum(l.len), 0) AS words
        FROM unnest(p_ids, p_projects, p_words) AS o(id, project, words),
            LATERAL (SELECT sum(cardinality(u.positions)) AS len FROM unnest(o.words) AS u WHERE u.lexeme <> ' ') AS l
        WHERE l.len IS NOT NULL  -- a fact without a word was never counted
        GROUP BY o.project) AS g
    WHERE s.project = g.project;
$$;

CREATE FUNCTION kenning_postings_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM kenning_postings_add(array_agg(id), array_agg(project), array_agg(words)) FROM new_rows HAVING count(*) > 0;
    RETURN NULL;
END
$$;

CREATE FUNCTION kenning_postings_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM kenning_postings_remove(array_agg(id), array_agg(project), array_agg(words))
    FROM old_rows HAVING count(*) > 0;
    RETURN NULL;
END
$$;

-- A row whose words changed (a title, keywords, path or body rewritten) moves; other updates
-- (lifecycle, dates, fingerprints) do not call anything.
CREATE FUNCTION kenning_postings_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM kenning_postings_remove(ARRAY[OLD.id], ARRAY[OLD.project], ARRAY[OLD.words]);
    PERFORM kenning_postings_add(ARRAY[NEW.id], ARRAY[NEW.project], ARRAY[NEW.words]);
    RETURN NULL;
END
$$;

CREATE TRIGGER facts_postings_insert AFTER INSERT ON facts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION kenning_postings_inserted();
CREATE TRIGGER facts_postings_delete AFTER DELETE ON facts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION kenning_postings_deleted();
CREATE TRIGGER facts_postings_update AFTER UPDATE ON facts
    FOR EACH ROW WHEN (OLD.words IS DISTINCT FROM NEW.words) EXECUTE FUNCTION kenning_postings_updated();

-- The facts already stored, project by project in id ranges.
SELECT kenning_postings_add(array_agg(id), array_agg(project), array_agg(words))
FROM facts GROUP BY project, id >> 16;  -- 65,536 facts a call
