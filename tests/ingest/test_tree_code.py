from __future__ import annotations

import pytest

from kenning.ingest import route_words
from kenning.ingest.parsers import parser_for
from kenning.ingest.split import EXCERPT_CHARS
from kenning.ingest.tree_code import parse_code, parse_code_relations

SAMPLES = {
    "svc/server.go": (
        'package main\n\nimport (\n  "fmt"\n  "github.com/x/y/v2"\n)\n\ntype Server struct {\n  x int\n}\n\n'
        "func (s *Server) Run() {\n  fmt.Println(1)\n}\n\nfunc main() {}\n",
        {("Server", 8), ("Server.Run", 12), ("main", 16)},
        {("module", "go:y")},  # the package its path names (``go_packages``); the standard library's none
    ),
    "src/lib.rs": (
        "use std::io;\nuse crate::db::Store;\nstruct P { x: i32 }\n\nimpl P {\n    fn new() -> P { P { x: 1 } }\n}\n\n"
        "fn main() {}\n",
        {("P", 3), ("P", 5), ("P.new", 6), ("main", 9)},
        {("suffix", "db/Store"), ("suffix", "db")},  # the crate's own modules (``_rust_imports``); not ``std``'s
    ),
    "src/A.java": (
        "import java.util.List;\n\npublic class A {\n  public A() {}\n  void run() {}\n}\n",
        {("A", 3), ("A.A", 4), ("A.run", 5)},
        {("suffix", "java/util/List")},  # the end of a file's path (``_java_import``)
    ),
    "src/a.c": (
        '#include "b.h"\n#include <stdio.h>\n\nstruct s { int a; };\n\nint *f(int x) {\n  return 0;\n}\n',
        {("s", 4), ("f", 6)},
        {("file", "src/b.h"), ("module", "stdio.h")},
    ),
    "src/a.cpp": (
        "#include <vector>\nnamespace n {\nclass K {\n public:\n  void m() {}\n};\n}\n",
        {("n", 2), ("n.K", 3), ("n.K.m", 5)},
        {("module", "vector")},
    ),
    # members defined outside their class, named as the class's; an anonymous namespace's kept
    "src/impl.cc": (
        "namespace n {\nnamespace {\nclass R {\n  void go() {}\n};\n}\n"
        "void K::m() {}\ntemplate <typename T>\nvoid L<T>::put(T t) {}\nK::~K() {}\nstruct K::Rep {\n  int x;\n};\n}\n",
        {("n", 1), ("n.R", 3), ("n.R.go", 4), ("n.K.m", 7), ("n.L.put", 9), ("n.K.~K", 10), ("n.K.Rep", 11)},
        set(),
    ),
    "lib/a.rb": (
        "require_relative 'b'\n\nmodule M\n  class C\n    def run\n    end\n  end\nend\n",
        {("M", 3), ("M.C", 4), ("M.C.run", 5)},
        {("stem", "lib/b")},
    ),
    "web/a.js": (
        "import x from './y.js';\nexport const f = () => 1;\nfunction g() {}\n",
        {("f", 2), ("g", 3)},
        {("stem", "web/y")},
    ),
    # a namespace names no member (as Java's package): ``UserController``, not ``App\Http.UserController``
    "app/Http/UserController.php": (
        "<?php\nnamespace App\\Http;\n\nuse App\\Models\\User;\n\nclass UserController extends Controller\n{\n"
        "    public function show(int $id) { return $id; }\n}\n\ntrait Roles { function roles() {} }\n"
        "interface Api {}\nenum Suit: string { case Hearts = 'H'; }\nfunction helper($x) { return $x; }\n",
        {("UserController", 6), ("UserController.show", 8), ("Roles", 11), ("Roles.roles", 11), ("Api", 12)}
        | {("Suit", 13), ("helper", 14)},
        set(),
    ),
    # Kotlin: a companion object's members are its class's, an ``object`` is a class
    "app/src/main/kotlin/shop/Profile.kt": (
        "package shop\n\nimport shop.data.Repo\n\nclass Profile(private val repo: Repo) : Base() {\n"
        "    fun load(id: String) = repo.find(id)\n\n    companion object {\n        fun create(): Profile {\n"
        "            return Profile(Repo())\n        }\n    }\n}\n\nobject Registry {\n    fun all() = 1\n}\n"
        "\nfun top() = Registry.all()\n\nfun <T> List<T>.second(): T = this[1]\n",
        {("Profile", 5), ("Profile.load", 6), ("Profile.create", 9), ("Registry", 15), ("Registry.all", 16)}
        | {("top", 19), ("List.second", 21)},  # an extension function: a method of the type it extends
        {("suffix", "shop/data/Repo")},  # as Java's (``tree_imports._java_import``)
    ),
    # Swift: a struct and an enum are classes, a protocol an interface; an extension's methods are
    # its type's, the extension no symbol of its own (the type is declared once, here or in a framework)
    "Sources/Shop/ProfileStore.swift": (
        "import Foundation\n\nfinal class ProfileStore: Loading {\n    func load(id: String) -> Profile {\n"
        "        return Profile()\n    }\n}\n\nstruct Profile {}\n"
        "protocol Loading {\n    func load(id: String) -> Profile\n}\n"
        "extension ProfileStore {\n    func reset() {}\n}\nfunc helper() {}\n",
        {("ProfileStore", 3), ("ProfileStore.load", 4), ("Profile", 9), ("Loading", 10), ("Loading.load", 11)}
        | {("ProfileStore.reset", 14), ("helper", 16)},
        set(),
    ),
    # Scala: an object is a class, a trait an interface
    "src/main/scala/shop/ProfileStore.scala": (
        "package shop\n\nimport scala.concurrent.Future\n\nclass ProfileStore(api: ShopApi) extends Loading {\n"
        "  def load(id: String): Profile = api.fetch(id)\n}\n\n"
        "object Profile {\n  def make(): Profile = new Profile()\n}\n"
        "\ntrait Loading {\n  def load(id: String): Profile\n}\n\ndef helper(): Unit = ()\n",
        {("ProfileStore", 5), ("ProfileStore.load", 6), ("Profile", 9), ("Profile.make", 10), ("Loading", 13)}
        | {("Loading.load", 14), ("helper", 17)},
        {("suffix", "scala/concurrent/Future")},  # no file of the project's: no edge (``_scala_imports``)
    ),
    "src/Services/UserService.cs": (
        "using System;\n\nnamespace App.Services\n{\n    public class UserService : IUserService\n    {\n"
        "        public UserService() { }\n        public User Find(int id) { return null; }\n    }\n"
        "    public interface IUserService { User Find(int id); }\n    public struct Pair { public int A; }\n"
        "    public record Point(int X, int Y);\n}\n",
        {("UserService", 5), ("UserService.UserService", 7), ("UserService.Find", 8), ("IUserService", 10)}
        | {("IUserService.Find", 10), ("Pair", 11), ("Point", 12)},
        set(),
    ),
}


def test_a_header_that_reads_as_cpp_is_read_as_cpp_and_an_export_macro_hides_no_class():
    """Most headers of a C++ project are ``.h`` (leveldb's ``db/memtable.h``): read with C's
    grammar, their classes and inline methods were no symbols; ``class LEVELDB_EXPORT Slice {``
    read as a function named ``Slice``. A C header stays C (parser ``code/6``)."""
    header = (
        "#include <string>\nnamespace db {\nclass LEVELDB_EXPORT Slice {\n public:\n"
        "  size_t size() const { return n_; }\n private:\n  size_t n_;\n};\n"
        "struct EXPORT Options : public Base {\n  int x() { return 1; }\n};\n}\n"
    )
    chunks, rel = parse_code_relations(header, "db/slice.h")
    assert [s.qualname for s in rel.symbols] == ["db", "db.Slice", "db.Slice.size", "db.Options", "db.Options.x"]
    slice_ = next(c for c in chunks if c.meta["symbol"] == "db.Slice")
    assert slice_.title == "class LEVELDB_EXPORT Slice {"  # the excerpt as written
    assert {c.meta["language"] for c in chunks} == {"cpp"}
    plain_c = "#ifndef A_H\n#define A_H\nstruct s {\n  int a;\n};\nint f(int x);\n#endif\n"
    chunks, rel = parse_code_relations(plain_c, "src/a.h")
    assert [s.qualname for s in rel.symbols] == ["s"] and chunks[0].meta["language"] == "c"


@pytest.mark.parametrize("path", sorted(SAMPLES))
def test_each_language_gives_symbols_with_their_first_line_and_its_imports(path):
    text, symbols, imports = SAMPLES[path]
    assert parser_for(path) == "code/40"
    chunks, rel = parse_code_relations(text, path)
    assert {(s.qualname, s.line_start) for s in rel.symbols} == symbols
    assert {(r.target_kind, r.target) for r in rel.refs if r.type == "imports"} == imports
    assert all(c.type == "code" for c in chunks)


def test_a_file_without_definitions_falls_back_to_text_excerpts():
    chunks, rel = parse_code_relations("console.log('hi');\n", "web/boot.js")
    assert len(chunks) == 1 and chunks[0].body == "console.log('hi');" and rel.symbols == ()


def test_a_definition_is_titled_by_its_signature_not_its_annotations():
    """Java's ``@Override`` and ``@Test`` on lines of their own titled every such method: an answer
    listed six "@Override" (gson's ``TypeAdapterFactory.create`` implementations). The excerpt keeps
    them (parser ``code/6``)."""
    source = (
        'public class A {\n  @Override\n  @SuppressWarnings({\n      "x"})\n  public void run() {\n  }\n\n'
        "  @Test public void t() {}\n}\n"
    )
    chunks, _ = parse_code_relations(source, "src/A.java")
    run = next(c for c in chunks if c.meta["symbol"] == "A.run")
    assert run.title == "public void run() {" and run.body.lstrip().startswith("@Override")
    assert next(c for c in chunks if c.meta["symbol"] == "A.t").title == "@Test public void t() {}"


def test_an_annotation_line_that_goes_on_with_the_definition_titles_it():
    """Swift's ``@Observable public class CurrentAccount {`` was skipped as an annotation line, the
    class titled by its first property (IceCubesApp: 30 of 827 classes); an annotation that merely
    names the class in its arguments still titles nothing."""
    source = (
        "@MainActor\n@Observable public class CurrentAccount {\n    private static var cache = [String: Int]()\n}\n"
    )
    chunks, _ = parse_code_relations(source, "Sources/Env/CurrentAccount.swift")
    assert chunks[0].title == "@Observable public class CurrentAccount {"
    chunks, _ = parse_code_relations("@JsonAdapter(Foo.FooAdapter.class)\nclass Foo {\n  int x;\n}\n", "src/Foo.java")
    assert chunks[0].title == "class Foo {"


def _test_file(count: int) -> str:
    tests = "".join(
        f"test('request number {i} is sent', async t => {{\n"
        f"\tconst server = await createServer(t);\n\n"
        f"\tt.is(await ky(server.url + '/{i}').text(), 'reply {i}');\n}});\n\n"
        for i in range(count)
    )
    return (
        "import test from 'ava';\nimport ky from '../source/index.js';\n\n"
        "const createServer = async t => {\n\treturn start(t);\n};\n\n" + tests
    )


def test_a_files_top_level_code_is_excerpts_of_its_own_lines_cut_between_statements():
    """``code/8``: a test file is mostly top-level calls; they were one excerpt cut at 4,000
    characters under a range claiming the whole file, the rest of the file in no excerpt."""
    text = _test_file(60)
    lines = text.split("\n")
    chunks = parse_code(text, "test/main.ts")
    top = [c for c in chunks if c.meta["kind"] == "module"]
    assert top[0].title == "file main.ts" and top[0].anchor == ":1-2"  # the imports
    assert len(top) > 3 and all(len(c.body) <= EXCERPT_CHARS for c in top)
    for chunk in top:  # each cites the lines it holds, and begins with a statement
        assert chunk.body == "\n".join(lines[chunk.line_start - 1 : chunk.line_end])
        assert chunk.anchor == f":{chunk.line_start}-{chunk.line_end}"
    assert all(c.title.startswith("test('request number ") for c in top[1:])
    for i in range(60):  # every test is in exactly one excerpt, whole
        holding = [c for c in top if f"test('request number {i} is sent'" in c.body]
        assert len(holding) == 1 and f"'reply {i}'" in holding[0].body
    assert [c.title for c in chunks if c.meta["kind"] == "function"] == ["const createServer = async t => {"]


def test_a_top_level_statement_longer_than_an_excerpt_is_cut_at_its_blank_lines():
    body = "".join(f"\tit('case {i}', () => {{\n\t\texpect(run({i})).toBe({i});\n\t}});\n\n" for i in range(150))
    text = f"import {{run}} from './run.js';\n\ndescribe('run', () => {{\n{body}}});\n"
    top = [c for c in parse_code(text, "run.test.js") if c.meta["kind"] == "module"]
    assert len(top) > 2 and all(len(c.body) <= EXCERPT_CHARS for c in top)
    held = "\n".join(c.body for c in top)
    assert all(f"it('case {i}'" in held for i in range(150))
    assert all(c.body.lstrip().startswith(("it('case", "import", "describe", "});")) for c in top)


def test_a_definition_holds_the_doc_comment_and_attributes_written_right_above_it():
    """``code/8``: Javadoc, Rust's ``///`` and attributes, JSDoc are the definition's; they were
    in no excerpt (a member's) or in the file's capped one (a top-level item's)."""
    java = (
        "package p;\n\npublic class Builder {\n  private int indent;\n\n"
        "  /**\n   * Configures the output to fit in a page for pretty printing.\n   */\n"
        "  @CanIgnoreReturnValue\n  public Builder setPrettyPrinting() {\n    return this;\n  }\n}\n"
    )
    chunks = {c.meta.get("symbol"): c for c in parse_code(java, "src/Builder.java")}
    method = chunks["Builder.setPrettyPrinting"]
    assert (method.line_start, method.line_end, method.title) == (6, 12, "public Builder setPrettyPrinting() {")
    assert "fit in a page for pretty printing" in method.body
    assert chunks["Builder"].line_end == 4  # the class's header stops before the member's comment
    rust = (
        "use std::io;\n\nlet x = 1; // the previous statement's\nfn first() {}\n\n"
        "// separated by a blank line\n\n/// Hyperlink configuration.\n///\n/// For printers.\n"
        "#[derive(Clone, Debug)]\npub struct Config(u8);\n"
    )
    chunks = {c.meta.get("symbol"): c for c in parse_code(rust, "src/lib.rs")}
    assert (chunks["Config"].line_start, chunks["Config"].title) == (8, "pub struct Config(u8);")
    assert chunks["Config"].body.startswith("/// Hyperlink configuration.\n")
    assert chunks["first"].line_start == 4  # a comment ending the line before is that line's
    module = [c for c in parse_code(rust, "src/lib.rs") if c.meta["kind"] == "module"]
    assert any("separated by a blank line" in c.body for c in module)
    js = "/**\n * Merge two hook lists.\n */\nexport function mergeHooks(a, b) {\n  return a;\n}\n"
    (chunk,) = parse_code(js, "source/hooks.js")
    assert (chunk.line_start, chunk.title) == (1, "export function mergeHooks(a, b) {")


def test_a_typescript_members_decorators_are_its_excerpts():
    """``code/37``: a NestJS controller's route decorators (``@Post(':slug/comments')``), which the
    grammar writes beside the method, were excerpts of their own, away from the method they route to
    (the nestjs-realworld-example-app walk); the class's too."""
    ts = (
        "@Controller('articles')\nexport class ArticleController {\n"
        "  constructor(private readonly articles: ArticleService) {}\n\n"
        "  @ApiOperation({ summary: 'Create comment' })\n  @Post(':slug/comments')\n"
        "  async createComment(@Param('slug') slug) {\n    return this.articles.addComment(slug);\n  }\n}\n"
    )
    chunks = {c.meta.get("symbol"): c for c in parse_code(ts, "src/article/article.controller.ts")}
    method = chunks["ArticleController.createComment"]
    assert (method.line_start, method.line_end) == (5, 9)
    assert method.title == "async createComment(@Param('slug') slug) {"
    assert "@Post(':slug/comments')" in method.body and "summary: 'Create comment'" in method.body
    assert chunks["ArticleController"].line_start == 1  # ``@Controller('articles')``
    assert not any(c.body.strip().startswith("@Post") for c in chunks.values() if c is not method)


@pytest.mark.parametrize(
    ("path", "text", "symbol", "route"),
    [
        (  # NestJS: the controller's path, then the method's
            "src/article/article.controller.ts",
            "@Controller('articles')\nexport class ArticleController {\n  @Get(':slug/comments')\n"
            "  findComments(@Param('slug') slug) {\n    return slug;\n  }\n}\n",
            "ArticleController.findComments",
            "GET articles slug comments",
        ),
        (  # Spring
            "src/main/java/app/OwnerController.java",
            'package app;\n\n@Controller\n@RequestMapping("/owners")\nclass OwnerController {\n'
            '  @PostMapping("/{ownerId}/edit")\n  public String update(int ownerId) {\n    return "x";\n  }\n}\n',
            "OwnerController.update",
            "POST owners ownerId edit",
        ),
        (  # ASP.NET: ``[controller]`` is the class's name
            "Api/OrdersController.cs",
            'namespace Api;\n\n[Route("api/[controller]")]\npublic class OrdersController\n{\n'
            '    [HttpDelete("{id}")]\n    public int Remove(int id) { return id; }\n}\n',
            "OrdersController.Remove",
            "DELETE api Orders id",
        ),
    ],
)
def test_a_methods_http_route_is_in_its_keywords(path, text, symbol, route):
    """nestjs-realworld-example-app, walked: "what handles GET /articles/:slug" met the method's own
    words, not the controller's ``articles``, written once above the class: a method's route, its
    class's path before its own, is in its excerpt's keywords; ``code/38``: its words in their order,
    each kept where a parameter (``slug``, ``id``) said it before (a question naming the route ranks
    them as a phrase, ``search.routes``)."""
    (chunk,) = [c for c in parse_code(text, path) if c.meta.get("symbol") == symbol]
    assert route in chunk.keywords, chunk.keywords
    assert route_words.class_route('[Route("api/[controller]")]', "OrdersController") == "api/Orders"
    assert route_words.method_route('[HttpGet("~/health")]', "api/Orders") == "GET /health"  # the class's ignored
    assert route_words.method_route("@Injectable()", "api") == ""  # no route


@pytest.mark.parametrize(
    ("path", "text", "symbol", "title"),
    [
        (
            "src/Tests/UserTests.cs",
            'namespace App.Tests;\n\npublic class UserTests\n{\n    [Fact]\n    [Trait("kind",\n        "unit")]\n'
            "    public void Finds_a_user() { }\n}\n",
            "UserTests.Finds_a_user",
            "public void Finds_a_user() { }",
        ),
        (
            "src/Controller/Home.php",
            "<?php\nclass Home\n{\n    #[Route('/', name: 'home')]\n    public function index(): Response { }\n}\n",
            "Home.index",
            "public function index(): Response { }",
        ),
    ],
)
def test_a_csharp_or_php_method_is_titled_by_its_signature_not_its_attributes(path, text, symbol, title):
    chunks, _ = parse_code_relations(text, path)
    method = next(c for c in chunks if c.meta["symbol"] == symbol)
    assert method.title == title
    assert method.body.lstrip().startswith(("[Fact]", "#[Route"))  # the excerpt holds them


def test_a_closing_brace_outside_every_definition_is_no_excerpt():
    """C#'s ``namespace App {…}`` leaves its braces outside the classes it holds: the opening one
    goes with the file's first lines, the closing one alone made an excerpt titled ``}``."""
    text = "using System;\n\nnamespace App\n{\n    public class A\n    {\n        void M() { }\n    }\n}\n"
    chunks, _ = parse_code_relations(text, "src/A.cs")
    assert [c.title for c in chunks if c.meta["kind"] == "module"] == ["file A.cs"]
    assert all(any(ch.isalnum() for ch in c.body) for c in chunks)


def test_a_kotlin_declaration_the_grammar_reads_as_an_annotated_expression_is_read_again():
    """tree-sitter-kotlin reads some annotated classes as an ``annotated_expression`` without an
    error: nowinandroid's ``InterestsViewModelTest`` and its tests were no symbols (``code/11``
    blanks their annotations and reads the file again; lines and excerpts stay as written)."""
    source = (
        "package shop\n\n@RunWith(Runner::class)\n@Config(sdk = [35])\nclass CartTest {\n    @Test\n"
        "    fun adds() = runTest {\n        cart.add(item)\n    }\n}\n\n"
        "private val items = listOf(\n    Item(\n        name = NAME,\n    ),\n)\n"
    )
    chunks, relations = parse_code_relations(source, "app/src/test/kotlin/shop/CartTest.kt")
    assert [(s.qualname, s.line_start) for s in relations.symbols] == [("CartTest", 4), ("CartTest.adds", 6)]
    assert "@RunWith(Runner::class)" in "\n".join(c.body for c in chunks)  # the blanked one is still read
    assert ("add", "CartTest.adds") in {(r.target, r.scope) for r in relations.refs if r.type == "calls"}


# Definitions named by a keyword, or holding code outside a method: Swift's ``init``, ``deinit`` and
# ``subscript``, Kotlin's secondary ``constructor``, a C# property with code in it and an operator
# (CleanArchitecture's ``TodoItem.Done`` setter raises a domain event: charged to the class, "who calls
# AddDomainEvent" listed everything creating a TodoItem). An auto-property is none.
MEMBERS = {
    "Sources/ImageCache.swift": (
        "final class ImageCache {\n    let name: String\n    init(name: String) {\n        self.name = name\n"
        "        prepare()\n    }\n    deinit { release() }\n    subscript(key: String) -> Int { return 0 }\n"
        "    func prepare() {}\n    func release() {}\n}\n",
        ["ImageCache", "ImageCache.init", "ImageCache.deinit", "ImageCache.subscript", "ImageCache.prepare"]
        + ["ImageCache.release"],
        {("prepare", "ImageCache.init"), ("release", "ImageCache.deinit")},
    ),
    "app/Store.kt": (
        "class Store(val name: String) {\n    constructor(path: String) : this(path) {\n        load()\n    }\n"
        "    fun load() {}\n}\n",
        ["Store", "Store.constructor", "Store.load"],
        {("load", "Store.constructor")},
    ),
    "src/Domain/TodoItem.cs": (
        "namespace App;\npublic class TodoItem\n{\n    public int Id { get; set; }\n    public bool Done\n    {\n"
        "        get => _done;\n        set { _done = value; AddDomainEvent(new Completed(this)); }\n    }\n"
        "    public string Code => _code.ToUpper();\n"
        "    public static explicit operator TodoItem(string code) { return From(code); }\n"
        "    public static bool operator ==(TodoItem a, TodoItem b) => Equals(a, b);\n}\n",
        ["TodoItem", "TodoItem.Done", "TodoItem.Code", "TodoItem.operator TodoItem", "TodoItem.operator=="],
        {("AddDomainEvent", "TodoItem.Done"), ("From", "TodoItem.operator TodoItem")},
    ),
}


@pytest.mark.parametrize("path", sorted(MEMBERS))
def test_members_named_by_a_keyword_or_holding_code_are_symbols_whose_calls_are_their_own(path):
    source, symbols, scopes = MEMBERS[path]
    _, relations = parse_code_relations(source, path)
    assert [s.qualname for s in relations.symbols] == symbols
    assert scopes <= {(r.target, r.scope) for r in relations.refs if r.type == "calls"}


@pytest.mark.parametrize(
    ("path", "source"),
    [
        ("app/A.kt", "class A {\n    val x = 1\n    val y: Int get() = 2\n}\n"),
        ("Sources/A.swift", "class A {\n    var x: Int { return 1 }\n}\n"),
        ("src/A.php", "<?php\nclass A\n{\n    private int $x = 1;\n}\n"),
    ],
)
def test_the_other_grammars_properties_are_no_symbols(path, source):
    assert [s.qualname for s in parse_code_relations(source, path)[1].symbols] == ["A"]


def test_a_doc_block_one_blank_line_above_a_definition_is_its_doc_comment():
    """``code/35``: express writes a blank line between each JSDoc block and its definition; the
    block was an excerpt titled ``/**`` of its own, the definition's excerpt without its words."""
    js = (
        "var app = exports = module.exports = {};\n\n"
        "/**\n * Dispatch a req, res pair into the application.\n *\n * @private\n */\n\n"
        "app.handle = function handle(req, res) {\n  return req;\n};\n\n"
        "/* a plain block, not a doc block */\n\nfunction plain() {}\n\n"
        "/**\n * Two blank lines below: not the next definition's.\n */\n\n\nfunction apart() {}\n"
    )
    chunks = {c.meta.get("symbol"): c for c in parse_code(js, "lib/application.js")}
    handle = chunks["app.handle"]
    assert (handle.line_start, handle.title) == (3, "app.handle = function handle(req, res) {")
    assert "Dispatch a req, res pair" in handle.body
    all_chunks = parse_code(js, "lib/application.js")
    assert [c.title for c in all_chunks if "Dispatch a req" in c.body] == [handle.title]
    assert chunks["plain"].line_start == 15 and chunks["apart"].line_start == 22
