"""Named tuples sent between processes as columns of plain values (the parsing pool's results:
``ingest.read.Parsed``, ``ingest.relations.Relations``).

A named tuple pickles through a Python-level reduce (``copyreg.__newobj__`` with its
``__getnewargs__``) and is made again by its Python ``__new__``: one Python call each way per
object, and a memo entry per tuple. Columns — one plain tuple per field, of plain values —
pickle natively; ``rebuilt`` makes the same named tuples from them with ``tuple.__new__``
(no Python frame), equal to the originals and of the same type.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any, TypeVar

T = TypeVar("T", bound=tuple[Any, ...])


def columns(items: Iterable[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The fields of ``items`` (named tuples of one type), one tuple per field."""
    return list(zip(*items, strict=True))


def rebuilt(cls: type[T], cols: list[tuple[Any, ...]]) -> Iterable[T]:
    """The ``cls`` tuples whose ``columns`` these are, in order."""
    return map(partial(tuple.__new__, cls), zip(*cols, strict=True))
