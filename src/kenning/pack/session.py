"""What the session-start hook says: the pack, and one status line.

The status line is "project core: N decisions, M conventions, fingerprint …", preceded by
what changed since the previous session start ("2 decisions changed: A, B"), or the
not-built line. Reading is cheap: two small files and, to warn about a pack older than its
store, one read-only store query. No store migration, no markdown, no MCP is imported.
"""

from __future__ import annotations

import os

from kenning.pack import manifest as files
from kenning.pack.fingerprint import short

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hook start-up time)
if TYPE_CHECKING:
    from typing import Any

    from kenning.pack.manifest import StrPath

NOT_BUILT = "project core not built — run `kenning pack build`"
STALE_NOTE = "the store changed since the pack was built — run `kenning pack build`"


class Start:
    """The status line, the pack text (None when not built) and what changed. A plain class:
    this module is on the hook's import path, where even ``dataclasses`` is worth sparing."""

    __slots__ = ("status", "pack", "changed")

    def __init__(self, status: str, pack: str | None, changed: tuple[str, ...] = ()) -> None:
        self.status, self.pack, self.changed = status, pack, changed


def session_start(
    state_dir: StrPath, db_path: StrPath | None = None, *, record: bool = True, server: tuple[str, str] | None = None
) -> Start:
    """Read the pack, compare with the previous session start, remember this one. ``server``:
    (URL, project name) of the PostgreSQL store that serves the project, whose counter is
    compared instead of the local file's."""
    manifest = files.read_manifest(state_dir)
    text = files.read_text(state_dir)
    if manifest is None or text is None:
        return Start(NOT_BUILT, None)
    previous = files.read_session(state_dir)
    changes = describe_changes(previous, manifest) if previous else []
    status = "; ".join([*changes, summary(manifest)])
    if (db_path is not None or server is not None) and _store_moved(db_path, manifest.get("store_state"), server):
        status += f" ({STALE_NOTE})"
    if record:
        try:  # noqa: SIM105 (contextlib is not imported on the session hook's fast path)
            files.write_session(state_dir, remembered(manifest))
        except OSError:
            pass  # a read-only checkout still gets its pack
    return Start(status, text, tuple(changes))


def summary(manifest: dict[str, Any]) -> str:
    decisions = [d for d in manifest.get("decisions", []) if d.get("included")]
    conventions = [c for c in manifest.get("conventions", []) if c.get("included")]
    omitted = manifest.get("omitted", {})
    left = (omitted.get("decisions", 0) or 0) + (omitted.get("conventions", 0) or 0)
    extra = f" ({left} more left out by the budget)" if left else ""
    return (
        f"project core: {_count(len(decisions), 'decision')}, {_count(len(conventions), 'convention')}, "
        f"fingerprint {short(manifest.get('fingerprint'))}{extra}"
    )


def _count(number: int, noun: str) -> str:
    """``1 decision``, ``0 decisions``, ``2 decisions``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def remembered(manifest: dict[str, Any]) -> dict[str, Any]:
    return {
        "fingerprint": manifest.get("fingerprint"),
        "decisions": {
            d["key"]: {"title": d["title"], "fingerprint": d["fingerprint"]} for d in manifest.get("decisions", [])
        },
        "conventions": {
            c["key"]: {"title": c["title"], "fingerprint": c["fingerprint"]} for c in manifest.get("conventions", [])
        },
        "context": (manifest.get("context") or {}).get("fingerprint"),
    }


def describe_changes(previous: dict[str, Any], manifest: dict[str, Any]) -> list[str]:
    """Plain phrases, decisions named, conventions counted; empty when nothing changed."""
    if previous.get("fingerprint") == manifest.get("fingerprint"):
        return []
    now = remembered(manifest)
    phrases = []
    for kind in ("decisions", "conventions"):
        before, after = previous.get(kind, {}) or {}, now[kind]
        changed = [
            after[k]["title"]
            for k in sorted(after)
            if k in before and before[k]["fingerprint"] != after[k]["fingerprint"]
        ]
        added = [after[k]["title"] for k in sorted(after) if k not in before]
        removed = [before[k]["title"] for k in sorted(before) if k not in after]
        singular = kind[:-1]
        for verb, titles in (("changed", changed), ("added", added), ("removed", removed)):
            if not titles:
                continue
            noun = singular if len(titles) == 1 else kind
            if kind == "decisions":
                phrases.append(f"{len(titles)} {noun} {verb}: " + ", ".join(titles))
            else:
                phrases.append(f"{len(titles)} {noun} {verb}")
    if previous.get("context") != now["context"]:
        phrases.append("project context changed")
    return phrases or ["project core changed"]


def _store_moved(db_path: StrPath | None, built_from: Any, server: tuple[str, str] | None) -> bool:
    if not built_from or (server is None and (db_path is None or not os.path.exists(db_path))):
        return False
    try:
        from kenning.store import version  # only when a store exists (hook start-up time)

        state = version.store_state_on_server(*server) if server else version.store_state_at(db_path or "")
    except Exception:  # the note is a courtesy; never fail a session start for it
        return False
    return state is not None and state != built_from
