"""Which projects an MCP call may read beyond its server's own.

A server is started for one project. Over stdio it reads the other registered projects
(``scope="all"``, ``project: "*"`` or a list of names) only when its start command says so
(``kenning mcp --cross-project``) or the user's config does (``cross_project = true`` in
``KENNING_HOME/config.toml``); otherwise the call is refused with ``CrossProjectOff``, which
names both switches. Over HTTP the caller's token decides: it reads the token's projects
(``ALLOWED_PROJECTS``), never the transverse memory. Confidential projects are never read,
whatever the switch.
"""

from __future__ import annotations

import re
from pathlib import Path

from kenning import registry
from kenning.config import kenning_home
from kenning.errors import CrossProjectOff, ValidationError
from kenning.interfaces.mcp.context import ALLOWED_PROJECTS, ServerContext
from kenning.registry import Entry
from kenning.user_config import cross_project_enabled, user_config_path

ALL = "*"
NAME = re.compile(r"[A-Za-z0-9._-]{1,64}")


def require_cross_project(ctx: ServerContext, home: Path) -> None:
    if ALLOWED_PROJECTS.get() is not None or ctx.cross_project or cross_project_enabled(home):
        return
    raise CrossProjectOff(
        f"this server reads project {ctx.project.name!r} only; reading the other registered projects is off",
        hint=f"restart it with `kenning mcp --cross-project`, or set `cross_project = true` in "
        f"{user_config_path(home)}",
    )


def cross_entries(ctx: ServerContext, names: list[str] | None = None) -> tuple[Path | None, list[Entry], list[str]]:
    """(KENNING_HOME when the transverse memory may be read, else None; the registered
    projects to read; the names asked for that are not registered): every project, or those
    ``names``, cut to the token's projects over HTTP; refused unless the switch is on."""
    home = kenning_home()
    require_cross_project(ctx, home)
    allowed = ALLOWED_PROJECTS.get()
    entries = [e for e in registry.list_entries(home) if allowed is None or e.name in allowed]
    glob = home if allowed is None and (names is None or registry.GLOBAL_NAME in names) else None
    if names is None:
        return glob, entries, []
    known = {e.name for e in entries}
    return glob, [e for e in entries if e.name in set(names)], sorted(set(names) - known - {registry.GLOBAL_NAME})


def requested(project: str | None, ctx: ServerContext) -> tuple[bool, list[str] | None]:
    """(whether the call reads beyond this server's project, the names asked for or None for
    every registered project). ``project`` is a name, ``*`` or names separated by commas."""
    if project is None or project == ctx.project.name:
        return False, None
    names = [n.strip() for n in project.split(",") if n.strip()]
    if ALL in names:
        return True, None
    bad = [n for n in names if not NAME.fullmatch(n)]
    if bad or not names:
        raise ValidationError(f"project must be a name, '*' or names separated by commas, not {project!r}")
    return True, names
