"""``bounded.keep``: the caches servers fill (freshness's re-split files, the word index's
matches) stay at most their size, the oldest entry dropped first."""

from __future__ import annotations

from kenning.bounded import keep


def test_keep_drops_the_oldest_entries_down_to_the_limit():
    cache: dict[str, int] = {}
    for n in range(5):
        keep(cache, f"k{n}", n, 3)
    assert cache == {"k2": 2, "k3": 3, "k4": 4}
    keep(cache, "k3", 30, 3)  # a key already there: the oldest still goes first
    assert cache == {"k3": 30, "k4": 4}
