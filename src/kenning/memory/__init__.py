"""Agent memory: observations, sessions, summaries, tool uses, and progressive disclosure."""
