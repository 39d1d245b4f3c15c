"""Writing a file so that readers see the old bytes or the new, never half of them.

Only ``os``: the session-start hook imports this on every agent start.
"""

from __future__ import annotations

import os


def write_atomic(path: str, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``path``, then rename it over ``path``."""
    folder, name = os.path.split(path)
    os.makedirs(folder, exist_ok=True)
    tmp = os.path.join(folder, f".{name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def inside_root(root_real: str, path: str) -> str | None:
    """``path`` with every link resolved, when that stays inside ``root_real`` (itself a
    ``realpath``); None when it leaves the root.

    The one root-and-link rule: the sync skips such a file (``link_outside_root``), and
    everything that reads a file for an answer (the pack's context, freshness checks)
    treats it as unreadable, so no byte from outside the project is read or served.
    """
    real = os.path.realpath(path)
    if real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep):
        return real
    return None
