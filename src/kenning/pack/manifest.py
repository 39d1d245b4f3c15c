"""The pack on disk: ``.kenning/cache/pack.md`` (the text) and ``pack.json`` (the manifest).

Both live in the gitignored cache: they are rebuilt by ``kenning pack build``. This module
imports nothing heavy, not even ``pathlib`` (paths are ``str`` or ``os.PathLike``): the
session-start hook reads it on every agent start.
"""

from __future__ import annotations

import json
import os

from kenning.files import write_atomic

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (hook start-up time)
if TYPE_CHECKING:
    from typing import Any

    StrPath = str | os.PathLike[str]

MANIFEST_SCHEMA = "kenning.pack/v1"
CACHE_DIR = "cache"
PACK_TEXT = "pack.md"
PACK_MANIFEST = "pack.json"
SESSION_STATE = "session.json"


def cache_dir(state_dir: StrPath) -> str:
    return os.path.join(state_dir, CACHE_DIR)


def read_manifest(state_dir: StrPath) -> dict[str, Any] | None:
    """The manifest, or None when no pack was built."""
    path = os.path.join(cache_dir(state_dir), PACK_MANIFEST)
    raw = _read(path)
    if raw is None:
        return None
    data = json.loads(raw)
    if not isinstance(data, dict) or data.get("schema") != MANIFEST_SCHEMA:
        raise ValueError(f"{path} is not a {MANIFEST_SCHEMA} manifest")
    return data


def read_text(state_dir: StrPath) -> str | None:
    return _read(os.path.join(cache_dir(state_dir), PACK_TEXT))


def write_pack(state_dir: StrPath, text: str, manifest: dict[str, Any]) -> None:
    """Text first, manifest last: a manifest always describes a complete pack."""
    folder = cache_dir(state_dir)
    write_atomic(os.path.join(folder, PACK_TEXT), text.encode("utf-8"))
    write_atomic(os.path.join(folder, PACK_MANIFEST), dump(manifest))


def read_session(state_dir: StrPath) -> dict[str, Any] | None:
    try:
        data = json.loads(_read(os.path.join(cache_dir(state_dir), SESSION_STATE)) or "null")
    except json.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


def write_session(state_dir: StrPath, state: dict[str, Any]) -> None:
    write_atomic(os.path.join(cache_dir(state_dir), SESSION_STATE), dump(state))


def dump(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")


def _read(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8")
    except FileNotFoundError:
        return None
