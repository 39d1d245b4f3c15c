"""The rule router (SPEC §9): which mode answers a question, and why."""
