"""The one token estimate and the cuts that memory replies and the core pack share."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kenning.tokens import cut, cut_paragraphs, estimate

TEXT = st.text(alphabet=st.sampled_from("ab \n."), max_size=300)


def test_the_estimate_is_characters_over_four_rounded_up():
    assert [estimate("x" * n) for n in (0, 1, 4, 5, 8)] == [0, 1, 1, 2, 2]


@given(TEXT, st.integers(min_value=1, max_value=200))
def test_cut_keeps_a_prefix_and_counts_what_it_dropped(text, limit):
    kept, dropped = cut(text, limit)
    assert text.startswith(kept) and len(kept) <= limit
    assert dropped == len(text) - len(kept) and (dropped == 0) == (len(text) <= limit)


@given(TEXT, st.integers(min_value=0, max_value=200))
def test_cut_paragraphs_never_exceeds_its_limit_and_marks_a_cut(text, limit):
    out = cut_paragraphs(text, limit)
    assert len(out) <= limit
    if len(text.strip()) > limit and limit > 1:
        assert out.endswith("…")
