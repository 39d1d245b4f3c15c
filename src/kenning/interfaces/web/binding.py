"""Where the cockpit may listen, and whether it then asks for a token.

``check_bind`` is the one place that decides: the default host is loopback, served as before
without a token. Any other address must be named explicitly with ``--host``, and is served only
when an active token bound to the served project exists in ``KENNING_HOME`` (``kenning token
create``); every request is then authenticated (``web/gate.py``).
"""

from __future__ import annotations

import ipaddress
from datetime import datetime
from pathlib import Path

from kenning.auth.tokens import active_for
from kenning.errors import TokenRequired

DEFAULT_HOST = "127.0.0.1"
LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    if host.lower() in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # a host name other than localhost: it may resolve anywhere


def check_bind(
    host: str,
    *,
    explicit: bool,
    home: Path | None = None,
    project: str = "",
    now: datetime | None = None,
    directory: str | None = None,
) -> bool:
    """Whether serving ``host`` needs a token (True) or not (loopback: False); refused with
    ``TokenRequired`` when a non-loopback address is not given explicitly, or when no active
    token in ``home`` is bound to ``project``. The hint's command names the project by
    ``directory`` (as the caller would type it: ``.`` or its path), the form docs/cli.md leads
    with for `token create --project`; by its name when no directory is given."""
    if is_loopback(host):
        return False
    if not explicit:
        raise TokenRequired(
            f"refusing to listen on {host}: only loopback is served by default",
            hint=f"pass --host {host} explicitly (an access token is then required)",
        )
    create = f"kenning token create --scope memory:read --project {directory or project or 'PATH'}"
    if home is None or now is None:
        raise TokenRequired(f"refusing to listen on {host}: a non-loopback address requires an access token")
    if not active_for(home, project, now=now):
        raise TokenRequired(
            f"refusing to listen on {host}: a non-loopback address requires an access token, and no "
            f"active token is bound to project {project!r} — create one with `kenning token create`",
            hint=f"`{create}` (add memory:write to confirm, supersede or forget), or serve on loopback",
        )
    return True
