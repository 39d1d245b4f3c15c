"""A Ruby method's name may end in ``!`` or ``?``, which a question's punctuation also is (sinatra and
lobsters, walked: "who calls compile!" answered for another class's ``compile``; "who calls
breaks_speed_limit?" found no node and searched words)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "lib/base.rb": (
        "class Base\n  def compile!(path)\n    compile(path)\n  end\n\n  def compile(path)\n    path\n  end\n\n"
        "  def breaks_speed_limit?\n    true\n  end\n\n"
        "  def route!\n    compile!(1) if breaks_speed_limit?\n  end\nend\n"
    ),
    "lib/other.rb": "class Other\n  def compile(path)\n    path\n  end\nend\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
@pytest.mark.parametrize(
    ("question", "start", "expected"),
    [
        ("who calls compile!", "Base.compile!", "Base.route!"),
        ("qui appelle compile! ?", "Base.compile!", "Base.route!"),
        ("who calls breaks_speed_limit?", "Base.breaks_speed_limit?", "Base.route!"),
        ("what does route! call", "Base.route!", "Base.compile!"),
        ("what does breaks_speed_limit? call", "Base.breaks_speed_limit?", None),  # nothing: its start is right
    ],
)
def test_a_name_ending_in_a_bang_or_a_question_mark_is_that_method(make_project, engine, question, start, expected):
    project = make_project(FILES, name="marks", config=engine_config(engine, "marks"))
    resync(project)
    answer = ask_project(project, question, now=NOW, limit=5)
    assert answer.mode == "graph" and answer.rule == "relation", (answer.rule, answer.notes)
    assert any(f"{start} (exact)" in note for note in answer.notes), answer.notes
    if expected is not None:
        assert expected in [e.explain["node"]["name"] for e in answer.excerpts[:2]]
