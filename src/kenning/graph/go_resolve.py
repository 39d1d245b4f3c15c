"""Go's references resolved by its packages (``ingest.go_packages``): a plain call ``F()``
reaches a function of the caller's own package (its directory), a call ``pkg.F()`` one of the
package the file imports as ``pkg``, an import every file of that package, a method called on a
value of a type that package declares (``cmd.Execute()`` with ``cmd *cobra.Command``) that type's
method there; none reaches a test file from another package, nor, on a value of a type not known,
a method (``graph.narrow``'s)."""

from __future__ import annotations

import posixpath

from kenning.graph.narrow import MAX_AMBIGUOUS, Candidates
from kenning.ingest.go_packages import IMPORT_HINT, PACKAGE, TYPE_MARK, in_package, package_name
from kenning.ingest.test_files import is_test_path
from kenning.store.graph import Candidate, RefRow


def imported_path(row: RefRow) -> str | None:
    """The path a Go reference's file imports the package by (its hint), or None."""
    hint = row.hint
    return hint[len(IMPORT_HINT) :].partition(TYPE_MARK)[0] if hint and hint.startswith(IMPORT_HINT) else None


def _method_type(row: RefRow) -> str | None:
    """The type of the imported package a Go method call's value has (its hint's), or None."""
    hint = row.hint
    return hint.partition(TYPE_MARK)[2] or None if hint and hint.startswith(IMPORT_HINT) else None


def package_lookup(row: RefRow) -> tuple[str, str] | None:
    """The key of the files a Go call through an imported package may reach (``go:<name>``)."""
    path = imported_path(row)
    return ("module", PACKAGE + package_name(path)) if path is not None else None


def package_files(files: Candidates, import_path: str) -> list[Candidate]:
    """Of the files of a package's name, those of the longest directory the import path can name
    (``internal/doc`` before ``doc`` for ``…/internal/doc``), none a test file (a package's tests
    are no part of what another package imports)."""
    inside = [c for c in files.rows if c[1] and in_package(c[1], import_path) and not is_test_path(c[1])]
    deepest = max((len(_directory(c)) for c in inside), default=0)
    return [c for c in inside if len(_directory(c)) == deepest]


def _package_directories(files: Candidates | None, import_path: str) -> set[str]:
    """The directories of the package an import path names (``package_files``); none without files."""
    return {_directory(c) for c in package_files(files, import_path)} if files else set()


def _directory(candidate: Candidate) -> str:
    return posixpath.dirname(candidate[1] or "")


def narrow_call(row: RefRow, found: Candidates, files: Candidates | None) -> tuple[list[Candidate], str] | None:
    """The functions a Go call without a receiver value reaches and its link; None for a call on
    a value (``obj.Run()``, a self call), left to ``graph.narrow``. ``files``: the files of the
    imported package's name, for ``pkg.F()``."""
    import_path = imported_path(row)
    type_ = _method_type(row)
    if type_ is not None and import_path is not None:  # ``cmd.Execute()``, ``cmd *cobra.Command``
        directories = _package_directories(files, import_path)
        wanted = f"{type_}.{row.target}"
        return _linked([c for c in found.rows if c[2] == wanted and _directory(c) in directories])
    if row.qualified or import_path is None and row.hint is not None:
        return None
    functions = [c for c in found.rows if "." not in c[2]]  # Go names a method ``Type.Method``
    if import_path is not None:
        directories = _package_directories(files, import_path)
        chosen = [c for c in functions if _directory(c) in directories and not is_test_path(c[1] or "")]
    else:
        directory = posixpath.dirname(row.src_path or "")
        chosen = [c for c in functions if _directory(c) == directory]
    return _linked(chosen)


def _linked(chosen: list[Candidate]) -> tuple[list[Candidate], str]:
    if len(chosen) == 1:
        return chosen, "extracted"
    # two files of one package defining one name: a build constraint's variants (command_win.go)
    return (chosen, "heuristic") if len(chosen) <= MAX_AMBIGUOUS else ([], "heuristic")
