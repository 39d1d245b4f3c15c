"""The core pack (SPEC §8): project context, conventions and active decisions, within a
budget, the same bytes for the same sources."""
