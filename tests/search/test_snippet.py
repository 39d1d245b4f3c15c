"""An answer's snippet: the window of an excerpt's body where the question's terms gather."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from kenning.search.snippet import WIDTH, densest, make_snippet

# One excerpt packing a page's short sections (reStructuredText packs them up to 2,400 characters).
PAGE = (
    "Authentication\n==============\n\nThis document discusses using various kinds of authentication. "
    + "Many web services require authentication, and there are many different types. " * 4
    + "\n\nBasic Authentication\n--------------------\n\nThe simplest kind, supported out of the box. " * 2
    + "\n\nDigest Authentication\n---------------------\n\nAnother popular form of HTTP authentication is "
    "Digest Authentication, and it is supported out of the box as well.\n"
)


def test_the_snippet_shows_the_part_that_holds_most_of_the_question_not_its_first_word():
    snippet = make_snippet(PAGE, ("use", "digest", "authentication"))
    assert "Digest Authentication" in snippet  # "authentication" first appears in the title, far before
    assert snippet.startswith("…") and len(snippet) <= WIDTH + 2


def test_one_term_shows_its_first_occurrence_and_no_term_the_beginning():
    assert make_snippet(PAGE, ("basic",)).startswith("…") and "Basic Authentication" in make_snippet(PAGE, ("basic",))
    assert make_snippet(PAGE, ("zanzibar",)).startswith("Authentication ==============")
    assert make_snippet(PAGE, ()).startswith("Authentication")


def test_a_term_that_differs_by_its_accents_only_is_found():
    body = "Intro. " * 60 + "La fraîcheur de chaque extrait est calculée à la lecture."
    assert "fraîcheur" in make_snippet(body, ("fraicheur",))


def test_the_densest_run_is_the_earliest_and_starts_at_its_last_repeat():
    text = "a x x x x b x x x x a b"  # "a" at 0, "b" at 10, "a" at 20, "b" at 22
    assert densest(text, ["a", "b"], span=5) == 20  # the first run holding both
    assert densest(text, ["a", "b"], span=12) == 0  # 0-10 holds both: the earliest
    assert densest("b a a b", ["a", "b"], span=10) == 0
    assert densest("a a b", ["a", "b"], span=10) == 2  # the repeated "a" before the run's last one left out
    assert densest("nothing here", ["a1"], span=10) is None


@given(st.text(alphabet="ab cd", max_size=600), st.lists(st.sampled_from(["a", "b", "cd", "zz"]), max_size=3))
def test_a_snippet_is_a_window_of_the_flattened_body(body, terms):
    snippet = make_snippet(body, tuple(terms))
    assert snippet.strip("…") in " ".join(body.split())
    assert len(snippet) <= WIDTH + 2
