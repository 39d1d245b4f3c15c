"""A dict used as a cache of at most ``limit`` entries, the oldest inserted dropped first, safe
to fill from several threads (a server answers from several): an entry another thread dropped
meanwhile ends the dropping, never the caller."""

from __future__ import annotations


def keep(cache: dict, key: object, value: object, limit: int) -> None:
    """``cache[key] = value``, after dropping the oldest entries down to ``limit - 1``."""
    while len(cache) >= limit:
        try:
            cache.pop(next(iter(cache)))
        except (StopIteration, RuntimeError, KeyError):  # changed by another thread meanwhile
            break
    cache[key] = value
