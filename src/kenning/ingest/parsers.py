"""Which parser reads which file. A parser's name carries its version: bumping it makes the
next sync re-read every file of that kind."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import PurePosixPath

from kenning.ingest.chunks import Chunk
from kenning.ingest.relations import Relations

RelationParser = Callable[[str, str], tuple[list[Chunk], Relations | None]]

_BY_SUFFIX = {
    ".md": "markdown/2",
    ".markdown": "markdown/2",
    ".mdx": "markdown/2",
    ".rst": "text/1",
    ".txt": "text/1",
    ".adoc": "text/1",
    ".py": "python/3",
    ".pyi": "python/3",
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


# kind -> where its parse function lives: one that returns (chunks, relations) when the kind
# feeds the graph, else one that returns chunks only. Imported lazily: most syncs parse nothing.
_PARSERS: dict[str, tuple[str, bool]] = {
    "markdown": ("kenning.ingest.decisions:parse_markdown_relations", True),
    "text": ("kenning.ingest.text:parse_text", False),
    "python": ("kenning.ingest.python_code:parse_python_relations", True),
    "code": ("kenning.ingest.tree_code:parse_code_relations", True),
}


def load_relations(name: str) -> RelationParser:
    """The parse function behind a versioned parser name, returning the file's excerpts and
    its graph relations (None for kinds without relations) from one parse."""
    target, with_relations = _PARSERS[name.split("/", 1)[0]]
    module, attribute = target.split(":")
    parse = getattr(importlib.import_module(module), attribute)
    if with_relations:
        return parse
    return lambda text, path: (parse(text, path), None)
