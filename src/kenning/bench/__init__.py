"""Deterministic evaluation of a project store (SPEC §14): generated questions, measures, report."""
