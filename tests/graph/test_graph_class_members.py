"""A class stands for its members in relation questions (``walk.with_members``): what depends on a
class, who calls it and what tests cover it are those of its methods, as a file stands for its
symbols. Found by a walk of koel (``what depends on SongRepository`` said "no dependents" though
112 calls reached its methods). On both engines."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.answer.graph import GraphOptions, run_query
from kenning.store.db import open_store
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

PYTHON = {
    "src/shop/songs.py": (
        "class SongRepository:\n"
        "    def get_by_id(self, song_id):\n        return song_id\n\n"
        "    def delete(self, song_id):\n        return None\n"
    ),
    "src/shop/player.py": (
        "from shop.songs import SongRepository\n\n\n"
        "def play(songs: SongRepository, song_id):\n    return songs.get_by_id(song_id)\n"
    ),
    "tests/test_songs.py": (
        "from shop.songs import SongRepository\n\n\n"
        "def test_delete(songs: SongRepository):\n    assert songs.delete(3) is None\n"
    ),
}
PHP = {
    "app/Repositories/SongRepository.php": (
        "<?php\nnamespace App\\Repositories;\n\nclass SongRepository\n{\n"
        "    public function getById($id) { return $id; }\n\n"
        "    public function delete($id) { return null; }\n}\n"
    ),
    "app/Services/Player.php": (
        "<?php\nnamespace App\\Services;\n\nuse App\\Repositories\\SongRepository;\n\nclass Player\n{\n"
        "    public function __construct(private SongRepository $songs) {}\n\n"
        "    public function play($id)\n    {\n        return $this->songs->getById($id);\n    }\n}\n"
    ),
    "tests/SongRepositoryTest.php": (
        "<?php\nuse App\\Repositories\\SongRepository;\n\nclass SongRepositoryTest extends TestCase\n{\n"
        "    public function testDelete(SongRepository $songs)\n    {\n        $songs->delete(3);\n    }\n}\n"
    ),
}
CASES = {  # files, the caller's file, the test's file
    "python": (PYTHON, "src/shop/player.py", "tests/test_songs.py"),
    "php": (PHP, "app/Services/Player.php", "tests/SongRepositoryTest.php"),
}


def _paths(answer) -> list[str]:
    return [e.fact.source.uri.split(":")[0] for e in answer.excerpts]


def _impact(project, node: str) -> list[str]:
    conn = open_store(project)
    try:
        return _paths(run_query(conn, project, "impact", node, GraphOptions(), now=NOW))
    finally:
        conn.close()


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
@pytest.mark.parametrize("language", sorted(CASES))
def test_a_class_answers_for_its_methods_callers_dependents_and_tests(make_project, language, engine):
    files, caller, test = CASES[language]
    name = f"{language}members"
    project = make_project(files, name=name, config=engine_config(engine, name))
    resync(project)
    for question, wanted in (
        ("what depends on SongRepository", caller),
        ("who calls SongRepository", caller),
        ("what tests cover SongRepository", test),
    ):
        answer = ask_project(project, question, now=NOW)
        assert answer.mode == "graph", question
        assert wanted in _paths(answer), (question, _paths(answer))
    assert {caller, test} <= set(_impact(project, "SongRepository"))
    # a method stands for itself alone: delete's tests, not get_by_id's callers
    assert caller not in _impact(project, "SongRepository.delete")


def test_nodes_of_one_name_are_told_apart_by_their_file_in_the_note(make_project):
    """``2 nodes match 'IndexController': IndexController, IndexController`` (koel) did not say
    which was which."""
    php = "<?php\nclass IndexController\n{\n    public function run() {}\n}\n"
    project = make_project({"app/Http/IndexController.php": php, "app/Admin/IndexController.php": php})
    resync(project)
    conn = open_store(project)
    try:
        notes = run_query(conn, project, "impact", "IndexController", GraphOptions(), now=NOW).notes
    finally:
        conn.close()
    assert any(
        "IndexController (app/Admin/IndexController.php:2)" in n and "(app/Http/IndexController.php:2)" in n
        for n in notes
    ), notes


def test_a_start_node_changed_since_the_last_sync_is_named_in_a_note(make_project):
    """A function renamed before a resync still answered "who calls" from its old edges, [current]
    callers and no word that the function itself was gone (IceCubesApp's ``emmitPostEvent``)."""
    files = {
        "lib.py": "def target():\n    return 1\n",
        "app.py": "from lib import target\n\n\ndef caller():\n    return target()\n",
    }
    project = make_project(files)
    resync(project)
    assert not any("changed since the last sync" in n for n in ask_project(project, "who calls target", now=NOW).notes)
    (project.root / "lib.py").write_text("def target_renamed():\n    return 1\n")
    notes = ask_project(project, "who calls target", now=NOW).notes
    assert any("what the question names changed since the last sync: lib.target (source_missing)" in n for n in notes)


def test_a_path_of_relations_comes_before_one_through_a_shared_file(make_project):
    """``graph path SyncWorker.doWork changeListSync`` joined them as "both defined in
    SyncUtilities.kt" (nowinandroid): a path through the file two symbols share says nothing of how
    one reaches the other; the calls between them come first, the shared file only when there is
    no other path."""
    files = {
        "app/sync.py": (
            "from app.helpers import relay\n\n\ndef start():\n    return relay()\n\n\ndef finish():\n    return 1\n\n\n"
            "def alone():\n    return 2\n"
        ),
        "app/helpers.py": "def relay():\n    from app.sync import finish\n    return finish()\n",
    }
    project = make_project(files)
    resync(project)
    conn = open_store(project)
    try:
        path = run_query(conn, project, "path", "app.sync.start", GraphOptions(), now=NOW, other="app.sync.finish")
        fallback = run_query(conn, project, "path", "app.sync.start", GraphOptions(), now=NOW, other="app.sync.alone")
    finally:
        conn.close()
    assert [step["type"] for step in path.excerpts[-1].to_json()["path"]] == ["calls", "calls"]
    assert [step["type"] for step in fallback.excerpts[-1].to_json()["path"]] == ["defines", "defines"]
