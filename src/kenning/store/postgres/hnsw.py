"""The HNSW indexes of migration 0011 (pgvector) and how a search reads them; no numpy here,
so ``kenning status`` reads these without the dense extra."""

# By (embedder, dimension): pgvector indexes one width, so each index is a partial expression
# index over one embedder's vectors of its width (dense/embed.py: MiniLM 384, USE 512).
HNSW = {("minilm", 384): "dense_vectors_hnsw_minilm", ("use", 512): "dense_vectors_hnsw_use"}
# Candidates the index search keeps while walking the graph (pgvector's default is 40): twice
# the hybrid search's dense pool of 50, raised to the pool when a caller asks for more.
EF_SEARCH = 100
# Rows read from the index per question, at least: the client scores them all exactly and keeps
# the best, so the true nearest need only be among these (relaxed order, approximate walk).
CANDIDATES = 100
EF_SEARCH_MAX = 1000  # pgvector's upper bound
