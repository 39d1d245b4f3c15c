"""Which parser reads which file. A parser's name carries its version: bumping it makes the
next sync re-read every file of that kind. What each version changed: docs/parsers.md (a bump
adds its line there)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from kenning.ingest import generated
from kenning.ingest.chunks import Chunk
from kenning.ingest.grammars import suffix_of
from kenning.ingest.relations import Relations
from kenning.ingest.scripts import BLADE, DOTENV_TEMPLATES, JSON_SCHEMA, SCRIPT_LANGUAGES, SCRIPT_PARSER, parse_script
from kenning.ingest.text import parse_text

RelationParser = Callable[[str, str], tuple[list[Chunk], Relations | None]]

NOTEBOOK_PARSER = "notebook/2"
# A notebook is skipped as too large only from this many times the project's ``max_file_bytes``:
# its cells' outputs (plots as base64, tables) are most of its bytes, and are not read.
NOTEBOOK_SIZE_FACTOR = 10
# A document (Markdown, reStructuredText, AsciiDoc, a manual page) is skipped as too large only from
# this many times ``max_file_bytes``: a release history is one long page that people ask about, and
# the longest grow past 1 MB (this machine's Node.js CHANGELOG_V12.md is 956 kB, Rust's releases.md
# 895 kB; kenning's own docs/benchmarks.md passed 1 MB). A ``.txt`` file keeps the cap of code: a
# large one is mostly data (a word list, a test's expected output).
DOCUMENT_SIZE_FACTOR = 4
COMPONENT_PARSER = "component/1"  # Vue, Svelte and Astro components (``ingest.components``)
ROFF_PARSER = "roff/1"
# A manual page's template, filled in by the build (``assets/manual/bat.1.in``).
_MANUAL_TEMPLATE = re.compile(r"\.(?:[1-9]|man)\.in$")

_BY_SUFFIX = {
    ".md": "markdown/9",
    ".markdown": "markdown/9",
    # MDX: Markdown whose components, comments and imports are left out of its block structure (``ingest.mdx``)
    ".mdx": "mdx/2",
    ".mdc": "markdown/9",  # Cursor's project rules (``.cursor/rules/*.mdc``): Markdown with front matter
    # Quarto and R Markdown: Markdown with front matter and fenced code chunks (```` ```{r} ````), the
    # documents and reports of data projects.
    ".qmd": "markdown/9",
    ".rmd": "markdown/9",
    # reStructuredText (and the .txt documentation written in it): cut by its section titles, the
    # sections that fit together one excerpt; a file with no title stays runs of paragraphs (``text``).
    ".rst": "rst/3",
    ".txt": "rst/3",
    # AsciiDoc: cut by its section titles (``= Title``, ``== Section``), packed as reStructuredText.
    ".adoc": "asciidoc/3",
    ".asciidoc": "asciidoc/3",
    # Manual pages in roff (``rg.1``, ``sway.5.man``; ``bat.1.in``, a template of one: ``parser_for``), each
    # line read as the page shows it, cut by the page's section titles (``roff``).
    **{f".{section}": ROFF_PARSER for section in range(1, 10)},
    ".man": ROFF_PARSER,
    # Jupyter notebooks: their Markdown and code cells cut as one Markdown document (``notebook``).
    ".ipynb": NOTEBOOK_PARSER,
    # Vue, Svelte and Astro components: their script through tree-sitter, their markup and style by lines
    ".vue": COMPONENT_PARSER,
    ".svelte": COMPONENT_PARSER,
    ".astro": COMPONENT_PARSER,
    # Python through ``ast``
    ".py": "python/24",
    ".pyi": "python/24",
    # Terraform and other HCL by their blocks (``ingest.terraform``), read by their lines until ``terraform/1``
    ".tf": "terraform/1",
    ".tfvars": "terraform/1",
    ".hcl": "terraform/1",
}
_DOCUMENTS = frozenset(_BY_SUFFIX[suffix] for suffix in (".md", ".rst", ".adoc", ".man"))  # ``size_cap``
# JS/TS, Go, Rust, Java, C/C++, Ruby, PHP, C#, Kotlin, Swift, Scala, Lua and Elixir through tree-sitter
# (see grammars.SUFFIXES).
_TREE_SITTER = "code/40"
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
            ".lua",
            ".ex",
            ".exs",
        )
    }
)

# Scripts, build and configuration files, by their names or suffixes (``ingest.scripts``).
_BY_NAME = {name: SCRIPT_PARSER for name in SCRIPT_LANGUAGES if not name.startswith(".")}
_BY_NAME.update(dict.fromkeys(DOTENV_TEMPLATES, SCRIPT_PARSER))
# Coding agents' rules for the project, in one Markdown file without a suffix (Cursor's older
# ``.cursorrules``, Windsurf's, Cline's): what an agent is told about the project is its knowledge.
_BY_NAME.update(dict.fromkeys((".cursorrules", ".windsurfrules", ".clinerules"), _BY_SUFFIX[".md"]))
_BY_SUFFIX.update({suffix: SCRIPT_PARSER for suffix in SCRIPT_LANGUAGES if suffix.startswith(".")})
# A project's documents by their customary names, without a suffix (GNU's and GitHub's: jq's
# ``ChangeLog`` and ``COPYING``, spdlog's ``LICENSE`` and ``INSTALL``): plain text, read as ``.txt`` is.
# They were skipped as ``unsupported_type``, so "what license is X under" could not find the license.
PLAIN_DOCUMENTS = frozenset(
    {
        "readme", "changelog", "changes", "news", "history", "install", "authors", "contributors", "contributing",
        "license", "licence", "copying", "notice", "todo", "hacking", "thanks", "credits", "maintainers", "faq",
    }
)  # fmt: skip
_BY_NAME.update(dict.fromkeys(PLAIN_DOCUMENTS, _BY_SUFFIX[".txt"]))
_LICENSE_NAMES = re.compile(r"(?:licen[cs]e|copying)-[a-z0-9-]+|unlicense")


def size_cap(path: str, parser: str, max_file_bytes: int) -> int:
    """The most bytes a file read by ``parser`` may have (``max_file_bytes``, the project's):
    more for a notebook and a document."""
    if parser == NOTEBOOK_PARSER:
        return max_file_bytes * NOTEBOOK_SIZE_FACTOR
    if parser in _DOCUMENTS and not path.lower().endswith(".txt"):
        return max_file_bytes * DOCUMENT_SIZE_FACTOR
    return max_file_bytes


def parser_for(path: str) -> str | None:
    """The versioned parser name for a path, or None when kenning does not read that kind."""
    name = path.rpartition("/")[2].lower()
    if name.endswith(BLADE):  # a template, not PHP code, whatever its last suffix says
        return SCRIPT_PARSER
    found = _BY_NAME.get(name) or _BY_SUFFIX.get(suffix_of(name))  # ``CMakeLists.txt``: by its name
    if found is None and (name.startswith("appsettings") or name.endswith(JSON_SCHEMA)) and name.endswith(".json"):
        return SCRIPT_PARSER
    if found is None and _MANUAL_TEMPLATE.search(name):
        return ROFF_PARSER
    if found is None and _LICENSE_NAMES.fullmatch(name):  # ``LICENSE-MIT``, ``LICENSE-APACHE``: Rust's pair
        return _BY_SUFFIX[".txt"]
    return found


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
    if "markdown" in kinds or "mdx" in kinds:
        import kenning.ingest.decisions  # noqa: F401
    if "notebook" in kinds:
        import kenning.ingest.notebook  # noqa: F401
    if "python" in kinds:
        import kenning.ingest.python_code  # noqa: F401
    if "code" in kinds or "component" in kinds:
        import kenning.ingest.tree_code  # noqa: F401
    if "component" in kinds:
        import kenning.ingest.components  # noqa: F401
    if "terraform" in kinds:
        import kenning.ingest.terraform  # noqa: F401


def _text(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    return parse_text(text, path), None  # plain text feeds no graph


def _script(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    return parse_script(text, path)


def _terraform(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    from kenning.ingest.terraform import parse_terraform

    return parse_terraform(text, path), None  # no graph yet


def _notebook(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    from kenning.ingest.notebook import parse_notebook

    return parse_notebook(text, path)


def _component(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    from kenning.ingest.components import parse_component

    chunks, relations = parse_component(text, path)
    return generated.marked(chunks, text), relations


def _rst(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    from kenning.ingest.doc_includes import rst_includes
    from kenning.ingest.rst import parse_rst

    refs = tuple(rst_includes(text, path))  # the graph holds the files it includes, no more
    return parse_rst(text, path), Relations(refs=refs) if refs else None


def _asciidoc(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    from kenning.ingest.asciidoc import parse_asciidoc
    from kenning.ingest.doc_includes import asciidoc_includes

    refs = tuple(asciidoc_includes(text, path))  # the graph holds the files it includes, no more
    return parse_asciidoc(text, path), Relations(refs=refs) if refs else None


def _roff(text: str, path: str) -> tuple[list[Chunk], Relations | None]:
    from kenning.ingest.roff import parse_roff

    return parse_roff(text, path), None  # prose feeds no graph


# kind -> its parse function, returning (chunks, relations).
_PARSERS: dict[str, RelationParser] = {
    "markdown": _markdown,
    "mdx": _markdown,
    "text": _text,
    "script": _script,
    "rst": _rst,
    "asciidoc": _asciidoc,
    "roff": _roff,
    "notebook": _notebook,
    "component": _component,
    "python": _python,
    "code": _code,
    "terraform": _terraform,
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
