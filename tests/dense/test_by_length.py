"""A sync embeds the pending excerpts it reads at once shortest first (``dense.index.by_length``):
a batch is padded to its longest text, so batches of like lengths pad less; each batch keeps its
rows and the texts they are embedded from together."""

from __future__ import annotations

from kenning.dense.index import BATCH, by_length, text_of


def row(fact_id: int, kind: str, body: str) -> tuple[int, str, str, str, str, str]:
    return (fact_id, kind, f"t{fact_id}", body, "{}", f"hash{fact_id}")


def test_batches_hold_the_shortest_texts_first_each_with_its_rows():
    rows = [row(i, "code", "x = 1\n" * ((i * 7) % 20 + 1)) for i in range(20)]
    batches = by_length(rows)
    assert [len(b) for b, _ in batches] == [BATCH, BATCH, 20 - 2 * BATCH]
    texts = [t for _, ts in batches for t in ts]
    assert [len(t) for t in texts] == sorted(len(t) for t in texts)
    for batch, batch_texts in batches:  # each text is its own row's
        assert batch_texts == [text_of(kind, title, body, meta) for _, kind, title, body, meta, _ in batch]
    assert sorted(r[0] for b, _ in batches for r in b) == list(range(20))  # every row once


def test_nothing_pending_gives_no_batch():
    assert by_length([]) == []
