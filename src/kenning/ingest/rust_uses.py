"""A Rust file's top-level ``use`` declarations: the names they bind, and the paths they import.

``use std::{io, path::Path};`` binds ``io`` and ``Path`` from ``std``; ``use std::io::{self, Read as
R};`` binds ``io`` and ``R``. ``tree_imports.imported_names`` sets those of the standard library
(``std``, ``core``, ``alloc``) apart, so that ``io::Error::new()`` is no call of the project's
``Error::new`` (ripgrep, walked as a new user: it was linked, ``extracted``, to ``grep_regex``'s
crate-private ``Error::new``), nor ``max(a, b)`` after ``use std::cmp::max`` one of its ``max``. A
glob (``use std::io::*``) binds nothing it names.

The paths (``use_paths``) are the ``imports`` of the file (``tree_imports``): ``crate::flags::config``
names ``flags/config`` in the file's own crate, ``super::parse`` the module beside the file's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .grammars import node_text


def use_names(root: Any) -> Iterator[tuple[str, str]]:
    """(first segment of the path, the name bound) for each name the file's top-level ``use``
    declarations bind."""
    for node in root.named_children:
        if node.type == "use_declaration":
            for segments, bound in use_paths(node):
                if bound is not None:
                    yield segments[0], bound


def use_paths(node: Any) -> Iterator[tuple[list[str], str | None]]:
    """(the path's segments, the name it binds: its alias, or its last segment; None for a glob)
    for each path one ``use`` declaration imports."""
    argument = node.child_by_field_name("argument")
    if argument is not None:
        yield from _paths(argument, [])


def _paths(node: Any, prefix: list[str]) -> Iterator[tuple[list[str], str | None]]:
    match node.type:
        case "identifier" | "scoped_identifier" | "crate" | "self" | "super":
            segments = [*prefix, *node_text(node).split("::")]
            yield segments, segments[-1]
        case "use_as_clause":
            path, alias = node.child_by_field_name("path"), node.child_by_field_name("alias")
            if path is not None and alias is not None:
                segments = [*prefix, *node_text(path).split("::")]
                if segments[-1] == "self":  # ``{self as sio}``: the list's path itself
                    segments = segments[:-1]
                yield segments, node_text(alias)
        case "scoped_use_list":
            path, items = node.child_by_field_name("path"), node.child_by_field_name("list")
            inner = [*prefix, *node_text(path).split("::")] if path is not None else prefix
            for item in items.named_children if items is not None else ():
                if item.type == "self" and inner:  # ``std::io::{self, Read}``: ``io`` itself
                    yield inner, inner[-1]
                else:
                    yield from _paths(item, inner)
        case "use_list":
            for item in node.named_children:
                yield from _paths(item, prefix)
        case "use_wildcard":  # ``use crate::flags::*``: the module, no name
            path = next(iter(node.named_children), None)
            if path is not None:
                yield [*prefix, *node_text(path).split("::")], None
