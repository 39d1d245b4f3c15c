"""Which parser reads which file. A parser's name carries its version: bumping it makes the
next sync re-read every file of that kind."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePosixPath

from kenning.ingest.chunks import Chunk
from kenning.ingest.relations import Relations

Parser = Callable[[str, str], list[Chunk]]
RelationParser = Callable[[str, str], tuple[list[Chunk], Relations | None]]

_BY_SUFFIX = {
    ".md": "markdown/2",
    ".markdown": "markdown/2",
    ".mdx": "markdown/2",
    ".rst": "text/1",
    ".txt": "text/1",
    ".adoc": "text/1",
    ".py": "python/2",
    ".pyi": "python/2",
}
_TREE_SITTER = "code/1"  # JS/TS, Go, Rust, Java, C/C++, Ruby through tree-sitter (see tree_code.SUFFIXES)
_BY_SUFFIX.update({
    suffix: _TREE_SITTER
    for suffix in (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".go", ".rs", ".java", ".c", ".h",
                   ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".rb")
})


def parser_for(path: str) -> str | None:
    """The versioned parser name for a path, or None when kenning does not read that kind."""
    return _BY_SUFFIX.get(PurePosixPath(path).suffix.lower())


def load(name: str) -> Parser:
    """The parse function behind a parser name (imported lazily: most syncs parse nothing)."""
    kind = name.split("/", 1)[0]
    match kind:
        case "markdown":
            from kenning.ingest.markdown import parse_markdown

            return parse_markdown
        case "text":
            from kenning.ingest.text import parse_text

            return parse_text
        case "python":
            from kenning.ingest.python_code import parse_python

            return parse_python
        case "code":
            from kenning.ingest.tree_code import parse_code

            return parse_code
    raise KeyError(name)


def load_relations(name: str) -> RelationParser:
    """Like ``load``, but also returns the file's graph relations (one parse for both)."""
    kind = name.split("/", 1)[0]
    match kind:
        case "markdown":
            from kenning.ingest.decisions import parse_markdown_relations

            return parse_markdown_relations
        case "python":
            from kenning.ingest.python_code import parse_python_relations

            return parse_python_relations
        case "code":
            from kenning.ingest.tree_code import parse_code_relations

            return parse_code_relations
    parse = load(name)
    return lambda text, path: (parse(text, path), None)
