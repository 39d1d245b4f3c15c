"""Composing answers in the contract `kenning.answer/v1`."""
