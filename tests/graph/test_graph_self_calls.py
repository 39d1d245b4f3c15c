"""A call on a method's own receiver (branch selfcalls): ``self.save()`` reaches the ``save`` of
the enclosing class, or of a base class the project defines, however many methods share the
name (Django 5.0.6: 28 named ``save``); ``cls.create()`` in a class method likewise. On both
engines."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import NOW, bump_mtime, resync
from kenning.answer.ask import ask_project
from kenning.ingest.python_code import parse_python_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

MODELS = (
    "from app.base import Base\n\n\n"
    "class Model(Base):\n"
    "    def save(self):\n        return 1\n\n"
    "    def full(self):\n        self.save()\n        return self.check()\n\n"
    "    @classmethod\n    def create(cls):\n        return cls()\n\n"
    "    @classmethod\n    def make(cls):\n        return cls.create()\n\n\n"
    "class Form:\n"
    "    def save(self):\n        return 2\n\n"
    "    def create(self):\n        return 3\n"
)
BASE = "class Base:\n    def check(self):\n        return True\n"
# as many other methods named `save` and `check` as make them too shared to link by name
SAVERS = {
    f"app/saver{i}.py": (
        f"class Saver{i}:\n    def save(self):\n        return {i}\n\n    def check(self):\n        return {i}\n"
    )
    for i in range(6)
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
@pytest.mark.parametrize("crowded", [False, True])
def test_self_and_cls_calls_reach_the_enclosing_class_or_its_base(make_project, engine, crowded):
    files = {"app/__init__.py": "", "app/models.py": MODELS, "app/base.py": BASE, **(SAVERS if crowded else {})}
    project = make_project(files, name="selfcalls", config=engine_config(engine, "selfcalls"))
    resync(project)
    assert callees(project, "app.models.Model.full") == {
        ("app.models.Model.save", "extracted"),  # not Form.save, nor any Saver's
        ("app.base.Base.check", "extracted"),  # from the base class, in another file
    }
    assert callees(project, "app.models.Model.make") == {("app.models.Model.create", "extracted")}


def test_a_self_call_the_class_and_its_bases_do_not_define_keeps_the_attribute_call_rule(make_project):
    """Never worse than before: ``self.close()`` where neither the class nor a base the file
    names defines ``close`` reaches the homonyms as ``obj.close()`` would (heuristic)."""
    files = {
        "app/__init__.py": "",
        "app/a.py": "class A:\n    def close(self):\n        return 1\n",
        "app/b.py": "class B:\n    def close(self):\n        return 2\n",
        "app/c.py": "import io\n\n\nclass C(io.IOBase):\n    def done(self):\n        return self.close()\n",
    }
    project = make_project(files, name="fallback")
    resync(project)
    assert callees(project, "app.c.C.done") == {("app.a.A.close", "heuristic"), ("app.b.B.close", "heuristic")}


def test_the_parser_names_the_class_and_the_bases_it_can_name_in_a_self_calls_hint():
    text = (
        "from django.db import models\nfrom .mixins import Mixin\n\n\n"
        "class Local(Mixin):\n    pass\n\n\n"
        "class Thing(Local, models.Model, Generic[T], object):\n"
        "    def go(this):\n        this.run()\n        other.run()\n\n"
        "    @staticmethod\n    def helper(self):\n        return self.run()\n"
    )
    _, rel = parse_python_relations(text, "src/app/things.py")
    calls = [(r.scope, r.target, r.hint) for r in rel.refs if r.type == "calls"]
    assert calls == [
        ("Thing.go", "run", "self:.Thing .Local app.mixins.Mixin django.db.models.Model"),
        ("Thing.go", "run", None),  # another receiver: a reference of its own
        ("Thing.helper", "run", None),  # a static method's first parameter is no receiver
    ]


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_the_codes_callers_of_a_method_come_before_a_tests_certain_self_call(make_project, engine):
    """Django's "who calls QuerySet.all": ``self.all()`` in a test's QuerySet subclass is a
    certain (extracted) caller, every ``qs.all()`` in the code a guess; the code comes first
    all the same, the test after."""
    files = {
        "app/__init__.py": "",
        "app/query.py": "class QuerySet:\n    def all(self):\n        return self\n",
        "app/views.py": "def listing(books):\n    return books.all()\n",
        "tests/models.py": (
            "from app.query import QuerySet\n\n\nclass CustomQuerySet(QuerySet):\n"
            "    def public(self):\n        return self.all()\n"
        ),
    }
    project = make_project(files, name="ranked", config=engine_config(engine, "ranked"))
    resync(project)
    assert callees(project, "tests.models.CustomQuerySet.public") == {("app.query.QuerySet.all", "extracted")}
    answer = ask_project(project, "who calls QuerySet.all", now=NOW)
    assert answer.mode == "graph"
    assert [e.fact.source.uri.split(":")[0] for e in answer.excerpts][:2] == ["app/views.py", "tests/models.py"]


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_self_call_too_many_methods_share_the_name_of_is_said_unlinked(make_project, engine):
    """``self.render()`` where the class and its bases do not define ``render`` and 6 methods
    do: no edge, as for ``obj.render()``, and "what does X call" says so."""
    renderers = {
        f"app/widget{i}.py": f"class Widget{i}:\n    def render(self):\n        return {i}\n" for i in range(6)
    }
    page = "class Page:\n    def show(self):\n        return self.render()\n"
    files = {"app/__init__.py": "", "app/page.py": page, **renderers}
    project = make_project(files, name="unlinked", config=engine_config(engine, "unlinked"))
    resync(project)
    assert callees(project, "app.page.Page.show") == set()
    answer = ask_project(project, "what does Page.show call", now=NOW)
    assert any(".render() (6 methods)" in note for note in answer.notes), answer.notes


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_method_added_to_a_base_later_is_reached_from_the_unchanged_subclass(make_project, engine):
    """The subclass's file does not change: the sync that adds ``check`` to ``Base`` resolves
    its ``self.check()`` again, to ``Base.check`` (and back when it goes)."""
    files = {"app/__init__.py": "", "app/models.py": MODELS, "app/base.py": "class Base:\n    pass\n", **SAVERS}
    project = make_project(files, name="later", config=engine_config(engine, "later"))
    resync(project)
    assert callees(project, "app.models.Model.full") == {("app.models.Model.save", "extracted")}
    base = project.root / "app" / "base.py"
    base.write_text(BASE)
    bump_mtime(base)
    resync(project)
    assert callees(project, "app.models.Model.full") == {
        ("app.models.Model.save", "extracted"),
        ("app.base.Base.check", "extracted"),
    }
    base.write_text("class Base:\n    pass\n")
    bump_mtime(base, 10)
    resync(project)
    assert callees(project, "app.models.Model.full") == {("app.models.Model.save", "extracted")}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_super_calls_reach_the_bases_method_not_the_classs_own(make_project, engine):
    """``super().save()`` in ``User.save`` is ``Model.save`` (Django's ``AbstractBaseUser.save``),
    never ``User.save`` itself nor another ``save``; with no base the file can name, the
    attribute-call rule as before (here: too many ``save`` methods, no edge)."""
    user = (
        "from app.models import Model\n\n\nclass User(Model):\n"
        "    def save(self):\n        super().save()\n        return super(User, self).check()\n\n\n"
        "class Loose:\n    def save(self):\n        return super().save()\n"
    )
    files = {"app/__init__.py": "", "app/models.py": MODELS, "app/base.py": BASE, "app/users.py": user, **SAVERS}
    project = make_project(files, name="supers", config=engine_config(engine, "supers"))
    resync(project)
    assert callees(project, "app.users.User.save") == {
        ("app.models.Model.save", "extracted"),
        ("app.base.Base.check", "extracted"),  # Model's base, which models.py imports (branch receivers)
    }
    assert callees(project, "app.users.Loose.save") == set()
