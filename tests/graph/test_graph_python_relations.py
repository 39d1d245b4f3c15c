from __future__ import annotations

from conftest import resync
from kenning.ingest.python_code import parse_python_relations
from kenning.store.db import connect


def test_python_relations_read_imports_calls_and_test_references_from_one_parse():
    text = (
        "from .fusion import rrf_fuse as fuse\nimport os.path\n\n\ndef run(x):\n"
        "    return fuse(x) + os.path.join('a') + len(x)\n"
    )
    chunks, rel = parse_python_relations(text, "src/pkg/search.py")
    assert [c.meta["symbol"] for c in chunks] == ["pkg.search", "run"]
    assert {(r.type, r.target) for r in rel.refs if r.type == "imports"} == {
        ("imports", "pkg.fusion"),
        ("imports", "pkg.fusion.rrf_fuse"),
        ("imports", "os.path"),
    }
    call = next(r for r in rel.refs if r.type == "calls" and r.target == "rrf_fuse")
    assert call.scope == "run" and call.hint == "pkg.fusion" and call.line == 6
    assert {r.target for r in rel.refs if r.type == "calls"} == {
        "rrf_fuse",
        "join",
    }  # aliases undone; builtins are not references


def test_a_call_to_a_name_defined_in_several_places_is_linked_as_heuristic_never_extracted(make_project):
    project = make_project(
        {
            "a.py": "def save():\n    return 1\n",
            "b.py": "def save():\n    return 2\n",
            "c.py": "def go(store):\n    return store.save()\n",
            "d.py": "from a import save\n\n\ndef go2():\n    return save()\n\n\ndef go3():\n    return save()\n",
            "e.py": "class Store:\n    def save(self):\n        return 3\n",
        }
    )
    resync(project)
    conn = connect(project.db_path)
    rows = conn.execute(
        "SELECT a.path, b.path, e.link FROM graph_edges e JOIN graph_nodes a ON a.id = e.src "
        "JOIN graph_nodes b ON b.id = e.dst WHERE e.type = 'calls' ORDER BY 1, 2"
    ).fetchall()
    conn.close()
    # `store.save()` on an unknown receiver can reach a method (heuristic), never the
    # module-level functions a.save / b.save; `save()` imported from a is extracted.
    assert [tuple(r) for r in rows] == [
        ("c.py", "e.py", "heuristic"),
        ("d.py", "a.py", "extracted"),
        ("d.py", "a.py", "extracted"),
    ]


def _calls(project) -> list[tuple]:
    conn = connect(project.db_path)
    try:
        return [
            tuple(r)
            for r in conn.execute(
                "SELECT a.path, b.path, e.link FROM graph_edges e JOIN graph_nodes a ON a.id = e.src "
                "JOIN graph_nodes b ON b.id = e.dst WHERE e.type = 'calls' ORDER BY 1, 2"
            )
        ]
    finally:
        conn.close()


def test_calls_are_resolved_again_when_a_homonym_appears_or_the_target_vanishes(make_project):
    project = make_project({"a.py": "def foo():\n    return 1\n", "c.py": "def go():\n    return foo()\n"})
    resync(project)
    assert _calls(project) == [("c.py", "a.py", "extracted")]
    (project.root / "b.py").write_text("def foo():\n    return 2\n", encoding="utf-8")
    resync(project)
    assert _calls(project) == [("c.py", "a.py", "heuristic"), ("c.py", "b.py", "heuristic")]
    (project.root / "a.py").unlink()
    resync(project)
    assert _calls(project) == [("c.py", "b.py", "extracted")]


def test_a_call_from_a_test_is_one_reference_resolved_into_calls_and_tested_by(make_project):
    project = make_project(
        {
            "src/shop.py": "def checkout(cart):\n    return sum(cart)\n",
            "tests/test_shop.py": (
                "from shop import checkout\n\n\ndef test_checkout():\n    assert checkout([1, 2]) == 3\n"
            ),
        }
    )
    resync(project)
    conn = connect(project.db_path)
    try:
        refs = conn.execute(
            "SELECT type, tested FROM graph_refs WHERE target = 'checkout' AND type != 'tested_by' "
            "AND type != 'imports'"
        ).fetchall()
        assert [tuple(r) for r in refs] == [("calls", 1)]  # one row for the call, none repeating it
        assert (
            conn.execute("SELECT count(*) FROM graph_refs WHERE type = 'tested_by' AND link = 'extracted'").fetchone()[
                0
            ]
            == 0
        )
        edges = {
            (r[0], r[1], r[2], r[3])
            for r in conn.execute(
                "SELECT e.type, a.name, b.name, e.source_uri FROM graph_edges_sourced e "
                "JOIN graph_nodes a ON a.id = e.src JOIN graph_nodes b ON b.id = e.dst"
            )
        }
    finally:
        conn.close()
    assert ("calls", "test_checkout", "checkout", "tests/test_shop.py:5-5") in edges
    assert ("tested_by", "checkout", "test_checkout", "tests/test_shop.py:5-5") in edges


def test_a_method_called_on_a_name_imported_from_outside_the_project_reaches_no_project_method(make_project):
    """``itertools.count()`` is not ``Store.count`` (Django: every ``itertools.count()`` was a
    caller of ``QuerySet.count``, ranked first); a name imported from a project module keeps
    the heuristic edge, as does a receiver no import explains."""
    project = make_project(
        {
            # of no known class (``handler = object()`` would be builtins.object's: branch modcalls2)
            "shop/__init__.py": "from shop.factory import build\n\nhandler = build()\n",
            "shop/store.py": "class Store:\n    def count(self):\n        return 0\n",
            "shop/use.py": (
                "import itertools\nfrom decimal import Decimal\n\nfrom shop import handler\n\n\n"
                "def ticks():\n    return itertools.count()\n\n\n"
                "def digits():\n    return Decimal.count(3)\n\n\n"
                "def handled():\n    return handler.count()\n\n\n"
                "def rows(store):\n    return store.count()\n"
            ),
        }
    )
    resync(project)
    conn = connect(project.db_path)
    try:
        rows = conn.execute(
            "SELECT a.name, b.qualname, e.link FROM graph_edges e JOIN graph_nodes a ON a.id = e.src "
            "JOIN graph_nodes b ON b.id = e.dst WHERE e.type = 'calls' ORDER BY 1"
        ).fetchall()
    finally:
        conn.close()
    assert [tuple(r) for r in rows] == [
        ("handled", "shop.store.Store.count", "heuristic"),
        ("rows", "shop.store.Store.count", "heuristic"),
    ]


def test_a_method_called_on_another_calls_result_is_a_guess_not_extracted(make_project):
    """ripgrep's ``Regex::builder()…build()`` was linked ``extracted`` to the caller's file's only
    ``build`` (GitignoreBuilder's): a call's result is of a type the code does not say."""
    project = make_project(
        {
            "a.py": (
                "class Builder:\n    def build(self):\n        return 1\n\n\n"
                "def make():\n    return Other.builder().configure(1).build()\n\n\n"
                "def plain(b):\n    Other.builder().build()\n    return b.build()\n"
            ),
            "b.rs": (
                "struct GitignoreBuilder {}\nimpl GitignoreBuilder {\n    pub fn build(&self) -> u32 { 1 }\n}\n"
                'fn parse() -> u32 {\n    let re = Regex::builder().configure(1).build("x");\n    re\n}\n'
            ),
        }
    )
    resync(project)
    assert _named_calls(project) == [
        ("a.make", "a.Builder.build", "heuristic", 7),
        # also called on a parameter: as that call, a guess too (the file's only ``build``, on a value
        # no hint types: ``python/22``)
        ("a.plain", "a.Builder.build", "heuristic", 12),
        ("parse", "GitignoreBuilder.build", "heuristic", 6),
    ]


def test_a_method_called_on_an_object_made_in_place_is_its_classs(make_project):
    """``Client().send()`` is a call of ``Client.send`` (it was an attribute call: a guess at every
    ``send``), ``Path(p).read_text()`` after ``from pathlib import Path`` none of the project's
    ``read_text``; a lowercase function's result stays a guess."""
    project = make_project(
        {
            "app/http.py": "class Client:\n    def send(self):\n        return 1\n",
            "app/mail.py": (
                "class Mailer:\n    def send(self):\n        return 2\n\n    def read_text(self):\n        return ''\n"
            ),
            "app/go.py": (
                "from pathlib import Path\n\nfrom app.http import Client\n\n\n"
                "def go(p):\n    Client().send()\n    return Path(p).read_text()\n\n\n"
                "def guess():\n    return make().send()\n"
            ),
        }
    )
    resync(project)
    assert [row[:3] for row in _named_calls(project) if row[0].startswith("app.go.")] == [
        ("app.go.go", "app.http.Client", "extracted"),
        ("app.go.go", "app.http.Client.send", "extracted"),
        ("app.go.guess", "app.http.Client.send", "heuristic"),
        ("app.go.guess", "app.mail.Mailer.send", "heuristic"),
    ]


def _named_calls(project) -> list[tuple]:
    """(caller's qualified name, callee's, link, line) of every ``calls`` edge, in that order."""
    conn = connect(project.db_path)
    try:
        return [
            tuple(r)
            for r in conn.execute(
                "SELECT a.qualname, b.qualname, e.link, e.line FROM graph_edges_sourced e "
                "JOIN graph_nodes a ON a.id = e.src JOIN graph_nodes b ON b.id = e.dst WHERE e.type = 'calls' "
                "ORDER BY 1, 2, 4"
            )
        ]
    finally:
        conn.close()
