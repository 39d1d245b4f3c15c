-- pgvector's HNSW index over the dense vectors, when `CREATE EXTENSION vector` succeeds here (the
-- server has pgvector and kenning's role may create it). Otherwise nothing changes: vectors stay
-- `bytea`, scored exactly in the client, and `kenning status` says which (store/postgres/status.py).

-- The float32 little-endian bytes of `dense_vectors.vector` (the SQLite BLOB's) as `real[]`,
-- bit for bit: sign, exponent and mantissa rebuilt in float8, where every float32 is exact.
CREATE FUNCTION kenning_vector_floats(bytes bytea) RETURNS real[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $f$
SELECT array_agg((CASE WHEN e = 0 THEN m * power(2::float8, -149)
                       ELSE (m + 8388608) * power(2::float8, e - 150) END * (1 - 2 * s))::real ORDER BY i)
FROM (SELECT i, b >> 31 AS s, (b >> 23) & 255 AS e, b & 8388607 AS m
      FROM (SELECT i, get_byte(bytes, 4 * i)::bigint | (get_byte(bytes, 4 * i + 1)::bigint << 8)
                      | (get_byte(bytes, 4 * i + 2)::bigint << 16) | (get_byte(bytes, 4 * i + 3)::bigint << 24) AS b
            FROM generate_series(0, length(bytes) / 4 - 1) AS i) AS words) AS parts
$f$;

DO $$
BEGIN
    BEGIN
        CREATE EXTENSION IF NOT EXISTS vector;
    EXCEPTION WHEN OTHERS THEN  -- not installed on the server, or not creatable by this role
        RAISE NOTICE 'pgvector not in service (%): dense vectors are scored exactly in the client', SQLERRM;
        RETURN;
    END;
    -- The pgvector copy of each vector, kept by the server from the bytes: written, edited and
    -- deleted with its row, never out of step (an existing row gets its copy here).
    ALTER TABLE dense_vectors ADD COLUMN embedding vector
        GENERATED ALWAYS AS (kenning_vector_floats(vector)::vector) STORED;
    -- pgvector indexes one dimension: one partial expression index per embedder kenning ships
    -- (dense/embed.py), for vectors of that width only (a custom `model_path` under `minilm` with
    -- another width is scanned exactly). Vectors are L2-normalised: inner product is the cosine.
    CREATE INDEX dense_vectors_hnsw_minilm ON dense_vectors
        USING hnsw ((embedding::vector(384)) vector_ip_ops)
        WHERE embedder = 'minilm' AND octet_length(vector) = 1536;
    CREATE INDEX dense_vectors_hnsw_use ON dense_vectors
        USING hnsw ((embedding::vector(512)) vector_ip_ops)
        WHERE embedder = 'use' AND octet_length(vector) = 2048;
END
$$;
