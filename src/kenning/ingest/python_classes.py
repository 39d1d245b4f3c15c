"""The classes a call on a receiver reaches, written as the hint of the call (``SELF_HINT``): a
method's own receiver (``self``, ``cls``) stands for the enclosing class, then the bases the file
can name; a typed local (``x = Client()``, ``def f(x: Client)``) or an attribute of the own
receiver typed in a method (``self.conn = Connection()``) for that class, then its bases."""

from __future__ import annotations

import ast
import builtins

from .python_imports import Imports
from .python_locals import GLOBAL, MODULE, Binding
from .relations import BASES, SELF_HINT, Ref

# The builtin classes (``dict``, ``str``, ``ValueError``): a call on an instance of one reaches no
# project symbol, as a call on an instance of a class imported from outside the project does not.
_BUILTIN_CLASSES = frozenset(name for name, value in vars(builtins).items() if isinstance(value, type))


class ClassHints:
    """The hint of a call on an instance of each class a file names, worked out once a class:
    ``SELF_HINT``, then a class of the file and its bases (``class_chain``), or an imported
    class alone."""

    def __init__(self, symbols: list, imports: Imports) -> None:
        self.classes = {qualname: node for node, qualname, kind in symbols if kind == "class"}
        self.imports = imports
        self._hints: dict[str, str] = {}

    def of(self, qualname: str) -> str:
        """The hint of a class of the file (``self:.Model app.base.Base``)."""
        hint = self._hints.get(qualname)
        if hint is None:
            chain = class_chain(qualname, self.classes, self.imports, [])
            hint = self._hints[qualname] = SELF_HINT + " ".join(chain)
        return hint

    def named(self, cls: str) -> str | None:
        """The hint of the class ``cls`` names as written (``Client``, ``http.Client``): one of
        the file's, an imported one whose name begins with a capital (a class, by
        convention: not ``make_client``), or a builtin class the file does not shadow (``dict``:
        ``builtins.dict``, a module the project does not hold); None for any other name."""
        head, _, rest = cls.partition(".")
        if not rest and head in self.classes:
            return self.of(head)
        imports = self.imports
        if head in imports.names:
            first = ".".join(imports.names[head])
        elif head in imports.modules:
            first = imports.modules[head]
        elif not rest and head in _BUILTIN_CLASSES:
            return f"{SELF_HINT}builtins.{head}"
        else:
            return None
        named = f"{first}.{rest}" if rest else first
        return SELF_HINT + named if named.rpartition(".")[2][:1].isupper() else None


def receivers(symbols: list, hints: ClassHints) -> dict[str, tuple[str, str]]:
    """Each method's (name of its first parameter, the hint of a call on it): ``self`` and
    ``self:.Model app.base.Base`` for ``def save(self)`` in ``class Model(Base)`` after ``from
    app.base import Base`` (``SELF_HINT``). None for a static method, whose first parameter is
    no receiver."""
    found: dict[str, tuple[str, str]] = {}
    for node, qualname, kind in symbols:
        if kind != "method":
            continue
        params = node.args.posonlyargs or node.args.args
        if not params or any(d.__class__ is ast.Name and d.id == "staticmethod" for d in node.decorator_list):
            continue
        found[qualname] = (params[0].arg, hints.of(qualname.rpartition(".")[0]))
    return found


def typed_receivers(
    bindings: list[Binding],
    own: dict[str, tuple[str, str]],
    hints: ClassHints,
    top: set[str],
    annotated: dict[str, str | None],
) -> dict[tuple[str, str], str]:
    """The hint of a call on a receiver of known class: ``(scope, name)`` for a name the function
    binds one way only, to an instance of a class the file defines (``self:.Client .Base``, as a
    self call's), imports (``self:app.http.Client``, taken alone; ``ClassHints.named``) or a
    builtin one (``self:builtins.dict``: a literal, ``dict[str, int]``);
    ``(class, ".attr")`` for an attribute of a method's own receiver (``own``) that the class's
    methods bind one way only (``self.conn = Connection()``). A name bound otherwise too (``x =
    None``, a loop variable, an untyped parameter) is left out. ``(MODULE, name)`` for a global
    bound so at top level and nowhere else (not by ``global name`` in a function, nor as a name
    of ``top``: a top-level def, class or import), or annotated there (``annotated``,
    ``module_annotations``: the declared class wins over every binding of the name); then ``""``
    for each scope that binds the name itself, which hides the global there — not a function
    that declares it ``global``, whose name is the module's."""
    declared = (
        {(scope, name) for scope, name, cls in bindings if cls is GLOBAL and name in annotated} if annotated else ()
    )
    kinds: dict[tuple[str, str], str | None] = {}
    for scope, name, cls in bindings:
        if cls is GLOBAL:  # the object ``bind`` gives (no class's name is this string anyway)
            cls = None  # `global name`: bound elsewhere too, of no class here
        if declared and (scope, name) in declared:
            continue  # an annotated global: the module's name, its annotation types it
        head, dot, attr = name.partition(".")
        if dot:
            receiver = own.get(scope)
            if receiver is None or receiver[0] != head:
                continue
            key = (scope.rpartition(".")[0], "." + attr)
        else:
            key = (scope, name)
        if kinds.setdefault(key, cls) != cls:
            kinds[key] = None
    for name, cls in annotated.items():
        kinds[(MODULE, name)] = cls
    found: dict[tuple[str, str], str] = {}
    for key, cls in kinds.items():
        hint = hints.named(cls) if cls is not None else None
        if hint is not None and (key[0] != MODULE or key[1] not in top):
            found[key] = hint
    typed_globals = {name for scope, name in found if scope == MODULE}
    if typed_globals:
        for key in kinds:
            if key[0] != MODULE and key[1] in typed_globals and key not in found:
                found[key] = ""
    return found


def class_chain(qualname: str, classes: dict, imports: Imports, chain: list[str]) -> list[str]:
    """``qualname`` (``.`` and its name in the file), then its bases, depth first: those of the
    file likewise, followed to their own bases; an imported one by the dotted name it was
    imported as (``from .base import Base`` or ``models.Model``: one level, the file does not
    know its bases; resolution follows them, ``graph.bases``). Bases the file cannot name
    (builtins, ``Generic[T]``'s ``T``, a call) are left out."""
    chain.append("." + qualname)
    for base in classes[qualname].bases:
        while base.__class__ is ast.Subscript:  # Generic[T], Base[int]
            base = base.value
        dotted = []
        while base.__class__ is ast.Attribute:
            dotted.append(base.attr)
            base = base.value
        if base.__class__ is not ast.Name:
            continue
        name = base.id
        if not dotted and name in classes and "." + name not in chain:
            class_chain(name, classes, imports, chain)
        elif name in imports.names or name in imports.modules:
            first = ".".join(imports.names[name]) if name in imports.names else imports.modules[name]
            named = ".".join([first, *reversed(dotted)])
            if named not in chain:
                chain.append(named)
    return chain


def bases_refs(hints: ClassHints) -> list[Ref]:
    """A ``BASES`` reference for each class with a base the file can name: its short name, and
    its classes (``class_chain``) as its hint."""
    refs = []
    for qualname, node in hints.classes.items():
        if not node.bases:
            continue
        hint = hints.of(qualname)
        if " " in hint:
            short = qualname.rpartition(".")[2]
            refs.append(Ref(BASES, BASES, short, node.lineno, qualname, hint[len(SELF_HINT) :]))
    return refs
