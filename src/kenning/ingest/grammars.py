"""The tree-sitter grammars kenning reads code with, each from its wheel (``tree-sitter-go``…,
compiled parsers: nothing is downloaded)."""

from __future__ import annotations

import importlib
from functools import cache
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
}


@cache
def grammar(language: str) -> Any:
    """The tree-sitter ``Language`` of ``language`` (a key of ``LANGUAGES``)."""
    from tree_sitter import Language

    module, function = LANGUAGES[language]
    return Language(getattr(importlib.import_module(module), function)())
