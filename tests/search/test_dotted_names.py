"""A dotted code name (``click.echo``, ``Context.invoke``) or a name typed in backticks
(`` `echo` ``) is a typed code name: its definition leads. The dotted name is searched as its
parts, since the definition of a name a package re-exports (``def echo`` in ``click/utils.py``)
never writes ``click.echo``, which only its callers do; the qualifier picks the definition
(``Context.invoke``, not ``Command.invoke``). File names stay whole (branch clickwalk)."""

from __future__ import annotations

import pytest

from conftest import NOW, resync
from kenning.answer.search import SearchOptions, search_project
from kenning.search.query import parse, typed_code_names

ECHO_DOC = "\n".join(f"    Line {i} of the long story of how a message reaches a stream." for i in range(30))
FILES = {
    "src/pkg/__init__.py": "from .utils import echo as echo\nfrom .core import Context, Command\n",
    "src/pkg/utils.py": f'def echo(message):\n    """Print a message.\n\n{ECHO_DOC}\n    """\n    print(message)\n',
    "src/pkg/core.py": (
        "class Context:\n"
        "    def invoke(self, callback):\n"
        '        """Run a callback with this context."""\n'
        "        return callback(self)\n\n\n"
        "class Command:\n"
        "    def invoke(self, context):\n"
        '        """Run the command in a context."""\n'
        "        return context\n"
    ),
    "examples/demo.py": "".join(
        f'import pkg\n\n\ndef demo{i}():\n    pkg.echo("one")\n    pkg.echo("two")\n\n\n' for i in range(6)
    ),
}


@pytest.mark.parametrize(
    ("question", "fts", "names"),
    [
        ("what does click.echo do", '"click" OR "echo"', {"click.echo"}),
        ("what does Context.invoke do", '"context" OR "invoke"', {"context.invoke"}),
        ("what does `echo` do", '"echo"', {"echo"}),
        ("where is setup.py", '"setup.py"', set()),
        ("a dose of 1.5 mg", '"dose" OR "1.5" OR "mg"', set()),
    ],
)
def test_dotted_code_names_are_searched_as_parts_and_typed_as_code(question, fts, names):
    parsed = parse(question)
    assert parsed.fts == fts
    assert typed_code_names(parsed) == names


@pytest.fixture
def project(make_project):
    project = make_project(FILES, name="pkg")
    resync(project)
    return project


@pytest.mark.parametrize("question", ["what does pkg.echo do", "what does `echo` do"])
def test_the_definition_of_a_re_exported_name_leads_before_its_callers(project, question):
    answer = search_project(project, question, SearchOptions(explain=True), now=NOW)
    assert answer.excerpts[0].fact.source.uri.startswith("src/pkg/utils.py"), [e.fact.title for e in answer.excerpts]
    assert answer.excerpts[0].explain["factors"] == {"definition": 3.0}


def test_the_qualifier_picks_the_method_of_its_class(project):
    answer = search_project(project, "what does Context.invoke do", SearchOptions(explain=True), now=NOW)
    boosted = {e.fact.meta["symbol"] for e in answer.excerpts if e.explain["factors"].get("definition")}
    assert boosted == {"Context.invoke"}
    assert answer.excerpts[0].fact.meta["symbol"] == "Context.invoke"
