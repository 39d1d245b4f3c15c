"""What a parser hands to the graph besides excerpts: the symbols a file defines and the
references it makes (imports, calls, links, supersedes). Values only; resolution of a
reference to a node happens in ``kenning.graph``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from kenning.ingest.columns import columns, rebuilt

# Symbols and references are named tuples, not dataclasses: a cold sync makes one per
# definition, import, call and link in the parsing pool and sends them to the writing process
# (Django 5.0.6: 136,739 references), and a tuple is made, pickled and unpickled for less (a
# frozen dataclass sets each field through ``object.__setattr__``; its pickle names them).


# A call on a method's own receiver (``self.save()``, ``cls.create()``) carries as its hint this
# prefix, then the enclosing class and the bases the file can name, in order, space-separated:
# a class of the same file as ``.`` and its name in the file (the module is the caller's, known
# from its path: 28,610 such hints on Django, written once each), an imported one by its dotted
# name: ``self:.Model .Base app.mixins.Mixin``. Python names hold no ":" or space, so no import
# hint looks like it.
SELF_HINT = "self:"
# A reference of this type (and target kind) gives no edge: it records, for a class whose file
# names bases of it, the class's short name (its target) and its classes as a self call's hint
# names them, without the prefix (``.View .ContextMixin app.base.Base``), so that a call
# reaching the class from another file can go on to the bases of its bases.
BASES = "bases"
# Likewise no edge: for a global a module binds to an instance of a class it can name (``site =
# AdminSite()``, ``SHELLS = {}``, ``MAP: dict[str, int] = {}``), the global's name (its target)
# and that class as a call on the global names it, without the prefix (``.AdminSite .Base``,
# ``builtins.dict``), so that a call on it from another module (``registry.SHELLS.copy()``)
# reaches that class's method, or none of the project's.
GLOBALS = "globals"
# Likewise no edge (C++): for a class whose file declares fields of it with a type, the class's
# short name (its target) and, as hint, the class then each field and its type (``leveldb.DBImpl
# table_cache_=TableCache mutex_=port.Mutex``), so that a call on one of them in a method another
# file defines (``DBImpl::Write`` in ``db_impl.cc``, the class in ``db_impl.h``) reaches that type.
FIELDS = "fields"
# Such a call's hint: this prefix, the class and the name called on (``field:leveldb.DBImpl
# table_cache_``); resolution makes it the field's type's (``graph.fields``), else an attribute call.
FIELD_HINT = "field:"
# The standard library's namespaces in Rust and C++ (``std::``, ``core::``): no type of the project's.
STANDARD_NAMESPACES = frozenset({"std", "core", "alloc"})


def self_classes(hint: str, module: str) -> list[str]:
    """The dotted names of the classes a self call's hint (``SELF_HINT`` …) names, the caller's
    first (``module``: the caller's)."""
    prefix = f"{module}." if module else ""
    return [prefix + name[1:] if name[0] == "." else name for name in hint[len(SELF_HINT) :].split()]


def class_hint(cls: str, bases: dict[str, tuple[int, list[str]]]) -> str:
    """A call's hint for a method of the class ``cls`` (a qualname of the file's, or a type's name):
    the class, then the bases the file gives it (``self_classes`` reads it back)."""
    return " ".join([f"{SELF_HINT}.{cls}", *bases.get(cls, (0, []))[1]])


class Symbol(NamedTuple):
    qualname: str  # within the file: ``Cls.run``
    kind: str  # function, method, class, interface, struct, …
    line_start: int
    line_end: int


class Ref(NamedTuple):
    """``type`` is an edge type; ``scope`` the qualname of the symbol the reference sits in
    (None: the file itself)."""

    type: str
    target_kind: str  # symbol, module, file, decision
    target: str
    line: int | None = None
    scope: str | None = None
    hint: str | None = None
    qualified: bool = False
    reverse: bool = False
    link: str = "declared"
    tested: bool = False  # a call from a test: it also gives a ``tested_by`` edge (target -> caller)


def add_call(refs: list[Ref], seen: dict[Any, int], key: Any, ref: Ref) -> None:
    """``ref`` into ``refs`` unless a call of the same ``key`` (a scope's name, hint…) is there: one
    reference per key, the first met, but where the first was a method called on another call's
    result (``Regex::builder().build()``: a guess, ``heuristic``) and this one is certain, this one
    (and its line). ``seen``: key -> index in ``refs``, kept by the caller across its calls."""
    at = seen.get(key)
    if at is None:
        seen[key] = len(refs)
        refs.append(ref)
    elif ref.link == "extracted" and refs[at].link == "heuristic" and refs[at].qualified:
        refs[at] = ref


@dataclass(frozen=True)
class Relations:
    module: str = ""  # dotted module name (Python), else ''
    symbols: tuple[Symbol, ...] = ()
    refs: tuple[Ref, ...] = ()
    decision: dict[str, Any] | None = None  # {name, title, status, date} for an ADR
    extra: dict[str, Any] = field(default_factory=dict)
    package: str = ""  # what imports name the file by, when no module does (Go: ``go_packages``)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (by a parsing pool's worker, for the writing process) with its symbols and
        references as columns (``ingest.columns``; Django 5.0.6: 136,739 references)."""
        symbols, refs = columns(self.symbols), columns(self.refs)
        return (_rebuilt, (self.module, symbols, refs, self.decision, self.extra, self.package))


def _rebuilt(
    module: str,
    symbols: list[tuple[Any, ...]],
    refs: list[tuple[Any, ...]],
    decision: Any,
    extra: dict[str, Any],
    package: str,
) -> Relations:
    return Relations(module, tuple(rebuilt(Symbol, symbols)), tuple(rebuilt(Ref, refs)), decision, extra, package)
