"""Scripts, build files and configuration, and the code of languages kenning has no grammar for
(Dart, Haskell…): read as code by runs of lines (``text``'s paragraphs), each excerpt naming its
language, no graph (but a Phoenix template's function components)."""

from __future__ import annotations

from dataclasses import replace

from kenning.ingest import config_titles, generated
from kenning.ingest.chunks import Chunk
from kenning.ingest.grammars import suffix_of
from kenning.ingest.relations import Relations
from kenning.ingest.text import parse_text

# Scripts, build files and configuration, and the code of languages kenning has no grammar for
# (Dart, Haskell…): read as code by runs of lines (``text``'s paragraphs),
# no graph. What they answer is everywhere in a project: what ``make test`` runs, which Python
# versions CI tests, what a deploy script does, which port a service listens on, which packages a
# ``composer.json`` or a ``.csproj`` requires; and a Flutter app's Dart is found by its words.
# 4: a stylesheet compiled from a file of the project is skipped (``ingest.compiled``); a store
# built before that reads its stylesheets once again and retires those.
SCRIPT_PARSER = "script/5"  # also an executable file without a suffix (``ingest.discover``)
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
    ".eex": "eex",  # Phoenix's templates (``.html.heex``), Elixir in HTML
    ".heex": "heex",
    ".leex": "eex",
    ".pug": "pug",
    ".css": "css",
    ".scss": "scss",
    ".sass": "sass",
    ".less": "less",
    # languages without a grammar here
    ".kts": "kotlin",  # build scripts (``build.gradle.kts``); ``.kt`` has its grammar
    ".dart": "dart",
    ".pl": "perl",
    ".pm": "perl",
    ".r": "r",
    ".erl": "erlang",
    ".hs": "haskell",
    ".clj": "clojure",
    ".groovy": "groovy",
    ".fs": "fsharp",
    ".jl": "julia",
    ".zig": "zig",
    ".ml": "ocaml",
}
# Laravel's Blade templates (``resources/views/auth/login.blade.php``): HTML with ``@directives``,
# read as the other templates are (by their lines, ``markup``), not as PHP.
BLADE = ".blade.php"
# A configuration template committed beside the code (the ``.env`` it documents stays unread: it
# holds the secrets), and ASP.NET Core's settings (``appsettings.json``, ``appsettings.Development.json``).
DOTENV_TEMPLATES = frozenset({".env.example", ".env.sample", ".env.dist", ".env.template"})
# A JSON Schema (``src/black/resources/black.schema.json``): the keys of a configuration, each with what
# it means and its default; other JSON files are data, read only by the names above (``package.json``).
JSON_SCHEMA = ".schema.json"


def parse_script(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    """A script, build or configuration file: ``text``'s runs of lines, as code of its language."""
    name = path.rpartition("/")[2].lower()
    language = SCRIPT_LANGUAGES.get(name) or SCRIPT_LANGUAGES.get(suffix_of(name))
    if language is None and (name in DOTENV_TEMPLATES or name.startswith("appsettings") or name.endswith(JSON_SCHEMA)):
        language = "dotenv" if name in DOTENV_TEMPLATES else "json"
    if name.endswith(BLADE):
        language = "blade"
    language = language or _shebang(text)
    meta = {"language": language}
    chunks = config_titles.retitled(parse_text(text, path), text, language)
    # a page a tool wrote (a documentation build, Javadoc) says so: weighed half (``generated``)
    excerpts = generated.marked([replace(c, type="code", meta=meta) for c in chunks], text)
    if language == "heex":  # a Phoenix template's function components (``<.button>``): calls
        from kenning.ingest.phoenix import heex_calls

        return excerpts, Relations(refs=tuple(heex_calls(text)))
    return excerpts, None


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
