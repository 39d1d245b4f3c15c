"""The rules that decide, one reference at a time, which of its candidates a call may reach
(``graph.resolve`` applies them): a language's free functions, test code, a receiver's declared
type, a call on a value a module binds."""

from __future__ import annotations

from functools import lru_cache

from kenning.graph.narrow import Candidates
from kenning.ingest.grammars import family_of
from kenning.ingest.relations import SELF_HINT
from kenning.ingest.test_files import is_test_path
from kenning.store.graph import RefRow

# Languages whose methods may call a function of no class by a bare name, as they call their own:
# Kotlin's (the ``java`` family) and Swift's top-level functions.
FREE_FUNCTIONS = frozenset({"java", "swift"})


def not_itself(candidates: Candidates, row: RefRow) -> tuple[list, str]:
    """A method's bare call read as one of itself (``@Test fun getZoneForLatitude()`` calling
    ``getZoneForLatitude(0.0)``, android/sunflower: Kotlin picks the overload by its arguments, which
    the graph does not compare): the one function of no class so named, when there is one; else none
    (a recursive call gives no edge either way)."""
    free = [c for c in candidates.rows if c[0] != row.src and "." not in c[2]]
    return (free, "extracted") if len(free) == 1 else ([], "heuristic")


def in_tests(path: str | None, qualname: str) -> bool:
    """Whether a candidate is test code: in a test file, or in a Rust file's ``mod tests``
    (``tests.helper``), where Rust keeps its unit tests beside the code they test."""
    if not path:
        return False
    return test_path(path) or path.endswith(".rs") and (qualname.startswith("tests.") or ".tests." in qualname)


test_path = lru_cache(maxsize=8192)(is_test_path)  # by a candidate's file: resolution asks it again and again


def typed_class(row: RefRow) -> str | None:
    """The one class a call of the tree-sitter languages names for its receiver (``self:.Store``:
    a typed local, field or parameter, an object created in place, a value of an extension's
    type), whose declaration in the project decides what the call may reach; None for any other
    reference (a self call's hint names its class and bases; Python's are module-qualified)."""
    hint = row.hint
    if row.target_kind != "symbol" or not hint or not hint.startswith(SELF_HINT + ".") or " " in hint:
        return None
    if family_of(row.src_path) in (None, "python"):
        return None
    cls = hint[len(SELF_HINT) + 1 :]
    return cls if cls and "." not in cls else None


def on_a_value(row: RefRow, held: tuple[str, ...]) -> bool:
    """Whether ``row`` is a method called on a name a module of the project binds (``held``: the
    name, then its module, which the project holds when the name is no module of it): not a self
    call's or a typed receiver's, whose hint names classes, nor a capitalised name
    (``admin.AdminSite()``: a class, by convention, called through a module another module
    re-exports)."""
    hint = row.hint or SELF_HINT
    return len(held) == 2 and not hint.startswith(SELF_HINT) and not row.target[:1].isupper()
