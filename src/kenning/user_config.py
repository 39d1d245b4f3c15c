"""The user's machine-wide settings: ``$KENNING_HOME/config.toml``.

One key today: ``cross_project = true`` lets an MCP server started for one project read
the other registered projects (``memory_ask(scope="all")``, ``project: "*"``), as
``kenning mcp --cross-project`` does for one server. Unknown keys and non-boolean values
are refused: a misspelt switch must never be silently off (or on).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from kenning.errors import UsageError

USER_CONFIG = "config.toml"
KNOWN = frozenset({"cross_project"})
_HINT = "fix KENNING_HOME/config.toml (its one key: cross_project = true or false)"


def user_config_path(home: Path) -> Path:
    return home / USER_CONFIG


def cross_project_enabled(home: Path) -> bool:
    """Whether the user's config says ``cross_project = true`` (absent file: False)."""
    path = user_config_path(home)
    if not path.is_file():
        return False
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"{path}: invalid TOML: {exc}", hint=_HINT) from exc
    unknown = sorted(set(raw) - KNOWN)
    if unknown:
        raise UsageError(f"{path}: unknown key(s) {', '.join(unknown)}", hint="known keys: cross_project")
    value = raw.get("cross_project", False)
    if not isinstance(value, bool):
        raise UsageError(f"{path}: `cross_project` must be true or false", hint=_HINT)
    return value
