"""A guess (a ``heuristic`` call) from code that is no test reaches no symbol of a test file: on
Django 5.0.6, 700 such edges were all but a few wrong (``x.split()`` in a template filter reaching a
test model's ``split``). A test's own guesses, and what production code imports from a test
package (``django/test/``), keep their edges. On both engines."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import resync
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "app/__init__.py": "",
    "app/text.py": "def words(line):\n    return line.split()\n",
    "app/runner.py": "from app.test.utils import setup\n\n\ndef run():\n    return setup()\n",
    "app/test/__init__.py": "",
    "app/test/utils.py": "def setup():\n    return 1\n",
    "tests/__init__.py": "",
    "tests/models.py": "class Splitter:\n    def split(self):\n        return []\n",
    "tests/test_text.py": "def test_split(item):\n    assert item.split() == []\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_guess_from_production_code_reaches_no_test_symbol(make_project, engine):
    project = make_project(FILES, name="guesses", config=engine_config(engine, "guesses"))
    resync(project)
    assert callees(project, "app.text.words") == set()  # `line.split()`: not the test model's
    assert callees(project, "tests.test_text.test_split") == {("tests.models.Splitter.split", "heuristic")}
    assert callees(project, "app.runner.run") == {("app.test.utils.setup", "extracted")}  # imported
