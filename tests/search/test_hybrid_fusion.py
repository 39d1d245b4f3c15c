"""The two fusions of level 1 (kenning.search.hybrid): weighted RRF and the convex combination
of min-max normalised scores. Pure functions: no model is loaded."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kenning.search.hybrid import FUSION, FUSION_MULTILINGUAL, Fusion, fuse, fuse_convex


def test_convex_fusion_normalises_each_list_and_counts_a_missing_lexical_score_as_zero():
    lexical = [(1, 12.0), (2, 8.0), (3, 4.0)]
    dense = [(4, 0.9), (2, 0.7)]
    cosine = {1: 0.3, 2: 0.7, 3: 0.5, 4: 0.9}  # every candidate's cosine, the lexical ones too
    fused = fuse_convex(lexical, dense, cosine, alpha=0.5)
    scores = {key: round(score, 6) for key, score, _ in fused}
    # lexical: (12, 8, 4) → (1, 0.5, 0); cosine over the candidates: (0.3 … 0.9) → (0 … 1)
    assert scores == {1: 0.5, 2: round(0.25 + 0.5 * 4 / 6, 6), 3: round(0.5 * 2 / 6, 6), 4: 0.5}
    assert [key for key, _, _ in fused] == [2, 1, 4, 3]  # 1 and 4 tie at 0.5: the better single rank first
    parts = dict((key, p) for key, _, p in fused)
    assert parts[4] == {"dense": {"rank": 1, "contribution": 0.5}}  # no lexical part: not in that list
    assert parts[3]["dense"]["rank"] is None and parts[3]["lexical"] == {"rank": 3, "contribution": 0.0}


def test_convex_fusion_with_alpha_one_keeps_the_lexical_order_and_zero_the_dense_one():
    lexical = [(5, 3.0), (6, 2.0), (7, 1.0)]
    cosine = {5: 0.1, 6: 0.9, 7: 0.5, 8: 0.95}
    only_lexical = fuse_convex(lexical, [(8, 0.95)], cosine, alpha=1.0)
    assert [k for k, _, _ in only_lexical] == [5, 6, 8, 7]  # 7 (the lexical minimum) and 8 tie at 0: best rank first
    assert [round(s, 6) for _, s, _ in only_lexical] == [1.0, 0.5, 0.0, 0.0]
    assert [k for k, _, _ in fuse_convex(lexical, [(8, 0.95)], cosine, alpha=0.0)] == [8, 6, 7, 5]


def test_equal_scores_normalise_to_one_not_to_a_division_by_zero():
    fused = fuse_convex([(1, 2.0)], [(1, 0.4)], {1: 0.4}, alpha=0.3)
    assert fused == [(1, 1.0, {"lexical": {"rank": 1, "contribution": 0.3}, "dense": {"rank": 1, "contribution": 0.7}})]


lists = st.lists(st.tuples(st.integers(0, 40), st.floats(0.0, 50.0)), max_size=30, unique_by=lambda p: p[0])


@given(lists, lists, st.floats(0.0, 1.0))
def test_convex_scores_lie_between_zero_and_one_come_out_sorted_and_hold_every_candidate(lex, den, alpha):
    lex = sorted(lex, key=lambda p: -p[1])
    den = sorted(((k, s / 50) for k, s in den), key=lambda p: -p[1])
    cosine = {k: (k % 7) / 7 for k, _ in lex} | dict(den)
    fused = fuse_convex(lex, den, cosine, alpha)
    assert {k for k, _, _ in fused} == {k for k, _ in lex} | {k for k, _ in den}
    assert all(-1e-9 <= s <= 1 + 1e-9 for _, s, _ in fused)
    assert [s for _, s, _ in fused] == sorted((s for _, s, _ in fused), reverse=True)
    assert fuse_convex(lex, den, cosine, alpha) == fused


def test_weighted_rrf_gives_the_dense_list_its_weight():
    fused = fuse({"lexical": [1, 2], "dense": [2, 3]}, {"lexical": 1.0, "dense": 0.5}, k=10)
    scores = {key: score for key, score, _ in fused}
    assert scores == pytest.approx({1: 1 / 11, 2: 1 / 12 + 0.5 / 11, 3: 0.5 / 12})


def test_the_product_settings_are_described_in_explain_terms():
    assert Fusion().describe() == "weighted RRF, k=60"
    assert Fusion("convex", alpha=0.7).describe() == "convex, alpha=0.7 (lexical), min-max normalised"
    assert FUSION_MULTILINGUAL.method == "convex" and FUSION_MULTILINGUAL.alpha == 0.6  # chosen on flask.fr
    assert FUSION_MULTILINGUAL.neighbour == 0  # no non-English conversation to choose a share on
    assert FUSION.method == "convex" and FUSION.alpha == 0.5  # chosen on SciFact train and LoCoMo 1-5
