"""C++ members defined outside their class (parser ``code/6``): ``Status DBImpl::Write(…) {…}`` in a
``.cc`` file is the method ``Write`` of ``DBImpl`` (qualified name ``db.DBImpl.Write``), so calls reach
it and its own bare calls are calls on its object; an anonymous namespace's classes and functions are
the file's own symbols, each its own excerpt. On both engines, and asked in words as ``A::b``."""

from __future__ import annotations

import pytest
from graph_edges import callees, covering

from conftest import NOW, resync
from kenning.answer.ask import ask_project
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

# `Flush` is defined twice (DBImpl's and Repairer's): only the caller's class tells them apart;
# `Evict` twice too, and the type of the field it is called on is declared in another file (the
# header: its `FIELDS` reference, parser `code/6`).
CPP = {
    "db/db_impl.h": (
        "namespace db {\nclass DBImpl {\n public:\n  Status Write(int n);\n  Status Flush();\n"
        " private:\n  TableCache* cache_;\n  std::string name_;\n};\n}  // namespace db\n"
    ),
    "db/db_impl.cc": (
        '#include "db/db_impl.h"\n\nnamespace db {\n\n'
        "Status DBImpl::Write(int n) {\n  Flush();\n  cache_->Evict(n);\n  return Status();\n}\n\n"
        "Status DBImpl::Flush() {\n  name_.clear();\n  other_->Evict(1);\n  return Status();\n}\n\n"
        "template <typename K>\nvoid SkipList<K>::Insert(const K& k) {\n  Flush();\n}\n\n"
        "Status Open() {\n  DBImpl* impl = new DBImpl();\n  impl->cache_->Evict(2);\n  return Status();\n}\n\n"
        "DBImpl::DBImpl() {\n}\n\n"
        "}  // namespace db\n"
    ),
    "db/table_cache.cc": "namespace db {\n\nvoid TableCache::Evict(int n) {\n}\n\n}  // namespace db\n",
    "db/lru_cache.cc": (
        "namespace db {\n\nvoid LRUCache::Evict(int n) {\n}\n\nvoid LRUCache::clear() {\n}\n\n}  // namespace db\n"
    ),
    "db/repair.cc": (
        "namespace db {\n\nnamespace {\n\nclass Repairer {\n public:\n  void Run() {\n    Flush();\n"
        "    BuildTable();\n  }\n\n  void Flush() {\n  }\n};\n\n}  // namespace\n\n"
        "void BuildTable() {\n}\n\n}  // namespace db\n"
    ),
    "db/write_test.cc": "namespace db {\n\nTEST(WriteTest, Evicts) {\n  DBImpl impl;\n  impl.Write(1);\n}\n\n}\n",
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_member_defined_outside_its_class_is_the_class_s_method(make_project, engine):
    project = make_project(CPP, name="cppmembers", config=engine_config(engine, "cppmembers"))
    resync(project)
    # the bare `Flush()` is the object's own: DBImpl's, not Repairer's; `cache_->Evict` is the
    # Evict of the type the header declares the field with (`TableCache* cache_;`), not LRUCache's
    assert callees(project, "db.DBImpl.Write") == {
        ("db.DBImpl.Flush", "extracted"),
        ("db.TableCache.Evict", "extracted"),
    }
    # a field of the standard library's type (`std::string name_;`): no reference, not LRUCache's
    # `clear`; one no file declares (`other_`): a guess among the methods of its name, as before
    assert callees(project, "db.DBImpl.Flush") == {
        ("db.TableCache.Evict", "heuristic"),
        ("db.LRUCache.Evict", "heuristic"),
    }
    # in the anonymous namespace, Repairer's methods are its own: its `Flush()` is Repairer's
    assert callees(project, "db.Repairer.Run") == {("db.Repairer.Flush", "extracted"), ("db.BuildTable", "extracted")}
    # `DBImpl impl; impl.Write(1);`: a local of a declared type, that type's method
    assert covering(project, "db.DBImpl.Write") == {("symbol", "db/write_test.cc", "extracted")}
    # a member of a local of a declared type (`DBImpl* impl`; `impl->cache_`): the member's type;
    # `new DBImpl()` a call of the class and its constructor, one target (the class in the header)
    assert callees(project, "db.Open") == {
        ("db.TableCache.Evict", "extracted"),
        ("db.DBImpl", "extracted"),
        ("db.DBImpl.DBImpl", "extracted"),
    }
    # a template's arguments are no part of the name; SkipList defines no Flush: a bare call on its
    # own object, which another class's member (its file's only Flush, DBImpl's) answers only as a guess
    assert callees(project, "db.SkipList.Insert") == {("db.DBImpl.Flush", "heuristic")}


def test_who_calls_a_member_typed_with_its_class_answers_from_the_graph(make_project):
    project = make_project(CPP, name="cppask")
    resync(project)
    answer = ask_project(project, "who calls TableCache::Evict", now=NOW, limit=5)
    assert answer.mode == "graph"
    assert any("callers (incoming) from db.TableCache.Evict" in note for note in answer.notes), answer.notes
    assert answer.excerpts[0].fact.source.uri == "db/db_impl.cc:5-9"  # DBImpl::Write
    # each member of the anonymous namespace is its own excerpt, not one block for the namespace
    callers = ask_project(project, "who calls `db::BuildTable`", now=NOW, limit=5)
    assert [e.fact.source.uri for e in callers.excerpts] == ["db/repair.cc:7-10"]


def test_kenning_graph_takes_a_member_as_cpp_spells_it(make_project, cli):
    project = make_project(CPP, name="cppcli")
    resync(project)
    impact = cli("graph", "impact", "TableCache::Evict", "--json", "--project", str(project.root)).json()
    assert impact["excerpts"][0]["source"]["uri"] == "db/db_impl.cc:5-9"  # DBImpl::Write calls it
