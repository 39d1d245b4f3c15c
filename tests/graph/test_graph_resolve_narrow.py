"""Resolution's one-candidate shortcut (``graph.narrow.narrow``, issue 19): a target that names
one node (most of them) gives the node and the link strength the general steps
(``_narrow_among``) give, without indexing the candidates by qualified name and path."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kenning.graph.narrow import Candidates, _narrow_among, narrow

NAMES = st.sampled_from(["", "pkg", "pkg.mod", "pkg.mod.Thing", "other", "pkg.modx", "run"])
PATHS = st.sampled_from([None, "src/a.py", "src/b.py"])


@settings(max_examples=500)
@given(
    path=PATHS,
    qualname=NAMES,
    with_target=st.booleans(),  # the candidate's qualified name ends with the target
    target=st.sampled_from(["run", "Thing", "mod"]),
    hint=st.one_of(st.none(), NAMES),
    qualified=st.booleans(),
    src_path=PATHS,
)
def test_one_candidate_resolves_as_the_general_steps_resolve_it(
    path, qualname, with_target, target, hint, qualified, src_path
):
    qualname = f"{qualname}.{target}" if qualname and with_target else qualname
    candidates = [(7, path, qualname)]
    fast = narrow(Candidates(candidates), target, hint, qualified, src_path)
    general = _narrow_among(Candidates(candidates), target, hint, qualified, src_path)
    assert fast == general


def test_several_candidates_take_the_general_steps():
    candidates = [(1, "src/a.py", "pkg.a.run"), (2, "src/b.py", "pkg.b.run")]
    assert narrow(Candidates(candidates), "run", "pkg.b", False, "src/a.py") == ([candidates[1]], "extracted")
    assert narrow(Candidates(candidates), "run", None, True, "src/c.py") == (candidates, "heuristic")
