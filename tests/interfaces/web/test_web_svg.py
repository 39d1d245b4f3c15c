"""The server-drawn pictures: rings around the start node, typed colours, heuristic dashes."""

from __future__ import annotations

from kenning.interfaces.web.svg import EDGE_COLOURS, bars, neighbourhood
from kenning.records import Answer, Dates, Excerpt, Fact, Freshness, FreshnessState, Source


def _excerpt(rank: int, name: str, hops: int, path: tuple[dict, ...]) -> Excerpt:
    fact = Fact(rank, "p", "code", name, "body", Source("file", f"{name}.py"), Dates(None, "2026-11-29"))
    return Excerpt(
        fact,
        Freshness(FreshnessState.CURRENT, "2026-11-29"),
        "",
        1.0,
        rank,
        explain={"node": {"kind": "symbol", "name": name}, "hops": hops},
        path=path,
    )


def _edge(a: str, b: str, type_: str, link: str) -> dict:
    return {"type": type_, "link": link, "from": {"kind": "symbol", "name": a}, "to": {"kind": "symbol", "name": b}}


def test_neighbourhood_puts_the_start_in_the_middle_and_dashes_heuristic_edges():
    answer = Answer(
        "neighbours a",
        "graph",
        "graph.neighbours",
        0,
        ("p",),
        excerpts=(
            _excerpt(1, "a", 0, ()),
            _excerpt(2, "b", 1, (_edge("a", "b", "calls", "extracted"),)),
            _excerpt(3, "c", 1, (_edge("c", "a", "links_to", "heuristic"),)),
            _excerpt(4, "d", 2, (_edge("a", "b", "calls", "extracted"), _edge("b", "d", "imports", "declared"))),
        ),
    )
    picture = neighbourhood(answer)
    rings = {n.label: n.ring for n in picture.nodes}
    assert rings == {"a": 0, "b": 1, "c": 1, "d": 2}
    edges = {(e.source, e.target, e.type): e for e in picture.edges}
    assert len(picture.edges) == 3  # a→b once, though two paths walk it
    assert edges[("c", "a", "links_to")].dashed and not edges[("a", "b", "calls")].dashed
    assert edges[("a", "b", "calls")].colour == EDGE_COLOURS["calls"]
    assert {t for t, _ in picture.legend} == {"calls", "links_to", "imports"}


def test_an_empty_answer_draws_nothing():
    picture = neighbourhood(Answer("neighbours x", "graph", None, 0, ("p",)))
    assert picture.nodes == () and picture.edges == ()


def test_bars_clamp_and_say_null():
    drawn = bars([("a", 0.5), ("b", None), ("c", 1.7)], percent=True, width=100)
    assert [(b.width, b.text) for b in drawn] == [(50.0, "50.0%"), (0.0, "null"), (100.0, "170.0%")]
    assert bars([("mrr", 0.25)], percent=False)[0].text == "0.250"


def test_an_inheritance_answer_s_extends_steps_have_their_own_colour():
    answer = Answer(
        "what extends Base",
        "graph",
        "graph.subclasses",
        0,
        ("p",),
        excerpts=(_excerpt(1, "Child", 1, (_edge("Child", "Base", "extends", "extracted"),)),),
    )
    (edge,) = neighbourhood(answer).edges
    assert edge.type == "extends" and edge.colour == EDGE_COLOURS["extends"] != "#444444"
