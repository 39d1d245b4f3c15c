-- A session memory's neighbours (store.memory.session_neighbours, read by every hybrid answer)
-- walk this index backwards and forwards from the memory; SQLite has had its twin since 0002.
CREATE INDEX facts_session ON facts (project, session_id, id);
