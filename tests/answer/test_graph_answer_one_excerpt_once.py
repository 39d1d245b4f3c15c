"""A graph answer serves an excerpt once, though two of its nodes stand for it (spring-petclinic,
walked as a new user: ``graph impact VetRepository`` listed ``MySqlIntegrationTests.java:61-65`` at
#3 and #4, the same test copied into ``PetClinicIntegrationTests.java``, stored once with a location
in each file)."""

from __future__ import annotations

from conftest import NOW, resync
from kenning.answer.ask import ask_project

TEST = "from app.vets import list_vets\n\n\ndef test_lists_vets():\n    assert list_vets() == []\n"
FILES = {
    "app/__init__.py": "",
    "app/vets.py": "def list_vets():\n    return []\n",
    "tests/test_mysql.py": TEST,
    "tests/test_postgres.py": TEST,
}


def test_a_fact_two_nodes_stand_for_is_served_once_with_both_places(make_project):
    project = make_project(FILES, name="twice")
    resync(project)
    answer = ask_project(project, "which tests cover list_vets", now=NOW)
    assert answer.mode == "graph", answer.notes
    tests = [ex for ex in answer.excerpts if ex.fact.title.startswith("def test_lists_vets")]
    assert len(tests) == 1, [ex.fact.title for ex in answer.excerpts]
    assert {loc.path for loc in tests[0].fact.locations} == {"tests/test_mysql.py", "tests/test_postgres.py"}
