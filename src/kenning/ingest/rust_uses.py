"""The names a Rust file's top-level ``use`` declarations bind, each with the first segment of
the path it comes from: ``use std::{io, path::Path};`` binds ``io`` and ``Path`` from ``std``,
``use std::io::{self, Read as R};`` binds ``io`` and ``R``. ``tree_imports.imported_names`` sets
those of the standard library (``std``, ``core``, ``alloc``) apart, so that ``io::Error::new()``
is no call of the project's ``Error::new`` (ripgrep, walked as a new user: it was linked,
``extracted``, to ``grep_regex``'s crate-private ``Error::new``), nor ``max(a, b)`` after ``use
std::cmp::max`` one of its ``max``. A glob (``use std::io::*``) binds nothing it names."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .grammars import node_text


def use_names(root: Any) -> Iterator[tuple[str, str]]:
    """(first segment of the path, the name bound) for each name the file's top-level ``use``
    declarations bind."""
    for node in root.named_children:
        if node.type == "use_declaration":
            argument = node.child_by_field_name("argument")
            if argument is not None:
                yield from _bound(argument, None)


def _bound(node: Any, root: str | None) -> Iterator[tuple[str, str]]:
    """What ``node`` (a use tree) binds, its path's first segment ``root`` when a list's prefix
    gave it (``std`` of ``std::{io, fs}``)."""
    match node.type:
        case "identifier":
            yield root or node_text(node), node_text(node)
        case "scoped_identifier":
            text = node_text(node)
            yield root or text.split("::", 1)[0], text.rsplit("::", 1)[-1]
        case "use_as_clause":
            path, alias = node.child_by_field_name("path"), node.child_by_field_name("alias")
            if path is not None and alias is not None:
                yield root or node_text(path).split("::", 1)[0], node_text(alias)
        case "scoped_use_list":
            path, items = node.child_by_field_name("path"), node.child_by_field_name("list")
            prefix = node_text(path) if path is not None else ""
            first = root or prefix.split("::", 1)[0] or None
            for item in items.named_children if items is not None else ():
                if item.type == "self" and prefix:  # ``std::io::{self, Read}``: ``io`` itself
                    yield first or prefix, prefix.rsplit("::", 1)[-1]
                else:
                    yield from _bound(item, first)
        case "use_list":
            for item in node.named_children:
                yield from _bound(item, root)
