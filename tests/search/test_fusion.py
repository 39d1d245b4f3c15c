from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kenning.search.fusion import RRF_K, rrf_fuse

rankings = st.dictionaries(
    st.sampled_from(["bm25", "trigram", "dense"]),
    st.lists(st.integers(min_value=0, max_value=30), max_size=25),
    min_size=1,
)


@given(rankings)
def test_fused_scores_match_the_reciprocal_rank_formula_and_come_out_sorted(lists):
    fused = rrf_fuse(lists)
    expected: dict[int, float] = {}
    for ranking in lists.values():
        seen: set[int] = set()
        for rank, key in enumerate(ranking, start=1):
            if key not in seen:
                seen.add(key)
                expected[key] = expected.get(key, 0.0) + 1.0 / (RRF_K + rank)
    assert {f.key: round(f.score, 12) for f in fused} == {k: round(v, 12) for k, v in expected.items()}
    scores = [f.score for f in fused]
    assert scores == sorted(scores, reverse=True)


@given(rankings)
def test_fusion_is_deterministic(lists):
    assert [f.key for f in rrf_fuse(lists)] == [f.key for f in rrf_fuse(dict(lists))]


def test_an_item_ranked_by_both_lists_beats_items_ranked_by_one():
    fused = rrf_fuse({"bm25": ["a", "b"], "trigram": ["c", "a"]})
    assert fused[0].key == "a"
    assert fused[0].explain == {"rrf": round(1 / 61 + 1 / 62, 6), "bm25_rank": 1, "trigram_rank": 2}
