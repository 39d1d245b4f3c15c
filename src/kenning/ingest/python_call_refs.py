"""A Python file's calls as references: the calls the walk of ``python_relations`` recorded
(``CallRecord``), with the hint each gets from what the file says of its receiver (its own class,
a typed local or attribute, an imported module, an object made in place), and the functions
handed over as arguments (``path("about/", views.about)``), which are calls of them too."""

from __future__ import annotations

import ast
from collections.abc import Callable
from operator import itemgetter

from .python_imports import Imports
from .python_locals import MODULE
from .relations import SELF_HINT, Ref, add_call

SUPER = "super()"  # what ``super().save()`` is called on, as a CallRecord names it
# What a call's result is called on (``Client(x).send()``, ``f().g()``): ``RESULT`` and the name
# called (``()Client``, ``()http.Client``, ``()f``; alone when the callee is no dotted name, ``f()().g()``):
# an object of that class when the name is one (``ClassHints.named``), else a result of a type unsaid.
RESULT = "()"
# A call of a name or an attribute, as the walk meets it (the node's fields read while the node
# is at hand, not again after the sort): line, column, scope, name called, whether an attribute,
# and the name the attribute is taken from (``os`` in ``os.path.join()``; ``SUPER`` for
# ``super().save()``; ``()f`` for ``f().g()`` (``RESULT``); ``self.conn`` for ``self.conn.close()``,
# ``os.path`` for ``os.path.join()``; None for ``x[0].g()``). Calls of anything else (``f()()``)
# give no reference and are not recorded.
CallRecord = tuple[int, int, str | None, str, bool, str | None]
POSITION = itemgetter(0, 1)


def call_refs(
    calls: list[CallRecord],
    builtin: frozenset[str],
    imports: Imports,
    receivers: dict[str, tuple[str, str]],
    typed: dict[tuple[str, str], str],
    local: set[tuple[str, str]],
    hiding: set[tuple[str, str]],
    class_hint: Callable[[str], str | None],
) -> list[Ref]:
    """One ``calls`` reference per name called in a scope, in the order of the source (``calls``
    is sorted in place; the walk meets a call before the calls inside it, and the sort is stable);
    none for a builtin, nor for a name the function binds itself (``local``: a nested function,
    a parameter). A call on the method's own receiver (``self.save()``) is one apart, its
    hint naming the class (``python_classes.receivers``); on ``super()``, one apart too, naming
    the bases alone (none the file can name: an attribute call as any); on a typed local or an
    attribute of the own receiver typed in the class (``typed``: ``client.send()``,
    ``self.conn.close()``) or on an object made in place (``class_hint``: ``Client().send()``), one
    apart, naming its class as a self call's hint does; on another call's result
    (``Other.builder().build()``), a guess (``heuristic``); through an
    imported module (``app.greet.greet()``, ``os.path.join()``), one per module, unless the
    function binds that name itself (``hiding``: ``store = open_store(); store.save()`` after
    ``from app import store``, the local, not the module; not a parameter of a function nested
    in it, which hides the module in that function only, while ``local`` spans both)."""
    names, testing = imports.names, imports.testing
    refs: list[Ref] = []
    seen: dict[tuple[str | None, str, str | None], int] = {}  # -> its reference's index in refs (``add_call``)
    make = Ref._make
    calls.sort(key=POSITION)
    for line, _, scope, name, qualified, named in calls:
        link = "extracted"
        if named is not None and named.startswith(RESULT):  # on an object made in place (``Client().send()``)
            hint = class_hint(named[len(RESULT) :])  # its class's method; on another result
            if hint is None:  # (``Other.builder().build()``): a guess at best (``graph.narrow``)
                link = "heuristic"
        elif qualified:
            hint = _typed(typed, receivers, scope, named) if typed and named is not None else None
            if hint is None and named is not None and (scope, named.partition(".")[0]) not in hiding:
                hint = _module_hint(imports, named)  # not through a local hiding the import
            if scope is not None and hint is None and named is not None:
                receiver = receivers.get(scope)
                if receiver is not None and receiver[0] == named:
                    hint = receiver[1]
                elif receiver is not None and named == SUPER:
                    bases = receiver[1].split(" ", 1)[1:]  # the class itself left out
                    hint = SELF_HINT + bases[0] if bases else None
        elif name in builtin or (scope, name) in local:
            continue
        else:
            hint, name = names.get(name, (None, name))
        key = (scope, name, hint)  # a self call, a typed receiver or each module apart
        # From a test, the same reference also gives the tested_by edge: one row, not two.
        add_call(refs, seen, key, make(("calls", "symbol", name, line, scope, hint, qualified, False, link, testing)))
    return refs


def _typed(
    typed: dict[tuple[str, str], str], receivers: dict[str, tuple[str, str]], scope: str | None, named: str
) -> str | None:
    """The hint of a call on ``named`` in ``scope`` when it is a typed local (``client``), a
    typed global the scope does not bind (``app``; ``MODULE``), or a typed attribute of the
    method's own receiver (``self.conn``); else None."""
    head, dot, attr = named.partition(".")
    if not dot:
        hint = typed.get((MODULE if scope is None else scope, named))
        if hint is None and scope is not None:
            hint = typed.get((MODULE, named))
        return hint or None  # "": a local hiding a typed global
    if scope is None:
        return None
    receiver = receivers.get(scope)
    if receiver is None or receiver[0] != head:
        return None
    return typed.get((scope.rpartition(".")[0], "." + attr))


def handed_functions(
    handed: list[tuple[str | None, ast.expr]],
    named: set[str],
    modules: dict[str, str],
    local: set[tuple[str, str]],
    hiding: set[tuple[str, str]],
) -> list[CallRecord]:
    """The names handed over as arguments that stand for functions, as their calls: one of
    ``named``, the file's own (its module-level ``def``s) and those a relative import binds (``from
    .views import about``: the project's, where an absolute one may bind any object, ``from django.db
    import connection``), not a name the function binds itself; ``views.about`` through a module
    the file imports (``modules``). A capitalised name is a class or a constant handed over as a
    value, not called (``isinstance``'s, Django's ``model=Article``)."""
    found: list[CallRecord] = []
    for scope, arg in handed:
        if arg.__class__ is ast.Name:
            name = arg.id
            if name in named and name[:1].islower() and (scope, name) not in local:
                found.append((arg.lineno, arg.col_offset, scope, name, False, None))
        elif arg.__class__ is ast.Attribute:
            owner = arg.value
            if owner.__class__ is not ast.Name or owner.id not in modules or (scope, owner.id) in hiding:
                continue
            if arg.attr[:1].islower():
                found.append((arg.lineno, arg.col_offset, scope, arg.attr, True, owner.id))
    return found


def _module_hint(imports: Imports, named: str) -> str | None:
    """The dotted name a call's receiver stands for when the file imported it: ``g`` after
    ``import app.greet as g`` (``app.greet``), ``greet`` after ``from app import greet``; and
    through a module a plain ``import`` bound, the attributes after it (``app.greet.Greeter``
    for ``app.greet.Greeter.make()`` after ``import app.greet`` or ``import app``). A name a
    ``from`` import bound may be any object (``from flask import current_app``): its attributes
    are not followed. None: the receiver is not imported."""
    hint = imports.modules.get(named)
    if hint is not None or "." not in named:
        return hint
    head, _, rest = named.partition(".")
    module = imports.modules.get(head)
    if module is None or head in imports.names:
        return None
    return f"{module}.{rest}"
