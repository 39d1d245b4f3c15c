"""The machine registry: which projects this machine knows, in ``$KENNING_HOME/projects.json``."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from kenning.errors import NotFound, UsageError
from kenning.files import write_atomic
from kenning.project import CONFIG_NAME, STATE_DIR, check_name

REGISTRY_NAME = "projects.json"
# The transverse memory answers as this name in cross-project answers (kn://global/<id>);
# no registered project may take it.
GLOBAL_NAME = "global"


@dataclass(frozen=True)
class Entry:
    name: str
    path: Path


def _file(home: Path) -> Path:
    return home / REGISTRY_NAME


def check_home(home: Path) -> None:
    """Refuse a ``KENNING_HOME`` that is a file, or that cannot be made because a folder above
    it is a file (the one check: `kenning init`, the registry, the transverse memory, the tokens
    and the audit log, the servers as they start), before anything reads or writes under it."""
    hint = "set KENNING_HOME to a folder (or unset it: the default is ~/.local/share/kenning)"
    if home.exists():
        if not home.is_dir():
            raise UsageError(
                f"KENNING_HOME {home} is a file, not a folder: the registry of projects, the transverse "
                "memory and the tokens cannot be kept there",
                hint=hint,
            )
        return
    above = next((folder for folder in home.parents if folder.exists()), None)
    if above is not None and not above.is_dir():
        raise UsageError(f"KENNING_HOME {home} cannot be made: {above} is a file, not a folder", hint=hint)


def list_entries(home: Path) -> list[Entry]:
    check_home(home)
    path = _file(home)
    if not path.exists():
        return []
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
        return [Entry(name=p["name"], path=Path(p["path"])) for p in raw.get("projects", [])]
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        raise UsageError(
            f"{path}: unreadable registry ({exc})",
            hint="fix or delete it (`kenning init` or `kenning projects add PATH` registers projects again)",
        ) from exc


def require(home: Path, names: list[str]) -> None:
    """``NotFound`` naming every one of ``names`` the registry does not hold."""
    known = {entry.name for entry in list_entries(home)}
    unknown = [name for name in dict.fromkeys(names) if name not in known]
    if unknown:
        listed = ", ".join(repr(name) for name in unknown)
        raise NotFound(
            f"no project named {listed} in the registry ({_file(home)})",
            hint="see `kenning projects list`; register a project with `kenning init` or `kenning projects add PATH`",
        )


def _write(home: Path, entries: list[Entry]) -> None:
    check_home(home)
    data = {"projects": [{"name": e.name, "path": str(e.path)} for e in sorted(entries, key=lambda e: e.name)]}
    write_atomic(str(_file(home)), (json.dumps(data, indent=2) + "\n").encode("utf-8"))


def register(home: Path, name: str, root: Path) -> bool:
    """Add or update a project. Returns True when the registry changed.

    A name already used by another path is refused: citations ``kn://<name>/<id>`` must
    stay unambiguous on this machine.
    """
    _check_name(name)
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


def _check_name(name: str) -> None:
    if name == GLOBAL_NAME:
        raise UsageError(
            f"the project name {GLOBAL_NAME!r} is reserved for the transverse memory",
            hint='choose another with `name = "…"` in .kenning/config.toml',
        )


def rename(home: Path, old: str, new: str) -> Entry:
    """Give a registered project another name in the registry and in its ``config.toml``
    (citations ``kn://<name>/<id>`` follow the config). Refused when ``new`` is taken."""
    _check_name(new)
    check_name(new, new=True)
    entries = list_entries(home)
    found = next((e for e in entries if e.name == old), None)
    if found is None:
        raise NotFound(f"no project named {old!r} in the registry", hint="see `kenning projects list`")
    if any(e.name == new for e in entries):
        raise UsageError(
            f"project name {new!r} is already registered",
            hint="choose a name `kenning projects list` does not show (citations kn://<name>/<id> must stay unique)",
        )
    config = found.path / STATE_DIR / CONFIG_NAME
    if config.is_file():
        _rename_in_config(config, new)
    renamed = Entry(name=new, path=found.path)
    _write(home, [*(e for e in entries if e.name != old), renamed])
    return renamed


def _rename_in_config(config: Path, new: str) -> None:
    text = config.read_text(encoding="utf-8")
    line = f"name = {json.dumps(new)}"
    updated, count = re.subn(r"(?m)^name\s*=.*$", line, text, count=1)
    if not count:
        updated = f"{line}\n{text}"
    write_atomic(str(config), updated.encode("utf-8"))


def unregister(home: Path, name: str) -> bool:
    entries = list_entries(home)
    kept = [e for e in entries if e.name != name]
    if len(kept) == len(entries):
        return False
    _write(home, kept)
    return True
