"""The process exit code for each typed error (the CLI's mapping; errors.py knows no interface)."""

from __future__ import annotations

from kenning.errors import KenningError, UsageError

USAGE = 2  # the caller asked for something malformed; nothing was changed
FAILURE = 1  # any other typed error (not found, index missing, out of scope, …)


def exit_code(exc: KenningError) -> int:
    return USAGE if isinstance(exc, UsageError) else FAILURE
