"""Turning project files into excerpts: discovery, parsers, incremental sync."""
