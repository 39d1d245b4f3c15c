"""JavaScript's functions that no declaration names (parser ``code/6``, ``ingest/js_functions.py``): a
prototype's methods (``Axios.prototype.request = function …``), a function assigned to
``module.exports`` (or an object of them), the methods of an object a ``const`` binds, a class's field
holding a function — each a symbol whose calls are its own, on both engines; two on one line each keep
a location of their own."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

JS = {
    "lib/core/Axios.js": (
        "function Axios(config) {\n  this.defaults = config;\n}\n\n"
        "Axios.prototype.request = function request(config) {\n  return dispatchRequest(this.merge(config));\n};\n\n"
        "Axios.prototype.merge = function (c) {\n  return c;\n};\n\nmodule.exports = Axios;\n"
    ),
    "lib/helpers/merge.js": "function merge(a) {\n  return a;\n}\n\nmodule.exports = merge;\n",
    "lib/use.js": "function use() {\n  return merge(1);\n}\n",
    # a module exporting an object of functions, and a module using one
    "lib/format.js": "module.exports = {\n  parse(text) {\n    return text;\n  },\n};\n",
    "lib/load.js": "const { parse } = require('./format');\n\nfunction load() {\n  return parse('x');\n}\n",
    # a class field holding a function (React's bound handlers)
    "lib/widget.js": (
        "class Widget {\n  handleClick = (e) => {\n    this.save(e);\n  };\n\n  save(e) {\n    return e;\n  }\n}\n"
    ),
    "lib/core/dispatchRequest.js": (
        "const utils = { merge: function (a, b) { return a; }, forEach(obj, fn) { fn(obj); } };\n\n"
        "module.exports = function dispatchRequest(config) {\n  return utils.forEach(config, String);\n};\n"
    ),
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_prototype_methods_exported_functions_and_object_methods_are_symbols(make_project, engine):
    project = make_project(JS, name="jsfunctions", config=engine_config(engine, "jsfunctions"))
    resync(project)
    # `this.merge()` in a prototype's method: the prototype's `merge`, not the object's
    assert callees(project, "Axios.request") == {("dispatchRequest", "extracted"), ("Axios.merge", "extracted")}
    assert callees(project, "dispatchRequest") == {("utils.forEach", "extracted")}
    # a plain `merge(1)` reaches the function, not the prototype's or the object's `merge`
    assert callees(project, "use") == {("merge", "extracted")}
    assert callees(project, "Widget.handleClick") == {("Widget.save", "extracted")}
    assert callees(project, "load") == {("parse", "extracted")}  # `module.exports = { parse(text) {…} }`
    answer = ask_project(project, "who calls dispatchRequest", now=NOW, limit=5)
    assert [e.fact.source.uri for e in answer.excerpts] == ["lib/core/Axios.js:5-7"]


def test_two_methods_on_one_line_keep_a_location_each(make_project):
    project = make_project(JS, name="jsoneline")
    resync(project)
    answer = ask_project(project, "who calls utils.forEach", now=NOW, limit=5)
    assert answer.mode == "graph"
    # dispatchRequest, then its caller Axios.request
    assert [e.fact.source.uri for e in answer.excerpts] == ["lib/core/dispatchRequest.js:3-5", "lib/core/Axios.js:5-7"]
    starts = [s for e in answer.excerpts for s in e.explain["start"]]
    assert starts[0]["name"] == "utils.forEach"
    # their one line is one excerpt (the same text): each symbol a location of its own in it
    callees_ = ask_project(project, "what does dispatchRequest call", now=NOW, limit=5)
    assert [e.explain["node"]["name"] for e in callees_.excerpts] == ["utils.forEach"]
    assert {loc.uri for loc in callees_.excerpts[0].fact.locations} == {
        "lib/core/dispatchRequest.js:1-1",
        "lib/core/dispatchRequest.js:1-1#utils.forEach",
    }
