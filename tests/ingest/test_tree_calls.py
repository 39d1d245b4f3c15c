"""Calls in the tree-sitter languages (parser ``code/4``, ``ingest.tree_calls``): one ``calls``
reference per name a definition calls, how surely each can be resolved, none for what lies
outside the project."""

from __future__ import annotations

import pytest

from kenning.ingest.grammars import LANGUAGES
from kenning.ingest.tree_code import parse_code_relations
from kenning.ingest.tree_queries import IMPORTS, query

# What Kotlin's and Swift's ``Model.save`` below call: the two languages read calls by the same rules
# (a bare call on the class, ``this.``/``self.``, ``super.``, a type's function, a constructor call).
_MODEL_CALLS = {
    ("validate", "Model.save", "self:.Model Base", False, "extracted"),
    ("touch", "Model.save", "self:.Model Base", True, "extracted"),
    ("save", "Model.save", "self:.Base", True, "extracted"),
    ("put", "Model.save", "Store", True, "extracted"),
    ("Row", "Model.save", "self:.Model Base", False, "extracted"),
    ("fill", "Model.save", "self:.Row", True, "extracted"),  # ``val row = Row()``: a local typed by its constructor
}
# path -> (source, {(target, scope, hint, qualified, link)})
SAMPLES = {
    "web/router.ts": (
        "import * as util from './util';\n"
        "import { map } from 'lodash';\n"
        "import fs from 'fs';\n"
        "export class Router {\n"
        "  handle(req) {\n"
        "    this.dispatch(req);\n"
        "    util.log(req);\n"
        "    map([1], (x) => x);\n"
        "    console.log(req);\n"
        "    fs.readFile('x');\n"
        "    Config.load();\n"
        "    return render(req);\n"
        "  }\n"
        "}\n"
        "function render(r) { return new View(r); }\n",
        {
            ("dispatch", "Router.handle", "self:.Router", True, "extracted"),  # a self call
            ("log", "Router.handle", "from:web/util", False, "extracted"),  # through a module imported by path
            ("load", "Router.handle", "Config", True, "extracted"),  # through a class
            ("render", "Router.handle", None, False, "extracted"),
            ("View", "render", None, False, "extracted"),
        },
    ),
    "svc/server.go": (
        'package main\n\nimport (\n  "fmt"\n  st "github.com/x/y/store"\n  "github.com/x/y/api"\n)\n\n'
        "func (s *Server) Run() {\n  fmt.Println(1)\n  s.handle()\n  st.Open()\n  api.Serve()\n"
        "  helper(len(x))\n}\n\nfunc helper(n int) {}\n",
        {
            ("handle", "Server.Run", "self:.Server", True, "extracted"),  # on the receiver
            # through a package: the path it is imported by (its alias aside), for the resolver
            ("Open", "Server.Run", "go:github.com/x/y/store", False, "extracted"),
            ("Serve", "Server.Run", "go:github.com/x/y/api", False, "extracted"),
            ("helper", "Server.Run", None, False, "extracted"),
        },
    ),
    "src/lib.rs": (
        "use std::io;\nuse std::{cmp::max, fs::File as F};\nuse crate::error::Failure;\n\nstruct P;\n\nimpl P {\n"
        "    fn new() -> P {\n        P::build();\n        util::parse();\n        std::cmp::max(1, 2);\n"
        # the standard library's names a ``use`` binds: no reference (``rust_uses``); the crate's: one
        "        io::Error::new(io::ErrorKind::Other, 1);\n        max(1, 2);\n        F::open(x);\n"
        "        Failure::new();\n"
        "        Self::check();\n"
        "        self.go();\n        P\n    }\n}\n\nfn main() {\n    P::new();\n}\n",
        {
            ("build", "P.new", "P", True, "extracted"),
            ("new", "P.new", "Failure", True, "extracted"),
            ("check", "P.new", "P", True, "extracted"),  # Self: the impl's type
            ("parse", "P.new", None, False, "heuristic"),
            ("go", "P.new", "self:.P", True, "extracted"),
            ("new", "main", "P", True, "extracted"),
        },
    ),
    "src/A.java": (
        "class A { void r() { g(); this.h(); a.b(); new K(); Foo.bar(); } void g() {} }\n",
        {
            ("g", "A.r", "self:.A", False, "extracted"),  # one line: the scope is found by bytes; A's first
            ("h", "A.r", "self:.A", True, "extracted"),
            ("b", "A.r", None, True, "extracted"),
            ("K", "A.r", None, False, "extracted"),
            ("bar", "A.r", "Foo", True, "extracted"),
        },
    ),
    "src/a.cpp": (
        "namespace n {\nint k() { return 0; }\n}\nvoid f() {\n  n::k();\n  std::max(1, 2);\n  Foo::make();\n"
        "  p->c();\n  g();\n}\nclass K {\n  void a() { this->b(); }\n};\n",
        {
            ("k", "f", None, False, "heuristic"),
            ("make", "f", "Foo", True, "extracted"),
            ("c", "f", None, True, "extracted"),  # on a value: an attribute call
            ("g", "f", None, False, "extracted"),
            ("b", "K.a", "self:.K", True, "extracted"),
        },
    ),
    "src/conn.rs": (
        "struct P;\nimpl P {\n    fn a(&self, c: Conn) {\n        c.send();\n        crate::util::parse();\n    }\n}\n",
        # ``crate::util::parse()``: through the crate's own modules, a plain call (parser ``code/27``)
        {("send", "P.a", "self:.Conn", True, "extracted"), ("parse", "P.a", None, False, "extracted")},
    ),
    "lib/a.rb": (
        "require 'json'\n\nmodule M\n  class C\n    def run\n      helper(1)\n      self.go\n      Foo.build\n"
        "      puts 'x'\n    end\n  end\nend\n",
        {
            ("helper", "M.C.run", "self:.M.C", False, "extracted"),  # a bare call: C's method first
            ("go", "M.C.run", "self:.M.C", True, "extracted"),
            ("build", "M.C.run", "Foo", True, "extracted"),
        },
    ),
    # a class named through its module (``Table::Cell``) is named as the parser names it
    # (``M.Table.Cell``); a call through a constant path names its last constant as the type, and
    # one through a top-level constant (``::Set``) the type too: none of the project's ``new``
    "lib/cell.rb": (
        "module M\n  class Table::Cell\n    def run\n      helper(1)\n      M::Section.build(2)\n"
        "      ::Set.new\n    end\n  end\nend\n",
        {
            ("helper", "M.Table.Cell.run", "self:.M.Table.Cell", False, "extracted"),
            ("build", "M.Table.Cell.run", "Section", True, "extracted"),
            ("new", "M.Table.Cell.run", "Set", True, "extracted"),
        },
    ),
    # a bare name is a call on the object unless the method binds it (an assignment, a parameter, a
    # block's, a rescued exception's); in a class's body, on the class (parser ``code/6``)
    "lib/bare.rb": (
        "class K\n  @i = new\n  register\n  def run(x, y = 2, k: 1, &b)\n    z = 1\n    a, c = x, y\n    flush\n"
        "    cursor.line\n    [1].each {|i| step; i }\n    w += z\n    puts a, c, k, b\n"
        "  rescue => e\n    e\n  end\nend\n",
        {
            ("register", "K", "self:.K", False, "extracted"),
            ("flush", "K.run", "self:.K", False, "extracted"),
            ("cursor", "K.run", "self:.K", False, "extracted"),
            ("line", "K.run", None, True, "extracted"),
            ("step", "K.run", "self:.K", False, "extracted"),  # ``[1].each``: Ruby's own (``STD_METHODS``)
        },
    ),
    # a generic type's impl is the type's (``Stack.push``, not ``Stack<T>.push``), a path's its last name
    "src/stack.rs": (
        "struct Stack<T> {\n    v: Vec<T>,\n}\n\nimpl<T> Stack<T> {\n    fn push(&mut self) {\n"
        "        self.grow();\n    }\n}\n\nimpl crate::pool::Pool {\n    fn open() {\n"
        "        Stack::new();\n    }\n}\n",
        {("grow", "Stack.push", "self:.Stack", True, "extracted"), ("new", "Pool.open", "Stack", True, "extracted")},
    ),
    "src/a.c": (
        "int g(int x);\n\nint f(int x) {\n  return g(x) + ops->run(x);\n}\n",
        {("g", "f", None, False, "extracted"), ("run", "f", None, True, "extracted")},
    ),
    # PHP: ``$this->`` and ``self::``/``static::`` on the class, ``parent::`` on its bases alone (none
    # when the file names no base), ``Store::`` through a type, a qualified ``\strlen()`` and PHP's own
    # ``count()`` no reference
    "src/Model.php": (
        "<?php\nclass Model extends Base\n{\n    public function save()\n    {\n        $this->validate();\n"
        "        self::boot();\n        parent::save();\n        Store::put($this);\n        $x = new Row();\n"
        "        $x->fill();\n        helper(count($x));\n        \\strlen('a');\n    }\n}\n"
        "class Bare\n{\n    function go() { parent::go(); }\n}\n",
        {
            ("validate", "Model.save", "self:.Model Base", True, "extracted"),
            ("boot", "Model.save", "self:.Model Base", True, "extracted"),
            ("save", "Model.save", "self:.Base", True, "extracted"),
            ("put", "Model.save", "Store", True, "extracted"),
            ("Row", "Model.save", None, False, "extracted"),
            ("fill", "Model.save", "self:.Row", True, "extracted"),
            ("helper", "Model.save", None, False, "extracted"),
        },
    ),
    # Kotlin: a bare call on the class, ``this.``/``super.``, a type's (companion's) function, a
    # constructor called as a function, the standard library's ``listOf()`` no reference
    "app/src/main/kotlin/Model.kt": (
        "class Model : Base() {\n    fun save() {\n        validate()\n        this.touch()\n        super.save()\n"
        "        Store.put(this)\n        val row = Row()\n        row.fill()\n        listOf(1)\n    }\n}\n",
        _MODEL_CALLS,
    ),
    # Swift: a bare call on the class, ``self.``/``super.``, a type's static function, a constructor
    # called as a function, ``print()`` no reference
    "Sources/Shop/Model.swift": (
        "class Model: Base {\n    func save() {\n        validate()\n        self.touch()\n        super.save()\n"
        "        Store.put(self)\n        let row = Row()\n        row.fill()\n        print(1)\n    }\n}\n",
        _MODEL_CALLS,
    ),
    # Scala: the same rules, ``new Row()`` its constructor, ``println`` no reference
    "src/main/scala/shop/Model.scala": (
        "class Model extends Base {\n  def save(): Unit = {\n    validate()\n    this.touch()\n    super.save()\n"
        "    Store.put(this)\n    val row = new Row()\n    row.fill()\n    println(1)\n    row touch 2\n"
        "    val n = 1 + 2\n    row.size\n  }\n}\n",
        {
            ("touch", "Model.save", "self:.Row", True, "extracted"),  # infix: ``row.touch(2)``
            ("size", "Model.save", "self:.Row", True, "extracted"),  # no parentheses: a call all the same
            ("validate", "Model.save", "self:.Model Base", False, "extracted"),
            ("touch", "Model.save", "self:.Model Base", True, "extracted"),
            ("save", "Model.save", "self:.Base", True, "extracted"),
            ("put", "Model.save", "Store", True, "extracted"),
            ("Row", "Model.save", None, False, "extracted"),
            ("fill", "Model.save", "self:.Row", True, "extracted"),
        },
    ),
    # C#: a bare call on the class (``Validate()``), ``this.``/``base.``, a type's static method, a
    # generic call, ``?.``; the base library's ``Console`` and a test's ``Assert`` no reference
    "src/Model.cs": (
        "namespace App\n{\n    public class Model : Base\n    {\n        public void Save()\n        {\n"
        "            Validate();\n            this.Touch();\n            base.Save();\n            Store.Put(this);\n"
        "            Make<int>();\n            row?.Fill();\n            Console.WriteLine(1);\n"
        "            Assert.Equal(1, 2);\n        }\n    }\n}\n",
        {
            ("Validate", "Model.Save", "self:.Model Base", False, "extracted"),
            ("Touch", "Model.Save", "self:.Model Base", True, "extracted"),
            ("Save", "Model.Save", "self:.Base", True, "extracted"),
            ("Put", "Model.Save", "Store", True, "extracted"),
            ("Make", "Model.Save", "self:.Model Base", False, "extracted"),
            ("Fill", "Model.Save", None, True, "extracted"),
        },
    ),
}


@pytest.mark.parametrize("path", sorted(SAMPLES))
def test_each_language_names_what_its_definitions_call(path):
    text, expected = SAMPLES[path]
    _, rel = parse_code_relations(text, path)
    calls = [r for r in rel.refs if r.type == "calls"]
    assert {(r.target, r.scope, r.hint, r.qualified, r.link) for r in calls} == expected
    assert [r.line for r in calls] == sorted(r.line for r in calls)  # in the order of the source
    assert not any(r.tested for r in calls)


def test_a_test_file_without_definitions_still_calls_and_each_call_tests():
    text = (
        "import { render } from '../src/app';\n\n"
        "describe('render', () => {\n  it('works', () => {\n"
        "    expect(render(1)).toBe(2);\n    render(2);\n  });\n});\n"
    )
    chunks, rel = parse_code_relations(text, "test/app.test.ts")
    calls = {(r.target, r.scope, r.qualified, r.tested) for r in rel.refs if r.type == "calls"}
    assert ("render", None, False, True) in calls  # the file's, once
    assert [r.target for r in rel.refs if r.type == "calls"].count("render") == 1
    assert chunks and rel.symbols == ()


def test_a_go_method_is_named_by_its_receiver_type():
    text = (
        "package m\n\nfunc (s *Server) Run() {}\n\n"
        "func (l List[T]) Len() int { return 0 }\n\nfunc (*Pool[K, V]) Get() {}\n"
    )
    _, rel = parse_code_relations(text, "m/m.go")
    assert [s.qualname for s in rel.symbols] == ["Server.Run", "List.Len", "Pool.Get"]


def test_every_package_of_a_go_import_block_is_imported():
    text = 'package m\n\nimport (\n  "fmt"\n  st "github.com/x/y/store"\n)\n\nimport "os"\n\nfunc f() {}\n'
    _, rel = parse_code_relations(text, "m/m.go")
    assert [(r.target, r.hint, r.line) for r in rel.refs if r.type == "imports"] == [
        ("go:store", "go:github.com/x/y/store", 5),  # the standard library's packages (fmt, os): none
    ]


def test_a_go_value_of_an_imported_packages_type_names_the_package_and_the_type():
    text = (
        'package doc\n\nimport (\n  "testing"\n  "github.com/spf13/cobra"\n  pf "github.com/spf13/pflag"\n)\n\n'
        "func gen(cmd *cobra.Command, c cobra.Command, fs *pf.FlagSet, t *testing.T, o *other.Thing) {\n"
        '  cmd.Execute()\n  c.Name()\n  fs.Parse()\n  t.Errorf("x")\n  o.Do()\n'
        "  x := &cobra.Command{}\n  x.Flags()\n  var y cobra.Command\n  y.Root()\n}\n"
    )
    _, rel = parse_code_relations(text, "doc/gen.go")
    assert [(r.target, r.hint, r.qualified) for r in rel.refs if r.type == "calls"] == [
        ("Execute", "go:github.com/spf13/cobra#Command", True),
        ("Name", "go:github.com/spf13/cobra#Command", True),
        ("Parse", "go:github.com/spf13/pflag#FlagSet", True),  # by its alias, the path it imports
        # t.Errorf: a method of the standard library's testing.T, no reference
        ("Do", None, True),  # a package the file does not import: a value as any other
        ("Flags", "go:github.com/spf13/cobra#Command", True),
        ("Root", "go:github.com/spf13/cobra#Command", True),
    ]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_grammar_compiles_its_queries(language):
    """A query naming a node its grammar lacks fails when first run: each is compiled here."""
    assert query(language, "calls") is not None  # with the typed bindings, assignments, receivers
    if language in IMPORTS:
        assert query(language, "imports") is not None


# path -> (source, {(target, hint)} of its calls on a receiver)
TYPED = {
    "web/a.ts": (
        "function f(a: Client, b?: Store) {\n  a.send();\n  b.save();\n  const v = new View();\n  v.render();\n"
        "  let w: Pool = make();\n  w.take();\n}\n",
        {("send", "self:.Client"), ("save", "self:.Store"), ("render", "self:.View"), ("take", "self:.Pool")},
    ),
    "web/mixed.ts": (  # assigned again: which value a call meets depends on the flow
        "function g() {\n  let x = new A();\n  x.run();\n  x = new B();\n  x.run();\n}\n",
        {("run", None)},
    ),
    "src/A.java": (
        "class A {\n  void r(Client c) {\n    c.send();\n    Store s = new Store();\n    s.save();\n  }\n}\n",
        {("send", "self:.Client"), ("save", "self:.Store")},
    ),
    "m/a.go": (
        "package m\n\nfunc f(c *Client) {\n  c.Send()\n  s := Store{}\n  s.Save()\n  p := &Pool{}\n  p.Take()\n"
        "  var q Queue\n  q.Push()\n  r := Ring{}\n  r = other()\n  r.Turn()\n}\n",
        {("Send", "self:.Client"), ("Save", "self:.Store"), ("Take", "self:.Pool"), ("Push", "self:.Queue")}
        | {("Turn", None)},
    ),
    "src/a.rs": (
        "fn f(c: &Client) {\n  c.send();\n  let s: Store = x();\n  s.save();\n  let p = Pool::new();\n  p.take();\n"
        "  let o = Pool::open();\n  o.close();\n}\n",
        {("send", "self:.Client"), ("save", "self:.Store"), ("take", "self:.Pool"), ("close", None)},
    ),
    "lib/a.rb": (
        "def f\n  s = Store.new(1)\n  s.save\n  t = Store.find(1)\n  t.load\nend\n",
        {("save", "self:.Store"), ("load", None)},
    ),
    "src/a.php": (
        "<?php\nfunction f(Client $c, $d) {\n  $c->send();\n  $s = new Store();\n  $s->save();\n  $d->x();\n"
        "  $t = new A();\n  $t = new B();\n  $t->run();\n}\n",
        {("send", "self:.Client"), ("save", "self:.Store"), ("x", None), ("run", None)},
    ),
    "app/src/main/kotlin/a.kt": (
        "fun f(c: Client) {\n  c.send()\n  val s: Store = make()\n  s.save()\n  var t: Ring = make()\n"
        "  t = other()\n  t.turn()\n}\n",
        {("send", "self:.Client"), ("save", "self:.Store"), ("turn", None)},
    ),
    "Sources/Shop/a.swift": (
        "func f(c: Client, _ d: Disk) {\n  c.send()\n  d.spin()\n  let s: Store = make()\n  s.save()\n"
        "  var t: Ring = make()\n  t = other()\n  t.turn()\n}\n",
        {("send", "self:.Client"), ("spin", "self:.Disk"), ("save", "self:.Store"), ("turn", None)},
    ),
    "src/main/scala/a.scala": (
        "def f(c: Client): Unit = {\n  c.send()\n  val s: Store = make()\n  s.save()\n  val d = new Disk()\n"
        "  d.spin()\n  val o = other()\n  o.turn()\n}\n",
        {("send", "self:.Client"), ("save", "self:.Store"), ("spin", "self:.Disk"), ("turn", None)},
    ),
    "src/A.cs": (
        "class A {\n  void R(Client c) {\n    c.Send();\n    Store s = Make();\n    s.Save();\n"
        "    var v = new View();\n    v.Render();\n    var w = Make();\n    w.Take();\n  }\n}\n",
        {("Send", "self:.Client"), ("Save", "self:.Store"), ("Render", "self:.View"), ("Take", None)},
    ),
    # C++ (parser ``code/6``): parameters and locals by their declared type, a namespace's by its
    # name, the standard library's none; ``auto`` gives no type
    "db/f.cc": (
        "void f(VersionEdit* edit, const Options& o, port::CondVar* cv, const std::string& s) {\n"
        "  Table* t = nullptr;\n  Status st;\n  auto a = g();\n  std::vector<int> v;\n"
        "  edit->SetLog(1);\n  o.Check();\n  cv->Signal();\n  s.size();\n  t->Get();\n  st.ok();\n"
        "  a->Go();\n  v.size();\n  SkipList<Key> sl;\n  sl.Insert(1);\n}\n",
        {
            ("SetLog", "self:.VersionEdit"),
            ("Check", "self:.Options"),
            ("Signal", "self:.CondVar"),
            ("Get", "self:.Table"),
            ("ok", "self:.Status"),
            ("Go", None),
            ("Insert", "self:.SkipList"),  # a template's type by its own name
        },
    ),
}


@pytest.mark.parametrize("path", sorted(TYPED))
def test_a_call_on_a_name_bound_to_a_spelled_type_is_a_call_on_that_type(path):
    text, expected = TYPED[path]
    _, rel = parse_code_relations(text, path)
    calls = {(r.target, r.hint) for r in rel.refs if r.type == "calls" and r.qualified and r.hint != r.target}
    assert {c for c in calls if c[1] is None or c[1].startswith("self:")} == expected


def test_jsx_and_tsx_calls_are_read():
    jsx = "import { h } from './h';\nexport function App() {\n  return <div onClick={() => h(1)}>{render()}</div>;\n}\n"
    for path in ("web/App.jsx", "web/App.tsx"):
        _, rel = parse_code_relations(jsx, path)
        assert {(r.target, r.scope) for r in rel.refs if r.type == "calls"} == {("h", "App"), ("render", "App")}


FIELDS = {
    "web/r.ts": (
        "class R {\n  private store: Store;\n  #cache: Cache;\n  constructor(private db: Db) {}\n  h() {\n"
        "    this.store.save();\n    this.db.q();\n    this.other.x();\n    this.#cache.clear();\n  }\n}\n",
        {("save", "self:.Store"), ("q", "self:.Db"), ("x", None), ("clear", "self:.Cache")},
    ),
    "src/A.java": (
        "class A {\n  private Store store;\n  void r() {\n    store.save();\n    this.store.load();\n    other.x();\n"
        "    Store store2 = null;\n    Helper.run();\n  }\n}\n",
        {("save", "self:.Store"), ("load", "self:.Store"), ("x", None), ("run", "Helper")},
    ),
    "m/s.go": (
        "package m\n\ntype Server struct {\n  db *DB\n  n  Name\n}\n\n"
        "func (s *Server) Run() {\n  s.db.Query()\n  s.n.Len()\n  t.db.Close()\n}\n",
        {("Query", "self:.DB"), ("Len", "self:.Name"), ("Close", None)},  # `t` is not the receiver
    ),
    # PHP: a typed property and a constructor's promoted parameter, through ``$this->``
    "src/R.php": (
        "<?php\nclass R\n{\n    private Store $store;\n    public function __construct(private Db $db) {}\n"
        "    function h() {\n        $this->store->save();\n        $this->db->q();\n        $this->other->x();\n"
        "        Helper::run();\n    }\n}\n",
        {("save", "self:.Store"), ("q", "self:.Db"), ("x", None), ("run", "Helper")},
    ),
    # Kotlin: a constructor's property and a typed property, bare
    "app/src/main/kotlin/R.kt": (
        "class R(private val store: Store) {\n    private val db: Db = Db()\n    fun h() {\n        store.save()\n"
        "        db.q()\n        other.x()\n        Helper.run()\n    }\n}\n",
        {("save", "self:.Store"), ("q", "self:.Db"), ("x", None), ("run", "Helper")},
    ),
    # Swift: a typed property, bare or through ``self``
    "Sources/Shop/R.swift": (
        "class R {\n    private let store: Store\n    func h() {\n        store.save()\n        self.store.load()\n"
        "        other.x()\n        Helper.run()\n    }\n}\n",
        {("save", "self:.Store"), ("load", "self:.Store"), ("x", None), ("run", "Helper")},
    ),
    # Scala: a class parameter and a typed field, bare or through ``this``
    "src/main/scala/R.scala": (
        "class R(store: Store) {\n  private val db: Db = new Db()\n  def h(): Unit = {\n    store.save()\n"
        "    this.db.q()\n    other.x()\n    Helper.run()\n  }\n}\n",
        # ``this.db`` too: Scala calls a method written without parentheses (R would answer one named db)
        {("save", "self:.Store"), ("q", "self:.Db"), ("x", None), ("run", "Helper"), ("db", "self:.R")},
    ),
    # C#: a field and a property, bare or through ``this``
    "src/R.cs": (
        "class R {\n  private readonly Store _store;\n  public Db Data { get; set; }\n  void H() {\n"
        "    _store.Save();\n    this._store.Load();\n    Data.Q();\n    other.X();\n  }\n}\n",
        {("Save", "self:.Store"), ("Load", "self:.Store"), ("Q", "self:.Db"), ("X", None)},
    ),
    "src/p.rs": (
        "struct P {\n    store: Store,\n}\nimpl P {\n    fn a(&self) {\n        self.store.save();\n    }\n}\n",
        {("save", "self:.Store")},
    ),
    # C++ (parser ``code/6``): a pointer, a value, a reference, a namespaced type; bare or through
    # ``this``; the standard library's (``std::string``, ``std::vector<T>``) no reference at all
    "db/r.cc": (
        "class R {\n  TableCache* cache_;\n  Options opts_;\n  ns::Env& env_;\n  std::string name_;\n"
        "  std::vector<int> ids_;\n  SkipList<K> list_;\n  void Run() {\n    cache_->Evict(1);\n"
        "    opts_.Clear();\n    this->env_->Sync();\n    other->Go();\n    name_.size();\n    ids_.clear();\n"
        "    list_.Insert(1);\n  }\n};\n",
        # `other`, no field of this file's R: resolution asks the fields R's other files declare
        {
            ("Evict", "self:.TableCache"),
            ("Clear", "self:.Options"),
            ("Sync", "self:.Env"),
            ("Go", "field:R other"),
            ("Insert", "self:.SkipList"),
        },
    ),
}


# A type that may be null types its name as the type itself does (PHP's ``?Store`` and ``Store|null``,
# C#'s and Kotlin's ``Store?``, Swift's ``Store?``), and a call on it asserted not null (``d!.Three()``,
# ``d!!.three()``) is one on it; a union of two classes types nothing.
NULLABLE = {
    "app/A.php": (
        "<?php\nclass A {\n  private ?Store $a;\n  public function __construct(private ?Repo $c) {}\n"
        "  public function f(?Store $d, Store|null $e, Store|Cache $g) {\n"
        "    $this->a->one(); $this->c->two(); $d->three(); $e->four(); $g->five();\n  }\n}\n",
        {("one", "self:.Store"), ("two", "self:.Repo"), ("three", "self:.Store"), ("four", "self:.Store")}
        | {("five", None)},
    ),
    "src/A.cs": (
        "class A {\n  private Store? _a;\n  public Repo? Repo { get; }\n  void F(Store? d) {\n"
        "    Store? e = null;\n    _a.One(); Repo.Two(); d!.Three(); e?.Four();\n  }\n}\n",
        {("One", "self:.Store"), ("Two", "self:.Repo"), ("Three", "self:.Store"), ("Four", "self:.Store")},
    ),
    "app/A.kt": (
        "class A(private val s: Store?) {\n  val c: Cache? = null\n  fun f(d: Store?) {\n"
        "    s?.one(); c?.two(); d!!.three()\n  }\n}\n",
        {("one", "self:.Store"), ("two", "self:.Cache"), ("three", "self:.Store")},
    ),
    "Sources/A.swift": (
        "class A {\n  let api: ShopAPI?\n  func f(d: Store?) {\n    api?.one(); d!.three()\n  }\n}\n",
        {("one", "self:.ShopAPI"), ("three", "self:.Store")},
    ),
}


@pytest.mark.parametrize(
    ("path", "cases"), [(path, FIELDS) for path in sorted(FIELDS)] + [(path, NULLABLE) for path in sorted(NULLABLE)]
)
def test_a_call_on_a_typed_field_or_a_nullable_name_is_a_call_on_its_type(path, cases):
    text, expected = cases[path]
    _, rel = parse_code_relations(text, path)
    assert {(r.target, r.hint) for r in rel.refs if r.type == "calls" and r.qualified} == expected


# A call on an object created where it is called is a call on its class (``(new Streamer())->stream()``
# in koel's controllers); a lowercase function's result (Kotlin's ``helper().run()``) types nothing.
CREATED = {
    "app/a.php": ("<?php\nfunction f() { (new Streamer(1))->stream(); }\n", ("stream", "self:.Streamer")),
    "src/A.cs": ("class A { void F() { new Store().Persist(); } }", ("Persist", "self:.Store")),
    "src/A.java": ("class A { void f() { new Store().persist(); } }", ("persist", "self:.Store")),
    "src/a.ts": ("function f() { new Store().persist(); }", ("persist", "self:.Store")),
    "app/A.kt": ("fun f() { Store().persist(); helper().run() }", ("persist", "self:.Store")),
    "Sources/A.swift": ("func f() { Store().persist() }", ("persist", "self:.Store")),
    "src/A.scala": ("object A { def f() = new Store().persist() }", ("persist", "self:.Store")),
    # a type's shared instance, by the names conventions give it
    "Sources/B.swift": ("func f() { UserDefaults.standard.set(1) }", ("set", "self:.UserDefaults")),
    "src/B.cs": ("class A { void F() { Store.Instance.Save(); } }", ("Save", "self:.Store")),
    "src/B.java": ("class A { void f() { Store.INSTANCE.persist(); } }", ("persist", "self:.Store")),
    "src/C.cs": ("class A { void F() { Session.Current.End(); } }", ("End", "self:.Session")),
    "Sources/C.swift": ("func f() { Bundle.main.path() }", ("path", "self:.Bundle")),
    "Sources/D.swift": ("func f() { FileManager.default.removeItem() }", ("removeItem", "self:.FileManager")),
}


@pytest.mark.parametrize("path", sorted(CREATED))
def test_a_call_on_an_object_created_in_place_is_a_call_on_its_class(path):
    text, expected = CREATED[path]
    _, rel = parse_code_relations(text, path)
    qualified = {(r.target, r.hint) for r in rel.refs if r.type == "calls" and r.qualified}
    assert expected in qualified
    assert all(hint is None for target, hint in qualified if target == "run")  # ``helper().run()``


def test_a_callable_reference_calls_the_method_it_hands_over():
    """Compose wires a screen's actions as ``onChange = viewModel::updateDarkThemeConfig``: "who calls
    updateDarkThemeConfig" had no answer (nowinandroid). Kotlin's ``x::m`` and ``::f``, Java's
    ``this::save`` and ``Foo::bar`` are calls of what they name; ``Foo::class`` is none."""
    kotlin = (
        "class SettingsViewModel { fun updateDark() {} }\nfun top() {}\n"
        "fun Dialog(viewModel: SettingsViewModel) {\n"
        "    Panel(onChange = viewModel::updateDark, x = ::top, z = Foo::class)\n}\n"
    )
    _, rel = parse_code_relations(kotlin, "app/Dialog.kt")
    calls = {(r.target, r.hint) for r in rel.refs if r.type == "calls"}
    assert {("updateDark", "self:.SettingsViewModel"), ("top", None)} <= calls
    assert not any(target == "class" for target, _ in calls)
    java = "class A { void save() {} void f() { list.forEach(this::save); x.map(Foo::bar); } }"
    _, rel = parse_code_relations(java, "src/A.java")
    assert {("save", "self:.A"), ("bar", "Foo")} <= {(r.target, r.hint) for r in rel.refs if r.type == "calls"}


def test_the_names_a_rust_use_binds_and_where_their_path_starts():
    from tree_sitter import Parser

    from kenning.ingest.grammars import grammar
    from kenning.ingest.rust_uses import use_names

    source = (
        "use std::{io, path::Path};\nuse std::io::{self as sio, Read as R};\nuse std::fs::{self, File};\n"
        "use std::collections::HashMap as Map;\nuse crate::error::Error;\nuse super::thing;\nuse std::io::*;\n"
        "fn f() { use std::cmp::max; }\n"
    )
    tree = Parser(grammar("rust")).parse(source.encode())
    assert list(use_names(tree.root_node)) == [
        ("std", "io"),
        ("std", "Path"),
        ("std", "sio"),  # ``self as sio``: ``std::io`` itself, by another name
        ("std", "R"),
        ("std", "fs"),
        ("std", "File"),
        ("std", "Map"),
        ("crate", "Error"),
        ("super", "thing"),
    ]  # a glob names nothing; a function's own ``use`` is not the file's


# A method called on another call's result (``Regex::builder().build()`` in ripgrep's gitignore.rs,
# linked ``extracted`` to the file's only ``build``, GitignoreBuilder's): its receiver's type is
# unsaid, so the reference is a guess (``heuristic``), unless the scope also calls it on a value.
CHAINED = {
    "src/lib.rs": 'fn f() { let re = Regex::builder().configure(1).build("x"); }',
    "src/lib2.rs": "fn f() { let x = open()?.build(); }",
    "src/A.java": "class A { void f() { Foo.builder().name(1).build(); } }",
    "src/a.ts": "async function f() { (await load()).build(); }",
    "src/A.cs": "class A { void F() { Make().Configure().build(); } }",
    "lib/a.rb": "def f\n  make.configure(1).build\nend\n",
    "src/a.go": "package a\nfunc f() { New().build() }\n",
}


@pytest.mark.parametrize("path", sorted(CHAINED))
def test_a_call_on_another_calls_result_is_a_guess(path):
    _, rel = parse_code_relations(CHAINED[path], path)
    build = [r for r in rel.refs if r.type == "calls" and r.target == "build"]
    assert [(r.qualified, r.link) for r in build] == [(True, "heuristic")]


# A method called on a field of a field (ripgrep's ``self.config.colors.matched()`` in standard.rs, linked
# ``extracted`` to the file's only ``matched``, StandardSink's): no binding says the field's type, a guess.
FIELD_OF_FIELD = {
    "src/lib.rs": "impl A {\n    fn f(&self) { self.config.colors.build(); }\n}\n",
    "src/A.java": "class A { void f() { this.config.colors.build(); } }",
    "src/a.ts": "class A { f() { this.config.colors.build(); } }",
    "src/a.go": "package a\nfunc (s *S) f() { s.config.colors.build() }\n",
    "Sources/A.swift": "class A {\n  func f() { self.config.colors.build() }\n}\n",
}


@pytest.mark.parametrize("path", sorted(FIELD_OF_FIELD))
def test_a_call_on_a_field_of_a_field_is_a_guess(path):
    _, rel = parse_code_relations(FIELD_OF_FIELD[path], path)
    build = [r for r in rel.refs if r.type == "calls" and r.target == "build"]
    assert [(r.qualified, r.link) for r in build] == [(True, "heuristic")]


def test_a_call_on_a_typed_field_or_one_field_of_a_value_keeps_its_certainty():
    text = "struct A { config: Config }\nimpl A {\n    fn f(&self) { self.config.build(); other.config.build(); }\n}\n"
    _, rel = parse_code_relations(text, "src/lib.rs")
    assert [(r.hint, r.link) for r in rel.refs if r.type == "calls"] == [
        ("self:.Config", "extracted"),
        (None, "extracted"),
    ]


def test_a_method_called_on_a_chain_and_on_a_value_is_read_as_the_latter():
    text = "fn f(b: &Thing) {\n    Regex::builder().build();\n    other.build();\n}\n"
    _, rel = parse_code_relations(text, "src/lib.rs")
    build = [r for r in rel.refs if r.type == "calls" and r.target == "build"]
    assert [(r.link, r.line) for r in build] == [("extracted", 3)]


def test_a_standard_method_on_a_value_of_a_type_unsaid_is_no_reference():
    """ripgrep: ``.unwrap()`` was 368 guessed calls of the project's ``GramQuery::unwrap``, ``args.push()``
    calls of ``Stack::push``; on a receiver whose type is said the project's method is still reached."""
    text = (
        "impl Stack {\n    fn push(&mut self, x: u8) {}\n    fn grow(&mut self) { self.push(1); }\n}\n"
        "fn f(s: &mut Stack, args: Vec<u8>) {\n    let x = parse().unwrap();\n    args.iter().map(g).collect();\n"
        "    s.push(2);\n    other.push(3);\n    other.visit();\n}\n"
    )
    _, rel = parse_code_relations(text, "src/lib.rs")
    calls = {(r.scope, r.target, r.hint) for r in rel.refs if r.type == "calls" and r.qualified}
    assert calls == {("Stack.grow", "push", "self:.Stack"), ("f", "push", "self:.Stack"), ("f", "visit", None)}


@pytest.mark.parametrize("path", ["src/move.ts", "src/move.js"])
def test_an_array_or_promise_method_on_a_javascript_value_is_no_reference(path):
    """outline: ``ids.push()`` and ``docs.map()`` on untyped values were guessed to be ``history.push``
    and ``ColumnSelection.map``; an object of the file holding the method is still its own."""
    text = (
        "const utils = { forEach(obj, fn) { fn(obj); } };\n\n"
        "export function move(ids, docs, store) {\n  ids.push(1);\n  const names = docs.map((d) => d.title);\n"
        "  utils.forEach(names, String);\n  return store.save(names).then(() => names.join(','));\n}\n"
    )
    _, rel = parse_code_relations(text, path)
    assert {(r.target, r.hint) for r in rel.refs if r.type == "calls"} == {("forEach", "utils"), ("save", None)}


def test_a_function_declared_in_a_function_is_its_local():
    """outline's ``function replace(node)`` declared in ``replaceTemplateVariables`` and called there
    was linked ``extracted`` to ``rfc6902/patch.ts``'s ``replace``; another function's call is a call."""
    text = (
        "export function replaceTemplateVariables(data) {\n  function replace(node) {\n    return node;\n  }\n"
        "  return replace(data);\n}\n\nexport function other() {\n  return replace(1);\n}\n"
    )
    _, rel = parse_code_relations(text, "shared/utils/ProsemirrorHelper.ts")
    assert [(r.scope, r.target) for r in rel.refs if r.type == "calls"] == [("other", "replace")]


def test_a_rust_call_through_the_crates_own_modules_is_a_plain_call():
    """ripgrep's ``super::parse_excludes_file(&data)`` in ``gitignore.rs``'s ``mod tests`` was a call through
    a module, ``heuristic`` at best; ``super::`` and ``crate::`` name the crate's own modules: a plain
    call (``extracted`` when one function has the name). Another crate's (``util::fmt()``) stays a guess."""
    text = (
        "fn parse_excludes_file(d: &[u8]) -> u8 { 1 }\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn p1() {\n"
        "        super::parse_excludes_file(&data);\n        crate::flags::parse();\n        super::Thing::new();\n"
        "        util::fmt();\n    }\n}\n"
    )
    _, rel = parse_code_relations(text, "src/gitignore.rs")
    calls = {(r.target, r.hint, r.qualified, r.link) for r in rel.refs if r.type == "calls"}
    assert calls == {
        ("parse_excludes_file", None, False, "extracted"),
        ("parse", None, False, "extracted"),
        ("new", "Thing", True, "extracted"),
        ("fmt", None, False, "heuristic"),
    }
