"""The tree-sitter grammars kenning reads code with, each from its wheel (``tree-sitter-go``…,
compiled parsers: nothing is downloaded), the file suffixes each reads, and which languages'
calls can reach which files' symbols (``family_of``). Standard library only at import."""

from __future__ import annotations

import importlib
from functools import cache, lru_cache
from typing import Any

LANGUAGES = {  # name -> (module, function returning the language pointer)
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "go": ("tree_sitter_go", "language"),
    "rust": ("tree_sitter_rust", "language"),
    "java": ("tree_sitter_java", "language"),
    "c": ("tree_sitter_c", "language"),
    "cpp": ("tree_sitter_cpp", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    "php": ("tree_sitter_php", "language_php"),  # PHP with its HTML around: a file opens with <?php
    "csharp": ("tree_sitter_c_sharp", "language"),
    "kotlin": ("tree_sitter_kotlin", "language"),
    "swift": ("tree_sitter_swift", "language"),
    "scala": ("tree_sitter_scala", "language"),
    "lua": ("tree_sitter_lua", "language"),
    "elixir": ("tree_sitter_elixir", "language"),
}

SUFFIXES = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".rb": "ruby",
    ".rake": "ruby",
    ".gemspec": "ruby",
    ".ru": "ruby",
    ".builder": "ruby",
    ".jbuilder": "ruby",
    ".php": "php",
    ".cs": "csharp",
    ".kt": "kotlin",  # not ``.kts``: build scripts, read by runs of lines
    ".swift": "swift",
    ".scala": "scala",
    ".lua": "lua",
    ".ex": "elixir",
    ".exs": "elixir",
}
# Languages whose calls reach one another's symbols: JavaScript and TypeScript, C and C++, Kotlin,
# Scala and Java (one JVM: a Kotlin file calls a Java class's methods as its own, and the other way round).
_FAMILY = {"typescript": "javascript", "tsx": "javascript", "cpp": "c", "kotlin": "java", "scala": "java"}
# Families whose languages overload a name by its parameters (Java's ``getPet(String)`` and
# ``getPet(Integer)``, C++'s, C#'s, Swift's, Kotlin's, Scala's): one name, several definitions in a class.
OVERLOADING = frozenset({"java", "c", "csharp", "swift"})
_PYTHON = frozenset({".py", ".pyi"})
# Vue, Svelte and Astro components: their scripts are JavaScript or TypeScript (``ingest.components``).
COMPONENT_SUFFIXES = frozenset({".vue", ".svelte", ".astro"})


def suffix_of(path: str) -> str:
    """``PurePosixPath(path).suffix`` without building a path object (a sync asks for every file):
    ``""`` for ``Makefile``, ``.bashrc`` or ``a.``."""
    name = path.rpartition("/")[2]
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def stem_of(path: str) -> str:
    """``PurePosixPath(path).stem``: the file's name, its suffix left out."""
    name = path.rpartition("/")[2]
    suffix = suffix_of(name)
    return name[: -len(suffix)] if suffix else name


def language_for(path: str) -> str | None:
    return SUFFIXES.get(suffix_of(path).lower())


@lru_cache(maxsize=8192)  # asked for each caller and each candidate of a resolution: paths repeat
def family_of(path: str | None) -> str | None:
    """The family of languages a call written in ``path`` can reach symbols of, and that the
    symbols of ``path`` are reached from (``python``, ``javascript`` for JS and TS, ``c`` for C
    and C++, ``go``…); None for a path of no code kenning reads symbols from."""
    if not path:
        return None
    suffix = suffix_of(path).lower()
    if suffix in _PYTHON:
        return "python"
    if suffix in COMPONENT_SUFFIXES:
        return "javascript"
    language = language_for(path)
    return _FAMILY.get(language, language) if language else None


def node_text(node: Any) -> str:
    """A tree-sitter node's source text."""
    return node.text.decode("utf-8", "replace")


@cache
def grammar(language: str) -> Any:
    """The tree-sitter ``Language`` of ``language`` (a key of ``LANGUAGES``)."""
    from tree_sitter import Language

    module, function = LANGUAGES[language]
    return Language(getattr(importlib.import_module(module), function)())
