"""Retrieval: query parsing, lexical engines, fusion."""
