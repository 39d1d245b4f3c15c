"""Which parser reads which file. A parser's name carries its version: bumping it makes the
next sync re-read every file of that kind."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from kenning.ingest import config_titles, generated
from kenning.ingest.chunks import Chunk
from kenning.ingest.relations import Relations
from kenning.ingest.text import parse_text

RelationParser = Callable[[str, str], tuple[list[Chunk], Relations | None]]

NOTEBOOK_PARSER = "notebook/1"
# A notebook is skipped as too large only from this many times the project's ``max_file_bytes``:
# its cells' outputs (plots as base64, tables) are most of its bytes, and are not read.
NOTEBOOK_SIZE_FACTOR = 10

_BY_SUFFIX = {
    # 3: an HTML block that begins with a heading element (``<h3 name="config">``) is a heading,
    # its anchor the one the document gives; a ``#`` line inside an HTML block is none. 4: a
    # heading holding an anchor element (``## <a id="lenient"></a> Title``) has that anchor. 5: a
    # link beside that element gives the title its text, not its tags. 6: a heading's images (a
    # README's badges, ``[![Build Status](….svg)](…)``) are left out of its title and anchor. 7: the
    # attribute list that ends a heading (``## Testing { #testing }``: MkDocs, kramdown, Pandoc) is
    # no part of its title, its id the heading's anchor.
    ".md": "markdown/7",
    ".markdown": "markdown/7",
    ".mdx": "markdown/7",
    ".mdc": "markdown/7",  # Cursor's project rules (``.cursor/rules/*.mdc``): Markdown with front matter
    # Quarto and R Markdown: Markdown with front matter and fenced code chunks (```` ```{r} ````), the
    # documents and reports of data projects.
    ".qmd": "markdown/7",
    ".rmd": "markdown/7",
    # reStructuredText (and the .txt documentation written in it): cut by its section titles, the
    # sections that fit together one excerpt; a file with no title stays runs of paragraphs (``text``).
    # 2: the parts of a line too long for one excerpt each have a URI of their own (``:1-1#part-2``).
    ".rst": "rst/2",
    ".txt": "rst/2",
    # AsciiDoc: cut by its section titles (``= Title``, ``== Section``), packed as reStructuredText
    # (2: as rst/2).
    ".adoc": "asciidoc/2",
    ".asciidoc": "asciidoc/2",
    # Jupyter notebooks: their Markdown and code cells cut as one Markdown document (``notebook``).
    ".ipynb": NOTEBOOK_PARSER,
    # 4: compact titles; a call from a test is one graph reference. 5: a module's keywords name
    # what it assigns at top level (its constants). 6: a call on a typed local or attribute
    # (``x = Client()``, ``def f(x: Client)``, ``self.conn = Client()``) names its class. 7: a
    # module's typed globals too. 8: a method called on a literal (``", ".join(x)``) is no
    # reference, one on a name bound to a literal or a builtin class names ``builtins.<class>``.
    # 9: a global annotated at top level is of its annotation's class wherever it is re-bound.
    # 10: a call through a module's dotted name names that module. 11: a plain call of a name
    # the function binds itself (a nested def, a parameter) is no reference; a module's typed
    # globals are written as ``globals`` references, for calls on them from other modules.
    # 12: a method called on a name the function binds itself is no call through the module an
    # import bound to that name (``greet = make(); greet.hello()`` after ``from app import greet``).
    # 13: a test's ``import app.greet`` is a ``tested_by`` reference of that module, as ``from app
    # import greet`` is (resolved to the module's file when ``app/greet.py`` is one). 14: a Django
    # app's ``tests.py`` is test code (``test_files``); read again once, a store synced before also
    # gets resolution's rules of code/2: a guess from code that is no test reaches no test's
    # symbol, no call reaches another language's. 15: the module's lines outside its definitions
    # are excerpts of their own lines, cut between statements, no longer one cut at 4,000 characters.
    # 16: the comment lines right above a definition, at its indentation, are its excerpt's.
    # 17: a top-level excerpt that opens with a comment is titled by its first statement. 18: a
    # class body's lines in no excerpt (an assignment after its first method) are excerpts of
    # their own (``uncovered``). 19: an ``e2e/`` or ``cypress/`` folder holds test code (``test_files``);
    # a top-level excerpt's title passes a line that only closes something (``split``). 20: a
    # method called on another call's result (``Other.builder().build()``) is a guess, ``heuristic``.
    # 21: one called on an object made in place (``Client(x).send()``) is one on its class. 22: read
    # again once, a store synced before gets resolution's rule that a method called on an object no
    # hint types (``x.all()``) is a guess even when the caller's file holds the only method so named;
    # a piece whose first line opens a call is titled with the string it begins with (``split``);
    # the excerpts of a module a tool wrote (protoc's) say so (``ingest.generated``).
    ".py": "python/22",
    ".pyi": "python/22",
}
# JS/TS, Go, Rust, Java, C/C++, Ruby through tree-sitter (see grammars.SUFFIXES). 2: their calls
# (``tree_calls``); a Go method is named by its type (``Server.Run``); every package of a Go
# import block is an ``imports`` reference (only the first was). 3: Go's packages
# (``go_packages``): a file answers to its package's name, an import outside the standard library
# names that package, a call ``pkg.F()`` carries the path ``pkg`` is imported from. 4: a Go value of
# an imported package's type (``cmd *cobra.Command``) names the package and the type; the standard library's none.
# 5: a class's bases (``extends Base``, a Go struct's embedded ``*Base``): a self call its class does not
# answer reaches its bases' method (a ``bases`` reference per class with bases, as Python's).
# 6: C++'s members defined outside their class (``DBImpl::Write``) named as the class's
# (``leveldb.DBImpl.Write``: their calls reach them), an anonymous namespace's members kept; Ruby's
# ``class Table::Cell`` named ``Table.Cell`` (its bases kept), a call through ``A::B`` or ``::Set`` one
# through that type; Rust's ``impl<T> Stack<T>`` named ``Stack``; Ruby's bare names that no
# local binds are calls (``ruby_names``); a call in a class's body is one on the class; a file read
# as text (minified) gives each part of a long line a URI of its own (``text.parse_text``); a ``.h``
# that reads as C++ is read as C++, an export macro (``class LEVELDB_EXPORT Slice``) hides no class,
# C++'s typed parameters, locals and fields type the calls on them (``std::`` types: no reference);
# JavaScript's prototype methods, functions assigned to ``module.exports`` and an object's methods
# are symbols (``js_functions``); a definition is titled by its signature, not its annotations;
# an ``export default { run() {} }`` object's functions and Ruby's ``attr_reader :name`` (``attr_writer``,
# ``attr_accessor``) methods are symbols. 8: a definition's excerpt holds the doc comment and
# attributes written right above it (Javadoc, Rust's ``///`` and ``#[derive(…)]``); a file's
# top-level code outside its definitions (a test file's ``test(…)`` calls) is excerpts of its own
# lines, cut between statements, no longer one excerpt cut at 4,000 characters under a range
# claiming the whole file. 9: a top-level excerpt that opens with a comment is titled by its first
# statement, not by the comment's first line. 10: PHP, C#, Kotlin, Swift and Scala (``.php``, ``.cs``,
# ``.kt``, ``.swift``, ``.scala``);
# a top-level piece holding no word (the ``}`` closing C#'s ``namespace App {`` or C++'s ``extern "C"
# {``) is no excerpt; a C# or PHP attribute line (``[Fact]``, ``#[Route]``) titles no definition.
# 11: a class body's lines in no excerpt (a field declared after a method, a C++ header's method
# declarations, Kotlin's ``init`` block) are excerpts of their own (``uncovered``); Swift's ``init``,
# ``deinit`` and ``subscript`` and Kotlin's secondary ``constructor`` are symbols; a nullable type
# types a name as its type does (PHP's ``?Store`` and ``Store|null``, C#'s, Kotlin's and Swift's
# ``Store?``), and a call on a value asserted not null (``d!.Save()``, ``d!!.save()``) is one on it; a
# call on an object created in place (``(new Streamer())->stream()``, ``Store().persist()``) one on its class;
# a Kotlin or Swift name bound to a constructor's result (``let c = Store()``) typed by it; a Swift
# ``extension`` no symbol of its own (its methods its type's); a Kotlin or Java method reference
# (``viewModel::update``, ``this::save``) a call; a Kotlin declaration the grammar reads as an
# annotated expression read again without its first annotation (``kotlin_source``); a C# property
# with code in it and a C# operator are symbols (``TodoItem.Done``, ``Colour.operator Colour``); a
# Swift name typed as an array or a dictionary (``var filtered: [Status]``) is typed so; a call on a
# type's shared instance (``UserDefaults.standard.set()``) one on that type. code/12: a JavaScript or
# TypeScript import through an alias of the project's folder (``@/lib/db``, ``~/``, ``$lib/``) is the
# project's: its names are called as a relative import's are, and it imports the file whose path
# ends so (``tree_imports.alias_path``, ``graph.aliases``); a re-export (``export * from './x'``)
# imports its module; a name a function binds (``const { error } = parse()``, a parameter) called
# bare in it is no call of a project function; a function of the file's, one imported from the
# project or Go's ``pkg.Func`` handed over as an argument (``sub.GET("", realtimeConnect)``,
# ``onClick={save}``) is a call of it, and so is a React component rendered (``<MetricCard />``); a
# test file named after the file beside it (``file_test.go``, ``format.test.ts``) tests that file;
# Go's ``test_x.go`` is no test, a Cypress ``x.cy.ts`` and an ``e2e/`` or ``cypress/`` folder's files
# are (``test_files``); a top-level excerpt opening a group is titled with its first declaration
# (``const ( DefaultDateLayout = …``), past a line that only closes something (``split``). code/13:
# Rust's unit tests, in the file they test (``#[test]`` functions, a ``#[cfg(test)]`` module), are
# test code: their calls are tests' (``tested_by``) and their excerpts say ``"test": true`` in their
# meta (``rust_tests``); Maven's and Gradle's test classes test the file their name and package
# mirror in the main source set (``test_files``). code/14: a call written in a Rust macro's arguments
# (``assert_eq!(parse(x), 1)``) is a call (``macro_tokens``). code/15: a Java or Kotlin inner class's
# call on its outer class's typed field is one on that field's type (``tree_bindings.field_type``).
# code/16: a Rust name a ``use`` binds from the standard library is no project's (``rust_uses``:
# ``io::Error::new()`` after ``use std::io``, ``max()`` after ``use std::cmp::max``). code/17: a Java
# import names the file of the class it imports by the end of its path (``tree_imports._java_import``).
# code/18: so does a Kotlin import. code/19: a Rust ``use`` of ``crate::``, ``super::`` or ``self::``
# names the project's files its path may be (``tree_imports._rust_imports``). code/20: a Scala import
# names the file of the class it imports, as a Java one does. code/21: Rust's ``mod flags;`` imports
# ``flags.rs`` or ``flags/mod.rs`` (``tree_imports.rust_module_ref``). code/22: a test a Rust macro
# defines (``rgtest!(f70_smart_case, …)``) is a test function of that name (``rust_tests``). code/23:
# the same parse; a store synced before reads its files again, so that no guess from code reaches a
# Rust file's ``mod tests`` (``graph.resolve._in_tests``). code/24: a method called on another call's
# result (``Regex::builder().build()``) is a guess, ``heuristic`` (``tree_receivers.chained``); read
# again, a store synced before also gets a node for each overload (``graph.build``). code/25: a method
# of the standard library's called on a value of a type unsaid (Rust's ``.unwrap()``, ``args.push()``:
# ``tree_languages.STD_METHODS``) is no reference. code/26: a Go interface's methods are definitions
# of their own, ``App.Save`` (``tree_defs._go_interface``): a symbol and an excerpt each. code/27: a
# Rust call through the crate's own modules (``super::parse()``, ``crate::flags::parse()``) is a plain call.
# code/28: a Rust ``impl Trait for Type`` block names the trait among the type's bases (a ``bases``
# reference per block, at its line): a self call reaches the trait's default method, and the type
# answers "what implements Trait" (``graph.inheritance``); a TypeScript class's ``implements`` and an
# interface's ``extends`` are bases too; Kotlin's and Swift's nested base (``JsonAdapter.Factory``) is
# ``Factory`` alone, where ``JsonAdapter`` was a base too. code/29: a Rust value of a type parameter
# bound by a trait (``sink: S`` with ``S: Sink``), a trait object or an ``impl Trait`` is called as one
# of the trait (``rust_generics``). code/30: a method called on a field of a field (``self.config.colors
# .matched()``) is a guess, ``heuristic`` (``tree_receivers.field_of_field``). code/31: Java's nested
# base (``implements JsonAdapter.Factory``) is a base by its last name (it was none). code/32: a Rust
# trait's supertraits are its bases (``trait Printer: Sink``), and a trait object behind ``Box``, ``Arc``
# or ``Rc`` types a parameter or a field (``sink: Box<dyn Sink>``). code/33: a method called on a name
# the file binds to an object holding it (``utils.forEach()``, ``const utils = { forEach() {…} }``)
# names that object as its hint; any other method on an untyped object is a guess, even when the
# caller's file holds the only method so named (resolution's rule; read again once for it). A name
# imported through a scope (``@server/x``) is called with that path as its hint (``ALIAS_HINT``), and
# Ruby's ``class << self`` holds the class's methods (``Base.route``; they were no symbols). A piece
# whose first line opens a call is titled with the string the call begins with (``router.post("x",``).
# Ruby's ``require "a/b"`` imports the file ending with ``lib/a/b``; a Rails callback
# (``before_action :require_user``) calls the method its symbol names. The excerpts of code a tool
# wrote say so (``meta.generated``: ``ingest.generated``). An array's, a string's or a promise's method
# on an untyped JavaScript value (``ids.push()``) is no reference, as Rust's standard methods are.
# A Ruby base written with its modules is named so (``Sinatra::Base``: ``Sinatra.Base``, not ``Base``).
# A C or C++ file whose conditionals unbalance its braces is read with no macro defined
# (``c_conditionals``) when that parses with fewer errors. Ruby's core methods on an untyped value are
# no reference (``x.id``), and ``dup.call!()`` is a call on the object's own class. A name imported by
# path (``./x``, ``~/x``) is called with that path as its hint, as a scope's is. code/34: a Java method
# imported by name (``import static …Checks.named``) is called with its class's file as its hint.
# code/35: a doc block (``/** … */``) one blank line above a definition is its doc comment (express).
_TREE_SITTER = "code/35"
_BY_SUFFIX.update(
    {
        suffix: _TREE_SITTER
        for suffix in (
            ".js",
            ".mjs",
            ".cjs",
            ".jsx",
            ".ts",
            ".mts",
            ".cts",
            ".tsx",
            ".go",
            ".rs",
            ".java",
            ".c",
            ".h",
            ".cc",
            ".cpp",
            ".cxx",
            ".hpp",
            ".hh",
            ".hxx",
            ".rb",
            ".rake",  # Ruby: a Rails app's tasks (``lib/tasks/*.rake``), its gem's spec, its Rack
            ".gemspec",  # config (``config.ru``), its XML and JSON views (``.builder``, ``.jbuilder``)
            ".ru",
            ".builder",
            ".jbuilder",
            ".php",
            ".cs",
            ".kt",
            ".swift",
            ".scala",
        )
    }
)


# Scripts, build files and configuration, and the code of languages kenning has no grammar for
# (Dart, Lua, Elixir, a Vue component…): read as code by runs of lines (``text``'s paragraphs),
# no graph. What they answer is everywhere in a project: what ``make test`` runs, which Python
# versions CI tests, what a deploy script does, which port a service listens on, which packages a
# ``composer.json`` or a ``.csproj`` requires; and a Flutter app's Dart is found by its words.
# 3: a file whose head says a tool wrote it (``DO NOT EDIT``, an HTML page's ``<meta name="generator">``)
# is marked ``generated`` (``ingest.generated``), as code is; HTML templates and stylesheets are read.
SCRIPT_PARSER = "script/3"  # also an executable file without a suffix (``ingest.discover``)
SCRIPT_LANGUAGES = {  # suffix, or whole file name, -> the language an excerpt's meta says
    ".sh": "shell",
    ".bash": "shell",
    ".zsh": "shell",
    ".ksh": "shell",
    ".fish": "fish",
    ".ps1": "powershell",
    ".bat": "batch",
    ".cmd": "batch",
    ".sql": "sql",
    ".mk": "make",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".ini": "ini",
    ".cfg": "ini",
    ".conf": "conf",
    ".properties": "properties",
    "makefile": "make",
    "gnumakefile": "make",
    "dockerfile": "dockerfile",
    "containerfile": "dockerfile",
    "justfile": "just",
    "procfile": "procfile",
    "package.json": "json",
    "tsconfig.json": "json",
    "composer.json": "json",
    "go.mod": "go-module",
    "gemfile": "ruby",
    "rakefile": "ruby",
    "pom.xml": "xml",
    ".csproj": "xml",
    ".fsproj": "xml",
    "directory.build.props": "xml",
    "androidmanifest.xml": "xml",  # an Android app's permissions, activities, services
    "info.plist": "xml",  # an Apple app's bundle settings
    ".xcconfig": "xcconfig",  # Xcode build settings (a bundle id prefix, a team)
    ".gradle": "groovy",
    ".tf": "terraform",
    ".proto": "protobuf",
    ".graphql": "graphql",
    ".prisma": "prisma",  # a Prisma schema: the models of the app's database (umami's)
    # a C project's build and grammar files (jq's ``configure.ac``, ``Makefile.am``, ``parser.y``,
    # ``lexer.l``), a library of jq programs (``builtin.jq``)
    ".ac": "autoconf",
    ".am": "make",
    ".m4": "m4",
    ".cmake": "cmake",
    "cmakelists.txt": "cmake",
    ".y": "yacc",
    ".l": "lex",
    ".jq": "jq",
    # templates of a web framework: views hold calls and the text users see (lobsters' ``.erb``,
    # Django's and Flask's ``.html``, Spring's Thymeleaf pages), and the stylesheets beside them
    ".erb": "erb",
    ".haml": "haml",
    ".html": "html",
    ".htm": "html",
    ".jinja": "jinja",
    ".jinja2": "jinja",
    ".j2": "jinja",
    ".njk": "nunjucks",
    ".hbs": "handlebars",
    ".handlebars": "handlebars",
    ".mustache": "mustache",
    ".liquid": "liquid",
    ".twig": "twig",
    ".ejs": "ejs",
    ".pug": "pug",
    ".css": "css",
    ".scss": "scss",
    ".sass": "sass",
    ".less": "less",
    # languages without a grammar here
    ".kts": "kotlin",  # build scripts (``build.gradle.kts``); ``.kt`` has its grammar
    ".dart": "dart",
    ".lua": "lua",
    ".pl": "perl",
    ".pm": "perl",
    ".r": "r",
    ".ex": "elixir",
    ".exs": "elixir",
    ".erl": "erlang",
    ".hs": "haskell",
    ".clj": "clojure",
    ".groovy": "groovy",
    ".fs": "fsharp",
    ".jl": "julia",
    ".zig": "zig",
    ".ml": "ocaml",
    ".vue": "vue",
    ".svelte": "svelte",
}
_BY_NAME = {name: SCRIPT_PARSER for name in SCRIPT_LANGUAGES if not name.startswith(".")}
# A configuration template committed beside the code (the ``.env`` it documents stays unread: it
# holds the secrets), and ASP.NET Core's settings (``appsettings.json``, ``appsettings.Development.json``).
DOTENV_TEMPLATES = frozenset({".env.example", ".env.sample", ".env.dist", ".env.template"})
_BY_NAME.update(dict.fromkeys(DOTENV_TEMPLATES, SCRIPT_PARSER))
# Coding agents' rules for the project, in one Markdown file without a suffix (Cursor's older
# ``.cursorrules``, Windsurf's, Cline's): what an agent is told about the project is its knowledge.
_BY_NAME.update(dict.fromkeys((".cursorrules", ".windsurfrules", ".clinerules"), _BY_SUFFIX[".md"]))
_BY_SUFFIX.update({suffix: SCRIPT_PARSER for suffix in SCRIPT_LANGUAGES if suffix.startswith(".")})


def parser_for(path: str) -> str | None:
    """The versioned parser name for a path, or None when kenning does not read that kind."""
    name = path.rpartition("/")[2].lower()
    found = _BY_NAME.get(name) or _BY_SUFFIX.get(_suffix(name))  # ``CMakeLists.txt``: by its name
    if found is None and name.startswith("appsettings") and name.endswith(".json"):
        return SCRIPT_PARSER
    return found


def _suffix(name: str) -> str:
    """``PurePosixPath(name).suffix`` without building a path object (a sync asks for every file):
    ``""`` for ``Makefile``, ``.bashrc`` or ``a.``."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def _markdown(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    # Imported on first use: the Markdown parser and YAML cost time to import and most syncs parse nothing.
    from kenning.ingest.decisions import parse_markdown_relations

    return parse_markdown_relations(text, path)


def _python(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    # Imported on first use, like Markdown's: a sync of Markdown alone never needs it.
    from kenning.ingest.python_code import parse_python_relations

    chunks, relations = parse_python_relations(text, path)
    return generated.marked(chunks, text), relations


def _python_spans(text: str, path: str) -> list[Chunk]:
    from kenning.ingest.python_code import python_spans

    return python_spans(text, path)


def _code(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    from kenning.ingest.tree_code import parse_code_relations

    chunks, relations = parse_code_relations(text, path)
    return generated.marked(chunks, text), relations


def import_parsers(names: Iterable[str]) -> None:
    """Import now the parsers imported on first use (``_markdown``): a pool worker does as it
    starts (``ingest.read``), while the process that forked it goes on creating the store and
    never imports a parser it does not run."""
    kinds = {name.split("/", 1)[0] for name in names}
    if "markdown" in kinds:
        import kenning.ingest.decisions  # noqa: F401
    if "notebook" in kinds:
        import kenning.ingest.notebook  # noqa: F401
    if "python" in kinds:
        import kenning.ingest.python_code  # noqa: F401
    if "code" in kinds:
        import kenning.ingest.tree_code  # noqa: F401


def _text(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    return parse_text(text, path), None  # plain text feeds no graph


def _script(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    """A script, build or configuration file: ``text``'s runs of lines, as code of its language."""
    name = path.rpartition("/")[2].lower()
    language = SCRIPT_LANGUAGES.get(name) or SCRIPT_LANGUAGES.get(_suffix(name))
    if language is None and (name in DOTENV_TEMPLATES or name.startswith("appsettings")):
        language = "dotenv" if name in DOTENV_TEMPLATES else "json"
    language = language or _shebang(text)
    meta = {"language": language}
    chunks = config_titles.retitled(parse_text(text, path), text, language)
    # a page a tool wrote (a documentation build, a coverage report) says so: weighed half (``generated``)
    return generated.marked([replace(c, type="code", meta=meta) for c in chunks], text), None


# An executable file's ``#!`` interpreter -> its language (``#!/usr/bin/env python3``: python).
_INTERPRETERS = {"sh": "shell", "bash": "shell", "zsh": "shell", "ksh": "shell", "dash": "shell", "node": "javascript"}


def _shebang(text: str) -> str:
    """The language a script's ``#!`` line names (``shell``, ``python``, ``perl``…), else ``text``."""
    if not text.startswith("#!"):
        return "text"
    words = text[2 : text.find("\n") if "\n" in text else len(text)].split()
    if words and words[0].endswith("/env"):
        words = [w for w in words[1:] if not w.startswith("-")]
    program = words[0].rpartition("/")[2] if words else ""
    program = program.rstrip("0123456789.")
    return _INTERPRETERS.get(program, program or "text")


def _notebook(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    from kenning.ingest.notebook import parse_notebook

    return parse_notebook(text, path)


def _rst(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    from kenning.ingest.rst import parse_rst

    return parse_rst(text, path), None  # prose feeds no graph


def _asciidoc(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    from kenning.ingest.asciidoc import parse_asciidoc

    return parse_asciidoc(text, path), None  # prose feeds no graph


# kind -> its parse function, returning (chunks, relations).
_PARSERS: dict[str, RelationParser] = {
    "markdown": _markdown,
    "text": _text,
    "script": _script,
    "rst": _rst,
    "asciidoc": _asciidoc,
    "notebook": _notebook,
    "python": _python,
    "code": _code,
}


def load_relations(name: str) -> RelationParser:
    """The parse function behind a versioned parser name, returning the file's excerpts and
    its graph relations (None for kinds without relations) from one parse."""
    return _PARSERS[name.split("/", 1)[0]]


def load_spans(name: str) -> Callable[[str, str], list[Chunk]]:
    """The parse function behind a versioned parser name, giving the excerpts of
    ``load_relations`` with the same type, title, body, anchor and symbol — what freshness
    compares — and for Python without keywords or relations (half the cost)."""
    kind = name.split("/", 1)[0]
    if kind == "python":
        return _python_spans
    relation_parser = _PARSERS[kind]
    return lambda text, path: relation_parser(text, path)[0]
