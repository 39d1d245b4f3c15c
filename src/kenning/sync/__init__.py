"""The sync service: ingest parses, the graph derives, the store writes."""
