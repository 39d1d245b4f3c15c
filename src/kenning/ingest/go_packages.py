"""Go's packages as the graph names them, without reading ``go.mod``.

A Go file belongs to the package of its directory, which its package clause names (``package
cobra``); other packages import it by a path that ends with that directory
(``github.com/spf13/cobra/doc`` for ``doc/``) or, for the module's root, is the module's own
path. A Go file's node answers to ``go:`` and its package's name (``go:cobra``; an external
test package ``cobra_test`` is ``go:cobra``), and an import of a path outside the standard
library names the package by the name its path gives (``PACKAGE`` + ``package_name``), its path
kept in the reference's hint (``IMPORT_HINT``); the resolver keeps, of the files of that name,
those whose directory the path ends with (``in_package``), or the root's.
"""

from __future__ import annotations

import posixpath
import re

PACKAGE = "go:"  # a Go file node's qualified name: this prefix and its package's name
IMPORT_HINT = "go:"  # a Go reference's hint: this prefix and the path the file imports
TYPE_MARK = "#"  # then, for a method called on a value of a type that package declares: this and the type
_MAJOR = re.compile(r"v[0-9]+")  # a major version's path segment (``/v2``) or suffix (``yaml.v3``)


def is_standard(import_path: str) -> bool:
    """Whether an import path is the standard library's (its first segment holds no dot:
    ``fmt``, ``net/http``; a module path begins with a domain)."""
    return "." not in import_path.split("/", 1)[0]


def package_name(import_path: str) -> str:
    """The name a package's clause gives it, as its path tells by convention: its last segment,
    a major version segment or suffix left out (``github.com/x/y/v2`` is ``y``,
    ``gopkg.in/yaml.v3`` is ``yaml``), a ``go-`` prefix too (``github.com/mattn/go-sqlite3``)."""
    name = _without_major(import_path).rpartition("/")[2]
    stem, dot, suffix = name.rpartition(".")
    if dot and _MAJOR.fullmatch(suffix):
        name = stem
    return name.removeprefix("go-")


def _without_major(import_path: str) -> str:
    """An import path without its last segment when that names a major version (``/v2``)."""
    head, _, last = import_path.rstrip("/").rpartition("/")
    return head if head and _MAJOR.fullmatch(last) else import_path.rstrip("/")


def type_hint(import_path: str, type_: str) -> str:
    """The hint of a method called on a value of ``type_``, which the package imported by
    ``import_path`` declares (``go:github.com/spf13/cobra#Command``)."""
    return f"{IMPORT_HINT}{import_path}{TYPE_MARK}{type_}"


def package_key(clause: str) -> str:
    """The qualified name of a file whose package clause names ``clause``."""
    return PACKAGE + clause.removesuffix("_test")


def in_package(path: str, import_path: str) -> bool:
    """Whether the file at ``path`` may be in the package ``import_path`` imports: its directory
    is the path's end (``doc`` for ``…/cobra/doc``), its vendored copy (``vendor/<path>``), or the
    project's root (the module's own path, which only ``go.mod`` would name); a major version's
    last segment aside (``…/util/v2``: a module of its own in ``util/``)."""
    directory = posixpath.dirname(path)
    import_path = _without_major(import_path)
    return (
        not directory
        or import_path == directory
        or import_path.endswith("/" + directory)
        or directory.endswith("vendor/" + import_path)
    )


# A Go name as Go code writes it, qualified by its package (``security.RandomString``): that name in
# a file of that package (a Go symbol's qualified name holds no package; its file's is ``go:security``).
_QUALIFIED = re.compile(r"([a-z_][a-z0-9_]*)\.([A-Za-z_]\w*)")


def go_qualified(text: str) -> tuple[str, str] | None:
    """(the name, its package's file qualname) of a Go name written ``package.Name``, else None."""
    match = _QUALIFIED.fullmatch(text)
    return (match[2], PACKAGE + match[1]) if match else None
