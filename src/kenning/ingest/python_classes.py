"""The classes a call on a receiver reaches: a method's own receiver (``self``, ``cls``) and the
classes it stands for — the enclosing class, then the bases the file can name — written as the
hint of the call (``SELF_HINT``)."""

from __future__ import annotations

import ast

from .python_imports import Imports
from .relations import SELF_HINT


def receivers(symbols: list, imports: Imports) -> dict[str, tuple[str, str]]:
    """Each method's (name of its first parameter, the hint of a call on it): ``self`` and
    ``self:.Model app.base.Base`` for ``def save(self)`` in ``class Model(Base)`` after ``from
    app.base import Base`` (``SELF_HINT``). None for a static method, whose first parameter is
    no receiver."""
    classes = {qualname: node for node, qualname, kind in symbols if kind == "class"}
    hints: dict[str, str] = {}
    found: dict[str, tuple[str, str]] = {}
    for node, qualname, kind in symbols:
        if kind != "method":
            continue
        params = node.args.posonlyargs or node.args.args
        if not params or any(d.__class__ is ast.Name and d.id == "staticmethod" for d in node.decorator_list):
            continue
        owner = qualname.rpartition(".")[0]
        hint = hints.get(owner)
        if hint is None:
            chain = class_chain(owner, classes, imports, [])
            hint = hints[owner] = SELF_HINT + " ".join(chain)
        found[qualname] = (params[0].arg, hint)
    return found


def class_chain(qualname: str, classes: dict, imports: Imports, chain: list[str]) -> list[str]:
    """``qualname`` (``.`` and its name in the file), then its bases, depth first: those of the
    file likewise, followed to their own bases; an imported one by the dotted name it was
    imported as (``from .base import Base`` or ``models.Model``: one level, the file does not
    know its bases). Bases the file cannot name (builtins, ``Generic[T]``'s ``T``, a call) are
    left out."""
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
