"""Which of the nodes a symbol reference names it reaches, and how surely (``link``): the
candidates looked up by the reference's target narrowed by its hint (the module a name was
imported from, the classes a self call stands for), the caller's file, and their number
(``MAX_AMBIGUOUS``); see ``graph.resolve`` for the rules."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from kenning.ingest.go_packages import IMPORT_HINT
from kenning.ingest.grammars import family_of
from kenning.ingest.python_code import module_name
from kenning.ingest.relations import SELF_HINT, self_classes
from kenning.store import graph_refs
from kenning.store.db import Connection
from kenning.store.graph import Candidate, RefRow

MAX_AMBIGUOUS = 5
# Languages (families) whose constructors are named as their class (``Gson.Gson``, ``DBImpl::DBImpl``,
# C#'s ``Store.Store``).
_NAMED_CONSTRUCTORS = frozenset({"java", "c", "csharp"})
Key = tuple[str, str]  # (target kind, target) a node answers to


def imported_from(row: RefRow, candidates: Candidates) -> tuple[str, ...]:
    """The modules one of which the project must hold for the call to reach a project symbol,
    when the called name, or the name it is called on, was imported and none of the symbols of
    that name lies in what was imported: ``from urllib.parse import urlencode`` beside the
    project's own ``urlencode`` (the module ``urllib.parse``), ``itertools.count()`` beside a
    ``QuerySet.count`` (``itertools``), ``Decimal.count()`` after ``from decimal import Decimal``
    (``decimal.Decimal`` or ``decimal``); a method called on a receiver whose one class is
    imported (``counts.update()`` after ``counts = Counter()``, or ``super().close()`` in a class
    whose one base is ``io.IOBase``; the hint ``self:collections.Counter``), the class's module or
    itself. Empty: nothing to check."""
    hint = row.hint
    if row.target_kind != "symbol" or not hint or not candidates.rows or hint.startswith(IMPORT_HINT):
        return ()  # (Go's packages: ``graph.go_resolve``)
    if hint.startswith(SELF_HINT):
        hint = hint[len(SELF_HINT) :]
        if hint[:1] == "." or " " in hint:  # a class of the caller's file, or several classes
            return ()
    if candidates.any_inside(hint):
        return ()
    if not row.qualified:
        return (hint,)
    parent = hint.rpartition(".")[0]  # ``from m import obj`` names the receiver ``m.obj``
    return (hint, parent) if parent else (hint,)


def _inside(qualname: str, module: str) -> bool:
    """Whether ``qualname`` lies in ``module``, which may sit below the project's root
    (``flaskr.db`` holds ``examples.tutorial.flaskr.db.get_db``)."""
    return qualname.startswith(module + ".") or f".{module}." in qualname


def lookup_key(row: RefRow) -> Key:
    """What a reference's candidates are looked up by: ``obj.get()`` on an unknown receiver can
    only reach a method, never a module-level function that happens to share the name; nor can
    ``self.get()``."""
    if row.target_kind == "symbol" and row.qualified and (not row.hint or row.hint.startswith(SELF_HINT)):
        return ("method", row.target)
    return (row.target_kind, row.target)


class Candidates:
    """The nodes a target names, indexed by qualified name, by path and by their last two names
    (``Model.save``) when first asked (most targets name one node, which needs none of them:
    ``narrow``); a target as common as ``get`` names hundreds, asked about by thousands of calls."""

    __slots__ = ("rows", "_by_qualname", "_by_path", "_by_tail", "_inside", "_families")

    def __init__(self, rows: list[Candidate]) -> None:
        self.rows = rows
        self._by_qualname: dict[str, list] | None = None
        self._by_path: dict[str | None, list] | None = None
        self._by_tail: dict[str, list] | None = None
        self._inside: dict[str, bool] = {}
        self._families: dict[str | None, Candidates] | None = None

    def of_family(self, family: str | None) -> Candidates:
        """The nodes a call written in a language of ``family`` can reach (``family_of``): a
        JavaScript call never reaches a Python method (Django's vendored Select2 calls
        ``translation.all()``). Itself when every node is of that family, as in a project of
        one language; ``family`` None (no code): itself."""
        if family is None:
            return self
        if self._families is None:
            groups: dict[str | None, list[Candidate]] = {}
            for row in self.rows:
                groups.setdefault(family_of(row[1]), []).append(row)
            self._families = {key: self if len(groups) == 1 else Candidates(rows) for key, rows in groups.items()}
        found = self._families.get(family)
        if found is None:
            found = self._families[family] = Candidates([])
        return found

    def any_inside(self, module: str) -> bool:
        """Whether one of the nodes lies in ``module`` (``_inside``), kept per module."""
        found = self._inside.get(module)
        if found is None:
            found = self._inside[module] = any(_inside(qualname, module) for _, _, qualname in self.rows)
        return found

    def ending(self, cls: str, target: str) -> list:
        """The nodes whose qualified name ends with ``.CLS.TARGET`` (``cls`` maybe dotted)."""
        if self._by_tail is None:
            self._by_tail = {}
            for row in self.rows:
                self._by_tail.setdefault(".".join(row[2].rsplit(".", 2)[-2:]), []).append(row)
        tail = f".{cls}.{target}"
        return [c for c in self._by_tail.get(f"{cls.rpartition('.')[2]}.{target}", ()) if c[2].endswith(tail)]

    @property
    def by_qualname(self) -> dict[str, list]:
        if self._by_qualname is None:
            self._by_qualname = _grouped(self.rows, 2)
        return self._by_qualname

    @property
    def by_path(self) -> dict[str | None, list]:
        if self._by_path is None:
            self._by_path = _grouped(self.rows, 1)
        return self._by_path


def _grouped(rows: list[Candidate], column: int) -> dict:
    """``rows`` by the value of one column, in their order."""
    groups: dict = {}
    for row in rows:
        groups.setdefault(row[column], []).append(row)
    return groups


def narrow(
    found: Candidates,
    target: str,
    hint: str | None,
    qualified: bool,
    src_path: str | None,
    bases: Callable[[str, str], list[str]] | None = None,
) -> tuple[list, str]:
    """The candidates a reference reaches and its link. ``bases``: the classes a self call's or
    a typed receiver's hint stands for, the bases of its imported classes followed into their
    files (``graph.bases``), asked when the classes the hint names do not define the method."""
    cands = found.rows
    if not cands:
        return [], "heuristic"
    family = family_of(src_path)
    if not qualified and hint is None and family == "javascript":
        # a plain ``delay()`` in JavaScript reaches no member of a class or an object (``obj.delay``):
        # it has no receiver, and a method never gets ``this`` implicitly there
        plain = [c for c in cands if "." not in c[2]]
        if plain and len(plain) < len(cands):
            found, cands = Candidates(plain), plain
    if (
        not qualified
        and hint is None
        and len(cands) > 1
        and count_targets(cands) <= MAX_AMBIGUOUS
        and family in _NAMED_CONSTRUCTORS
        and _one_class(cands)
    ):
        return cands, "extracted"  # ``new DBImpl()``: the class and its constructors, one target
    # an Elixir bare call is the module's own, an imported or used module's, or else Kernel's or a
    # library's (``render()``, which ``use Phoenix.Controller`` brings; a script's ``config :app, …``
    # outside any module): never a homonym's
    bare_elixir = not qualified and family == "elixir"
    if bare_elixir and hint is None:
        return [], "heuristic"
    if hint is not None and hint.startswith(SELF_HINT):  # the caller's module, only for a self call
        module = module_of(src_path or "")
        classes = self_classes(hint, module)
        own = _own_method(found, target, classes)
        if not own and bases is not None:
            further = bases(hint, module)
            if len(further) > len(classes):
                own = _own_method(found, target, further)
        if own:
            return own, "extracted"
        if bare_elixir:  # the module's and the modules it imports or uses do not define it
            return [], "heuristic"
        hint = None  # the class and the bases the file names do not define it: an attribute call
        if not qualified and not any(_reached_bare(c[2], classes) for c in cands):
            # a bare call on its own object (Java, Ruby, C++…) reaches no other class's member: a
            # method it gets elsewhere (a base outside the project, Rails' ``belongs_to :user``);
            # another class's homonym (``Telebugs.user``) is a guess at best
            qualified = True
    if not qualified and hint is None and family == "ruby" and all("." in c[2] for c in cands):
        qualified = True  # a bare name outside a class (an RSpec ``let(:user)``) calls no module's own method
    if len(cands) == 1:  # what ``_narrow_among`` gives for one candidate, without its indexes
        (_, path, qualname) = cands[0]
        # a method called on an object no hint types (``x.all()``) is a guess, even when the caller's
        # file holds the only method of that name: a same-file object's is hinted (``utils.forEach``)
        certain = not qualified or (hint and _inside(qualname, hint))
        return cands, "extracted" if certain else "heuristic"
    return _narrow_among(found, target, hint, qualified, src_path)


def _reached_bare(qualname: str, classes: list[str]) -> bool:
    """Whether a bare call in a method of ``classes[0]`` may name ``qualname``: a function of no
    class, or a member of a class around the caller's (a Java inner class calls its outer class's)."""
    owner = qualname.rpartition(".")[0]
    return not owner or any(cls == owner or cls.startswith(owner + ".") for cls in classes[:1])


def _one_class(cands: list) -> bool:
    """Whether the candidates are one class and its constructors (Java's and C++'s, named as the
    class: ``leveldb.DBImpl`` and ``leveldb.DBImpl.DBImpl``, the class in a header and the
    constructor in its ``.cc``)."""
    names = {qualname for _, _, qualname in cands}
    cls = min(names, key=len)
    constructor = f"{cls}.{cls.rpartition('.')[2]}"
    return cls in names and names <= {cls, constructor} and len(names) == 2


def _narrow_among(
    found: Candidates, target: str, hint: str | None, qualified: bool, src_path: str | None
) -> tuple[list, str]:
    cands = found.rows
    if hint:
        exact = found.by_qualname.get(f"{hint}.{target}", [])
        if len(exact) == 1:
            return exact, "extracted"
        hinted = exact or [c for c in cands if _inside(c[2], hint)]
        if len(hinted) == 1:
            return hinted, "extracted"
        cands = hinted or cands
    same = found.by_path.get(src_path, []) if cands is found.rows else [c for c in cands if c[1] == src_path]
    if len(same) == 1:  # the caller's file's: certain for a plain call, a guess for a method on an untyped object
        return same, "heuristic" if qualified and cands is found.rows else "extracted"
    if len(cands) == 1:
        return cands, "heuristic" if qualified else "extracted"
    if count_targets(cands) <= MAX_AMBIGUOUS:
        return cands, "heuristic"
    return [], "heuristic"


def count_targets(cands: list, *, whole: bool = False) -> int:
    """How many definitions the candidates are, a method's overloads (Java's ``getPet(String)`` and
    ``getPet(Integer)``: a node each, one path and qualified name) counting once; counted up to one
    more than ``MAX_AMBIGUOUS`` (a name as common as ``get`` names hundreds, asked by thousands of
    calls), unless ``whole``."""
    if len(cands) <= MAX_AMBIGUOUS:
        return len(cands)
    seen: set[tuple[str, str]] = set()
    for _, path, qualname in cands:
        seen.add((path, qualname))
        if len(seen) > MAX_AMBIGUOUS and not whole:
            break
    return len(seen)


@lru_cache(maxsize=4096)
def module_of(path: str) -> str:
    """A self call's module, from its caller's path: a Python file's dotted module; "" for a file
    of the tree-sitter languages, whose symbols carry no module in their qualified names."""
    return module_name(path) if path.endswith((".py", ".pyi")) else ""


def _own_method(found: Candidates, target: str, classes: list[str]) -> list:
    """The method ``target`` of the first of ``classes`` (a self call's class, then its bases)
    that defines it, as one candidate; a base may be named below the project's root
    (``flaskr.db.Base`` for ``examples.tutorial.flaskr.db.Base``) or where it is re-exported
    (``django.db.models.Model`` for ``django.db.models.base.Model``). Empty: none does."""
    for cls in classes:
        exact = found.by_qualname.get(f"{cls}.{target}", [])
        if len(exact) == 1:
            return exact
        below = found.ending(cls, target)
        if len(below) == 1:
            return below
        package, _, short = cls.rpartition(".")
        if package:
            exported = [c for c in found.ending(short, target) if _inside(c[2], package)]
            if len(exported) == 1:
                return exported
    return []


def shared_method_name(conn: Connection, node_id: int, name: str) -> int:
    """How many methods are named ``name`` when ``node_id`` is one of them and they are too many
    to link a call on an unknown receiver (``obj.save()``) to any (more than ``MAX_AMBIGUOUS``);
    0 otherwise: the graph holds such a method's callers only where one was certain."""
    key = ("method", name)
    found = graph_refs.candidates_many(conn, [key])[key]
    if count_targets(found) <= MAX_AMBIGUOUS or all(row[0] != node_id for row in found):
        return 0
    return count_targets(found, whole=True)


def shared_method_names(conn: Connection, names: Sequence[str]) -> dict[str, int]:
    """Of ``names``, those more than ``MAX_AMBIGUOUS`` methods share, with how many: a call of
    one on an unknown receiver links to none."""
    found = graph_refs.candidates_many(conn, [("method", name) for name in names])
    counted = {name: count_targets(rows, whole=True) for (_, name), rows in found.items()}
    return {name: count for name, count in counted.items() if count > MAX_AMBIGUOUS}
