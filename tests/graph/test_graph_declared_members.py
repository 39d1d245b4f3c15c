"""Members no ``def`` or ``function`` names (parser ``code/7``): Ruby's ``attr_reader :registry``
(``attr_accessor``, ``attr_writer``) defines methods of its class, so a bare ``registry`` in that
class reaches its own reader, not another class's homonym; an ``export default { run() {} }``
object's functions are the module's, as ``module.exports = {…}``'s are — on both engines."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.tree_code import parse_code_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

FILES = {
    "lib/extensions.rb": (
        "class Extensions\n  attr_reader :registry, :groups\n  attr_accessor :name\n\n"
        "  def activate\n    registry.each { |e| e.call }\n  end\nend\n"
    ),
    "lib/other.rb": "class Other\n  def registry\n  end\nend\n",
    "src/component.js": "export default {\n  name: 'widget',\n  render() {\n    return draw();\n  },\n};\n",
    "src/draw.js": "export function draw() {\n  return 1;\n}\n",
    "src/page.js": "import widget from './component';\n\nfunction show() {\n  return render();\n}\n",
}


def test_attribute_methods_and_export_default_functions_are_symbols():
    _, ruby = parse_code_relations(FILES["lib/extensions.rb"], "lib/extensions.rb")
    assert ruby is not None
    assert {(s.qualname, s.line_start) for s in ruby.symbols} == {
        ("Extensions", 1),
        ("Extensions.registry", 2),
        ("Extensions.groups", 2),
        ("Extensions.name", 3),
        ("Extensions.name=", 3),
        ("Extensions.activate", 5),
    }
    _, js = parse_code_relations(FILES["src/component.js"], "src/component.js")
    assert js is not None
    assert [(s.qualname, s.kind) for s in js.symbols] == [("render", "function")]  # `name: 'widget'` is no function
    _, plain = parse_code_relations("foo(attr_reader)\nattr_reader :x\n", "lib/top.rb")
    assert plain is not None and not plain.symbols  # outside a class or module: no method of anything


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_their_calls_reach_them(make_project, engine):
    project = make_project(FILES, name="declared", config=engine_config(engine, "declared"))
    resync(project)
    assert callees(project, "Extensions.activate") == {("Extensions.registry", "extracted")}
    assert callees(project, "render") == {("draw", "extracted")}
    answer = ask_project(project, "who calls Extensions.registry", now=NOW, limit=5)
    assert [e.fact.source.uri for e in answer.excerpts] == ["lib/extensions.rb:5-7"]
