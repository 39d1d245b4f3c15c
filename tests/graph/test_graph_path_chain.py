"""Among the shortest paths between two nodes, ``graph path`` takes the one that reads as a chain
(graph/paths.py): ripgrep, walked as a new user, went ``parse_low → new → push ← parse_reader``
through two guessed ``push`` calls, where ``parse_low → args → parse → parse_reader`` is as short,
all its calls one way and certain."""

from __future__ import annotations

import pytest
from graph_edges import path_hits

from store.pg_engine import ENGINE, synced_on  # tests/store: the PostgreSQL test server

# ``new`` comes first in every order a walk reads (defined first, called first): the path through it
# and the guessed ``push`` calls is the one a breadth-first walk meets first
CODE = {
    "app/cli.py": ("from app.parse import args, new\n\n\ndef parse_low():\n    new()\n    args()\n"),
    "app/parse.py": (
        "def new():\n    stack.push(1)\n\n\n"
        "def args():\n    return parse()\n\n\n"
        "def parse():\n    return parse_reader()\n\n\n"
        "def parse_reader():\n    items.push(2)\n"
    ),
    "app/stack.py": "class Stack:\n    def push(self, item):\n        return item\n",
}


@pytest.fixture(params=["sqlite", ENGINE])
def project(request, make_project):
    return synced_on(request.param, make_project, CODE, "chain")


def _path(project, a: str, b: str) -> list[tuple[str, str, bool | None]]:
    """(the node's qualified name, the edge that reached it, walked forward) along the path."""
    hits = path_hits(project, a, b)
    return [
        (h.node.qualname, h.steps[-1].edge.type if h.steps else "", h.steps[-1].forward if h.steps else None)
        for h in hits
    ]


def test_among_the_shortest_paths_the_one_without_a_turn_or_a_guess(project):
    assert _path(project, "app.cli.parse_low", "app.parse.parse_reader") == [
        ("app.cli.parse_low", "", None),
        ("app.parse.args", "calls", True),
        ("app.parse.parse", "calls", True),
        ("app.parse.parse_reader", "calls", True),
    ]
    # the other way round, the same chain walked back: no turn either
    assert [name for name, _, _ in _path(project, "app.parse.parse_reader", "app.cli.parse_low")] == [
        "app.parse.parse_reader",
        "app.parse.parse",
        "app.parse.args",
        "app.cli.parse_low",
    ]
