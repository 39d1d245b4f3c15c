-- A fact id is never given twice. `kenning forget` deletes a fact; without this, the next
-- fact could take the same id (SQLite gives max(id) + 1), and an old citation
-- kn://project/42 would then serve an unrelated fact instead of "not found".
-- The highest id ever deleted is kept here; new ids start above it (store/facts.py).
CREATE TABLE fact_id_floor (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    highest INTEGER NOT NULL
);
INSERT INTO fact_id_floor (id, highest) VALUES (1, 0);

CREATE TRIGGER fact_id_floor_after_delete AFTER DELETE ON facts BEGIN
    UPDATE fact_id_floor SET highest = max(highest, OLD.id) WHERE id = 1;
END;
