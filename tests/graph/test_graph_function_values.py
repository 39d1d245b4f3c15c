"""A function handed over as a value is called by whoever it is handed to (pocketbase, walked as a
new user: every HTTP handler is registered by name, ``sub.GET("", realtimeConnect)``, and "who
calls realtimeConnect" had no answer). A function of the file's own, one imported from the
project, or Go's ``security.RandomString`` passed as an argument is a ``calls`` reference of the
function that passes it; a local value of the same name is not."""

from __future__ import annotations

import pytest
from graph_edges import callees, calls_of, covering

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from kenning.ingest.parsers import load_relations
from kenning.ingest.tree_code import parse_code_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

GO = {
    "go.mod": "module github.com/acme/base\n\ngo 1.22\n",
    "apis/realtime.go": 'package apis\n\nimport (\n\t"strings"\n\n\t"github.com/acme/base/tools/security"\n)\n\n'
    "func bindRealtimeApi(rg Router, app App) {\n"
    '\tsub := rg.Group("/api/realtime")\n'
    '\tsub.GET("", realtimeConnect)\n'
    "\tapp.Use(security.RandomString, strings.ToLower, app)\n}\n\n"
    "func realtimeConnect(e Event) error {\n\treturn nil\n}\n",
    "tools/security/random.go": 'package security\n\nfunc RandomString(n int) string {\n\treturn ""\n}\n',
    "tools/security/random_test.go": "package security_test\n\n"
    'import (\n\t"testing"\n\n\t"github.com/acme/base/tools/security"\n)\n\n'
    "func TestRandomString(t *testing.T) {\n\tcheck(t, security.RandomString)\n}\n",
}
JS = {
    "src/handlers.js": "export function list(req, res) {\n  res.send([]);\n}\n",
    "src/app.jsx": "import { list } from './handlers';\n\n"
    "export function routes(app, onDone) {\n  app.get('/', list);\n  [1].map(format);\n  onDone(list);\n"
    "  return <button onClick={save} onBlur={onDone}>x</button>;\n}\n\n"
    "function format(x) {\n  return x;\n}\n\nfunction save() {}\n",
}


def test_the_parser_reads_functions_handed_over():
    _, go = parse_code_relations(GO["apis/realtime.go"], "apis/realtime.go")
    handed = {(r.target, r.hint) for r in go.refs if r.type == "calls" and not r.qualified}
    assert ("realtimeConnect", None) in handed
    assert ("RandomString", "go:github.com/acme/base/tools/security") in handed
    assert not {name for name, _ in handed} & {"ToLower", "app", "sub"}  # the standard library's, locals
    _, js = parse_code_relations(JS["src/app.jsx"], "src/app.jsx")
    called = [r.target for r in js.refs if r.type == "calls" and not r.qualified]
    assert called == ["list", "format", "save"]  # `onDone`: a parameter, called or handed over


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_handler_registered_by_name_has_its_caller(make_project, engine):
    project = make_project({**GO, **JS}, name="values", config=engine_config(engine, "values"))
    resync(project)
    assert callees(project, "bindRealtimeApi") >= {("realtimeConnect", "extracted"), ("RandomString", "extracted")}
    assert covering(project, "RandomString") >= {("symbol", "tools/security/random_test.go", "extracted")}
    assert {name for name, _ in callees(project, "routes")} >= {"list", "format", "save"}


# Express: handlers handed over through the modules that hold them, imported by path; a homonym elsewhere
EXPRESS = {
    "src/controllers/users.js": "exports.show = function (req, res) {\n  res.send({});\n};\n",
    "src/controllers/posts.js": "exports.show = function (req, res) {\n  res.send([]);\n};\n",
    "src/middleware/auth.js": "exports.required = function (req, res, next) {\n  next();\n};\n",
    "src/routes.js": "import * as users from './controllers/users';\nconst auth = require('./middleware/auth');\n"
    "const lodash = require('lodash');\n\n"
    "export function mount(router) {\n  router.get('/users/:id', auth.required, users.show, lodash.noop);\n}\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_handler_handed_over_through_its_module_is_that_modules(make_project, engine):
    project = make_project(EXPRESS, name="express", config=engine_config(engine, "express"))
    resync(project)
    # ``users.show``: the users controller's, certain, not the posts controller's homonym; lodash's: none
    reached = {(e.dst.path, e.dst.qualname, e.link) for e in calls_of(project, "mount")}
    assert reached == {
        ("src/controllers/users.js", "show", "extracted"),
        ("src/middleware/auth.js", "required", "extracted"),
    }
    answer = ask_project(project, "what calls required", now=NOW)
    assert [e.path[-1]["source"]["uri"] for e in answer.excerpts] == ["src/routes.js:6-6"]
    # named as the code calls it, through its module: the users controller's ``show``, not the posts'
    shown = ask_project(project, "what calls users.show", now=NOW)
    assert [e.path[-1]["source"]["uri"] for e in shown.excerpts] == ["src/routes.js:6-6"]
    assert not ask_project(project, "what calls posts.show", now=NOW).excerpts


# gin: a handler's methods registered through a value of its type; a homonym on another type
GIN = {
    "go.mod": "module github.com/acme/shop\n\ngo 1.22\n",
    "api/routes.go": "package api\n\n"
    'func Register(r *gin.Engine, h *Handler) {\n\tr.GET("/users", h.ListUsers)\n\tlocal := 1\n\tuse(local)\n}\n',
    "api/handler.go": "package api\n\ntype Handler struct{}\n\nfunc (h *Handler) ListUsers(c *Context) {}\n",
    "api/admin.go": "package api\n\ntype Admin struct{}\n\nfunc (a *Admin) ListUsers(c *Context) {}\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_method_handed_over_through_a_typed_value_is_its_types(make_project, engine):
    project = make_project(GIN, name="gin", config=engine_config(engine, "gin"))
    resync(project)
    assert callees(project, "Register") >= {("Handler.ListUsers", "extracted")}
    assert ("Admin.ListUsers", "heuristic") not in callees(project, "Register")
    answer = ask_project(project, "what calls Handler.ListUsers", now=NOW)
    assert [e.path[-1]["source"]["uri"] for e in answer.excerpts] == ["api/routes.go:4-4"]


# Django: views handed over to the URLconf, imported by name or through their module; a homonym in
# another app; a model field's default, called by the field
DJANGO = {
    "blog/__init__.py": "",
    "blog/views.py": "def about(request):\n    return 'about'\n\n\ndef contact(request):\n    return 'contact'\n",
    "shop/__init__.py": "",
    "shop/views.py": "def about(request):\n    return 'shop'\n",
    "blog/urls.py": "from django.urls import path\n\nfrom . import views\nfrom .views import about\n\n"
    'urlpatterns = [\n    path("about/", about),\n    path("contact/", views.contact),\n]\n',
    "blog/models.py": "from django.db import models\n\n\ndef make_code():\n    return 'x'\n\n\n"
    "class Post(models.Model):\n    code = models.CharField(default=make_code, max_length=8)\n",
}


def test_python_values_that_are_no_function_handed_over_are_no_calls():
    source = (
        "from django.db import connection\nfrom .models import Article, TIMEOUT, helper\n\n\ndef run(items, key):\n"
        "    sorted(items, key=key)\n    isinstance(items, Article)\n    wait(TIMEOUT)\n"
        "    print(helper)\n    Capture(connection)\n    return map(helper, items)\n"
    )
    _, relations = load_relations("python/24")(source, "app/run.py")
    called = [r.target for r in relations.refs if r.type == "calls"]
    # a parameter, a class, a constant, an object an absolute import binds: none; ``map(helper, …)``: a call
    # of ``helper`` (the builtins: none)
    assert sorted(called) == ["Capture", "helper", "wait"]


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_python_function_handed_over_is_called_by_the_call_it_is_handed_to(make_project, engine):
    project = make_project(DJANGO, name="site", config=engine_config(engine, "site"))
    resync(project)
    for question, where in [
        ("what calls blog.views.about", "blog/urls.py:7-7"),  # imported by name
        ("what calls blog.views.contact", "blog/urls.py:8-8"),  # through its module
        ("what calls make_code", "blog/models.py:9-9"),  # a model field's default
    ]:
        answer = ask_project(project, question, now=NOW)
        assert [e.path[-1]["source"]["uri"] for e in answer.excerpts] == [where], question
    assert not ask_project(project, "what calls shop.views.about", now=NOW).excerpts


COMPONENTS = {
    "src/components/Empty.tsx": "export function Empty() {\n  return <p>empty</p>;\n}\n",
    "src/components/Empty.test.tsx": "import { Empty } from './Empty';\n\n"
    "test('renders', () => {\n  render(<Empty />);\n});\n",
    "src/components/List.tsx": "import { Empty } from '@/components/Empty';\nimport { Button } from 'ui-kit';\n\n"
    "export function List({ rows }) {\n  return <div>{rows.length ? <Row /> : <Empty />}<Button /></div>;\n}\n\n"
    "function Row() {\n  return <li />;\n}\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_component_rendered_is_called_by_what_renders_it(make_project, engine):
    project = make_project(COMPONENTS, name="jsx", config=engine_config(engine, "jsx"))
    resync(project)
    assert callees(project, "List") == {("Empty", "extracted"), ("Row", "extracted")}  # not ui-kit's, not <div>
    assert covering(project, "Empty") == {("file", "src/components/Empty.test.tsx", "extracted")}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_go_name_is_found_as_go_code_writes_it(make_project, engine):
    """``security.RandomString``, the name qualified by its package: "graph found no node named"."""
    project = make_project(GO, name="gonames", config=engine_config(engine, "gonames"))
    resync(project)
    answer = ask_project(project, "who calls security.RandomString", now=NOW)
    assert answer.mode == "graph"
    assert {e.fact.source.uri.split(":")[0] for e in answer.excerpts} == {
        "apis/realtime.go",
        "tools/security/random_test.go",
    }
    other = ask_project(project, "who calls strings.RandomString", now=NOW)  # no such package here
    assert "apis/realtime.go" not in {e.fact.source.uri.split(":")[0] for e in other.excerpts if other.mode == "graph"}
