-- A counter that moves with every write to `facts` (insert, update, delete). Whatever is
-- derived from the store and cached (the core pack) records it when built, and a reader
-- (the session-start hook) compares it in O(1) instead of scanning the table.
CREATE TABLE store_version (
    id      INTEGER PRIMARY KEY CHECK (id = 1),
    version INTEGER NOT NULL
);
INSERT INTO store_version (id, version) VALUES (1, 0);

CREATE TRIGGER store_version_after_fact_insert AFTER INSERT ON facts BEGIN
    UPDATE store_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER store_version_after_fact_update AFTER UPDATE ON facts BEGIN
    UPDATE store_version SET version = version + 1 WHERE id = 1;
END;

CREATE TRIGGER store_version_after_fact_delete AFTER DELETE ON facts BEGIN
    UPDATE store_version SET version = version + 1 WHERE id = 1;
END;
