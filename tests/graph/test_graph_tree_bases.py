"""A self call in the tree-sitter languages that its own class does not answer reaches the method
of the class's bases (parser ``code/5``): what a class extends, what a Go struct embeds, the
modules a Ruby class includes, a base another file defines followed into that file's own bases; a
base imported from outside the project reaches none of the project's homonyms. On both engines."""

from __future__ import annotations

import pytest
from graph_edges import callees

from conftest import resync
from kenning.ingest.tree_code import parse_code_relations
from store.pg_engine import ENGINE, engine_config  # tests/store: the PostgreSQL test server

# `save` is defined twice, so a call on an unknown receiver stays a guess between the two.
TS = {
    "src/base.ts": "export class Base {\n  save(): void {}\n  close(): void {}\n}\n",
    "src/store.ts": "export class Store {\n  save(): void {}\n  close(): void {}\n}\n",
    "src/mid.ts": "import { Base } from './base';\n\nexport class Mid extends Base {\n  reset(): void {}\n}\n",
    "src/model.ts": (
        "import { Mid } from './mid';\nimport { Component } from 'react';\n\n"
        "export class Model extends Mid {\n  run(): void {\n    this.save();\n    this.reset();\n  }\n}\n\n"
        "export function persist(): void {\n  const m = new Model();\n  m.close();\n}\n\n"
        "export class Widget extends Component {\n  paint(): void {\n    this.save();\n  }\n}\n"
    ),
    "src/use.ts": (
        "import { Mid } from './mid';\n\nexport function wipe(): void {\n  const m = new Mid();\n  m.close();\n}\n"
    ),
    # a homonym: "Model" alone names two classes, so Model's bases come from its own file's hint
    "src/admin/model.ts": (
        "import { Store } from '../store';\n\nexport class Model extends Store {\n  describe(): string {\n"
        "    return '';\n  }\n}\n"
    ),
}
GO = {
    "base.go": "package app\n\ntype Base struct{}\n\nfunc (b *Base) Save() {}\n",
    "disk.go": "package app\n\ntype Disk struct{}\n\nfunc (d *Disk) Save() {}\n",
    "server.go": (
        "package app\n\ntype Server struct {\n  *Base\n  name string\n}\n\n"
        "func (s *Server) Run() {\n  s.Save()\n}\n\nfunc start() {\n  srv := &Server{}\n  srv.Save()\n}\n"
    ),
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_self_call_reaches_the_method_of_the_bases_followed_across_files(make_project, engine):
    project = make_project(TS, name="tsbases", config=engine_config(engine, "tsbases"))
    resync(project)
    # Model extends Mid (its file), which extends Base (another file): Base's save, not Store's
    assert callees(project, "Model.run") == {("Base.save", "extracted"), ("Mid.reset", "extracted")}
    # a call on a value of Model: Model's bases too
    assert callees(project, "persist") == {("Model", "extracted"), ("Base.close", "extracted")}
    # a value of a class another file defines: that file's bases for it, then theirs
    assert callees(project, "wipe") == {("Mid", "extracted"), ("Base.close", "extracted")}
    # React's Component is no class of the project: a guess between the project's two, as before
    assert callees(project, "Widget.paint") == {("Base.save", "heuristic"), ("Store.save", "heuristic")}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_go_struct_gets_the_methods_of_the_type_it_embeds(make_project, engine):
    project = make_project(GO, name="gobases", config=engine_config(engine, "gobases"))
    resync(project)
    assert callees(project, "Server.Run") == {("Base.Save", "extracted")}  # s.Save(): the embedded *Base's
    assert callees(project, "start") == {("Base.Save", "extracted")}  # srv := &Server{}: the same


SUPER = {
    "src/base.ts": "export class Base {\n  save(): void {}\n}\n",
    "src/child.ts": (
        "import { Base } from './base';\n\n"
        "export class Child extends Base {\n  save(): void {\n    super.save();\n  }\n}\n"
    ),
}


def test_a_call_on_super_reaches_the_bases_method_not_the_override_making_it(make_project):
    """``super.save()`` in Child's own ``save``: Base's, where the call's name alone picked the
    caller itself (in its file) and Base's."""
    project = make_project(SUPER, name="tssuper")
    resync(project)
    assert callees(project, "Child.save") == {("Base.save", "extracted")}


JAVA = {
    "src/Base.java": "class Base {\n  void save() {}\n}\n",
    "src/Store.java": "class Store {\n  void save() {}\n}\n",
    "src/Util.java": "class Util {\n  static void log() {}\n}\n",
    "src/Named.java": 'interface Named {\n  default String label() {\n    return "";\n  }\n}\n',
    "src/Tag.java": 'class Tag {\n  String label() {\n    return "";\n  }\n}\n',
    "src/Job.java": (
        "class Job extends Base implements Named {\n  void run() {\n    save();\n    log();\n    label();\n  }\n}\n"
    ),
}


def test_a_bare_call_in_a_java_method_is_one_on_its_own_object_first(make_project):
    """Java has no free functions: ``save()`` in a method of Job is Job's or its bases' (its
    interfaces' default methods among them); ``log()``, which neither has, is another class's
    member (through a static import), a guess at the project's only ``log``."""
    project = make_project(JAVA, name="javabases")
    resync(project)
    assert callees(project, "Job.run") == {
        ("Base.save", "extracted"),
        ("Util.log", "heuristic"),
        ("Named.label", "extracted"),  # the default method of an interface Job implements, not Tag's
    }


RUBY = {
    "lib/logging.rb": "module Logging\n  def log_it(text)\n  end\n\n  def logger\n  end\nend\n",
    "lib/audit.rb": "module Audit\n  def log_it(text)\n  end\n\n  def logger\n  end\nend\n",
    "lib/job.rb": (
        "class Job < Base\n  extend Audit\n  include Logging\n\n  def run\n    log_it('done')\n  end\n\n"
        "  def stop(audit)\n    logger.warn\n    audit.close\n  end\nend\n"
    ),
}


@pytest.mark.parametrize("engine", ["sqlite", ENGINE])
def test_a_ruby_class_gets_the_methods_of_the_modules_it_includes(make_project, engine):
    """``include Logging`` mixes Logging's methods into Job's objects (``extend`` into its class:
    not a base of its objects): the bare ``log_it`` reaches Logging's, not Audit's homonym; so
    does ``logger`` written without arguments (parser ``code/6``), a parameter's name no call."""
    project = make_project(RUBY, name="rubybases", config=engine_config(engine, "rubybases"))
    resync(project)
    assert callees(project, "Job.run") == {("Logging.log_it", "extracted")}
    assert callees(project, "Job.stop") == {("Logging.logger", "extracted")}


@pytest.mark.parametrize(
    "path, source, hint",
    [
        ("a.js", "class A extends B { run() { this.save(); } }\n", "self:.A B"),
        ("a.ts", "abstract class A extends B { run(): void { this.save(); } }\n", "self:.A B"),
        ("A.java", "class A extends Base<T> { void run() { this.save(); } }\n", "self:.A Base"),
        ("a.rb", "module M\n  class A < B\n    def run\n      self.save\n    end\n  end\nend\n", "self:.M.A B"),
        ("a.cpp", "namespace ns { class A : public B, C { void run() { this->save(); } }; }\n", "self:.ns.A B C"),
        ("b.cpp", "struct A : x::B, Base<T>, a::b::C { void run() { save(); } };\n", "self:.A B Base C"),
        (
            "a.go",
            "package p\n\ntype A struct {\n  B\n  *C\n  x int\n}\n\nfunc (a *A) Run() { a.Save() }\n",
            "self:.A B C",
        ),
        ("a.rs", "struct A;\nimpl A {\n  fn run(&self) { self.save(); }\n}\n", "self:.A"),  # no bases in Rust
        ("B.java", "class A extends B { void run() { save(); } }\n", "self:.A B"),  # a bare call: its object's
        ("C.java", "class A extends B implements I, J<T> { void run() { save(); } }\n", "self:.A B I J"),
        ("b.rb", "class A < B\n  def run\n    save(1)\n  end\nend\n", "self:.A B"),
        (
            "c.rb",
            "class A < X::B\n  include Log\n  extend Ext\n  def run\n    save(1)\n  end\nend\n",
            "self:.A X.B Log",
        ),  # by its modules
        # a class named through its module: the class ``M.X.A`` (parser ``code/6``)
        ("d.rb", "module M\n  class X::A < B\n    def run\n      save(1)\n    end\n  end\nend\n", "self:.M.X.A B"),
        ("b.ts", "class A extends B { run() { save(); } }\n", None),  # a function: no object's
    ],
)
def test_each_language_names_a_classes_bases_in_its_self_calls_and_a_bases_reference(path, source, hint):
    _, relations = parse_code_relations(source, path)
    assert relations is not None
    (call,) = [r for r in relations.refs if r.type == "calls"]
    assert call.hint == hint
    bases = [(r.target, r.scope, r.hint) for r in relations.refs if r.type == "bases"]
    if hint is None:
        assert bases == [("A", "A", ".A B")]
        return
    cls = hint.split(" ")[0].removeprefix("self:.")
    entries = hint.removeprefix("self:")
    assert bases == ([(cls.rpartition(".")[2], cls, entries)] if " " in hint else [])


def test_a_namespace_is_no_class_and_a_class_inside_a_function_gives_it_no_bases():
    """leveldb's ``TEST_F(CorruptionTest, …) { RepairDB(); }`` sits in ``namespace leveldb``: its
    bare call is a plain one (the fixture's method in the file), not one on a namespace "object";
    a struct declared in a function body is no definition of the file, so no bases of the function."""
    source = (
        "namespace ns {\nvoid helper() {}\nvoid f() {\n  helper();\n  struct Local : public Base {};\n}\n"
        "class K : public Base {\n  void g() { helper(); }\n};\n}\n"
    )
    _, relations = parse_code_relations(source, "a.cpp")
    assert relations is not None
    calls = {(r.scope, r.hint) for r in relations.refs if r.type == "calls"}
    assert calls == {("ns.f", None), ("ns.K.g", "self:.ns.K Base")}
    assert [(r.target, r.scope) for r in relations.refs if r.type == "bases"] == [("K", "ns.K")]
