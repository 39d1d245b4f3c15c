"""A project as the core sees it: its root directory and its settings (plain values, no I/O).

Reading ``.kenning/config.toml`` and the environment is ``config``'s job, done by the
interfaces; everything below them receives a ``Project``.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from kenning.errors import UsageError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

STATE_DIR = ".kenning"
DB_NAME = "kenning.db"
GITIGNORE = """\
# kenning's database and caches are rebuilt by `kenning sync`; config.toml and ledger.jsonl are meant to be committed.
*.db
*.db-wal
*.db-shm
*.db-journal
cache/
sync.lock
"""
CONFIG_NAME = "config.toml"
DEFAULT_MAX_FILE_BYTES = 1_000_000
# The hint of every error in a project's config.toml: the file is the fix, not a command's --help.
CONFIG_HINT = "fix .kenning/config.toml (docs/cli.md lists every key)"
_NAME = re.compile(r"[A-Za-z0-9._-]{1,64}")  # a project name, as citations kn://<name>/<id> carry it


def check_name(name: object, where: Path | str = "config", *, new: bool = False) -> str:
    """``name`` when it can name a project; else ``UsageError`` naming ``where`` it came from.
    ``new``: a name being given (init, rename) may not begin with '-' (a command line would read
    it as an option: `kenning projects rename -x y`) or '.'; a config already holding one loads."""
    hint = CONFIG_HINT if isinstance(where, Path) else None  # read from a file: the file is the fix
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise UsageError(f"{where}: `name` must be 1-64 characters of letters, digits, . _ -", hint=hint)
    if new and name[0] in "-.":
        raise UsageError(f"{where}: `name` {name!r} must begin with a letter, a digit or _", hint=hint)
    return name


@dataclass(frozen=True)
class ProjectConfig:
    """The settings of ``.kenning/config.toml``."""

    name: str
    confidential: bool = False
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    store: str | None = None  # a postgresql:// URL: the level-2 store (KENNING_DATABASE_URL overrides it)
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Project:
    """A project: its root directory and its settings."""

    root: Path
    config: ProjectConfig

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def state_dir(self) -> Path:
        return self.root / STATE_DIR

    @property
    def db_path(self) -> Path:
        return self.state_dir / DB_NAME


def keep_state_out_of_git(state: Path, *, create: bool = True) -> None:
    """Write ``state``'s ``.gitignore`` (``GITIGNORE``; with ``create`` only), or add to the one an
    earlier kenning wrote (its first line is ``GITIGNORE``'s) the patterns it lacks: ``*.db-journal``
    came with the first sync's rollback journal, ``sync.lock`` before it. A file someone wrote
    otherwise is theirs; one that cannot be read or written is left as it is."""
    gitignore = state / ".gitignore"
    if not gitignore.exists():
        if create:
            gitignore.write_text(GITIGNORE, encoding="utf-8")
        return
    try:
        text = gitignore.read_text(encoding="utf-8")
    except (OSError, UnicodeError):
        return
    lines = text.splitlines()
    if not lines or lines[0] != GITIGNORE.splitlines()[0]:
        return
    missing = [line for line in GITIGNORE.splitlines()[1:] if line not in lines]
    if missing:
        ending = "" if text.endswith("\n") else "\n"
        with contextlib.suppress(OSError):  # a read-only file: the patterns stay missing, nothing else
            gitignore.write_text(text + ending + "\n".join(missing) + "\n", encoding="utf-8")
