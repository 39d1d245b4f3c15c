""" "Which files import X" asks for importers alone (outline, walked: "which files import
parseDocumentSlug" served the functions calling it, and its importers a hop further)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "app/__init__.py": "",
    "app/slug.py": "def parse_slug(url):\n    return url\n",
    "app/links.py": "from app.slug import parse_slug\n\n\ndef resolve(url):\n    return parse_slug(url)\n",
    "app/views.py": "from app.links import resolve\n\n\ndef show(url):\n    return resolve(url)\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
@pytest.mark.parametrize("question", ["which files import parse_slug", "quels fichiers importent parse_slug"])
def test_which_files_import_a_name_are_its_files_importers(make_project, engine, question):
    project = make_project(FILES, name="importers", config=engine_config(engine, "importers"))
    resync(project)
    answer = ask_project(project, question, now=NOW, limit=10)
    assert answer.rule == "relation"
    assert [(e.fact.source.uri.split(":")[0], e.path[-1]["type"]) for e in answer.excerpts][:1] == [
        ("app/links.py", "imports")
    ]
    assert all(e.path[-1]["type"] == "imports" for e in answer.excerpts)  # no caller, however near
    # "what depends on" keeps every dependent: the function calling it among them
    depends = ask_project(project, "what depends on parse_slug", now=NOW, limit=10)
    assert any(e.path[-1]["type"] == "calls" for e in depends.excerpts)
