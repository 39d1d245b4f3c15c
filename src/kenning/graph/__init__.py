"""The declared graph (SPEC §7): build it with the sync, walk it, answer with typed paths."""
