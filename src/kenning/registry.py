"""The machine registry: which projects this machine knows, in ``$KENNING_HOME/projects.json``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from kenning.errors import UsageError
from kenning.files import write_atomic

REGISTRY_NAME = "projects.json"


@dataclass(frozen=True)
class Entry:
    name: str
    path: Path


def _file(home: Path) -> Path:
    return home / REGISTRY_NAME


def list_entries(home: Path) -> list[Entry]:
    path = _file(home)
    if not path.exists():
        return []
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return [Entry(name=p["name"], path=Path(p["path"])) for p in raw.get("projects", [])]
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        raise UsageError(f"{path}: unreadable registry ({exc}); fix or delete it") from exc


def _write(home: Path, entries: list[Entry]) -> None:
    data = {"projects": [{"name": e.name, "path": str(e.path)} for e in sorted(entries, key=lambda e: e.name)]}
    write_atomic(str(_file(home)), (json.dumps(data, indent=2) + "\n").encode("utf-8"))


def register(home: Path, name: str, root: Path) -> bool:
    """Add or update a project. Returns True when the registry changed.

    A name already used by another path is refused: citations ``kn://<name>/<id>`` must
    stay unambiguous on this machine.
    """
    root = root.resolve()
    entries = list_entries(home)
    for entry in entries:
        if entry.name == name:
            if entry.path == root:
                return False
            if entry.path.exists() and (entry.path / ".kenning").is_dir():
                raise UsageError(
                    f"project name {name!r} is already used by {entry.path}",
                    hint="choose another with `kenning init --name NAME`, or edit .kenning/config.toml",
                )
    kept = [e for e in entries if e.name != name and e.path != root]
    _write(home, [*kept, Entry(name=name, path=root)])
    return True


def unregister(home: Path, name: str) -> bool:
    entries = list_entries(home)
    kept = [e for e in entries if e.name != name]
    if len(kept) == len(entries):
        return False
    _write(home, kept)
    return True
