"""Where the cockpit may listen. Loopback only, until scoped tokens exist.

``check_bind`` is the one place that decides: the default host is loopback; any other
address must be named explicitly with ``--host`` and then needs an access token. Token
verification plugs in here (``token`` is the value the caller presented); until scoped
tokens land, a non-loopback address is refused with ``TokenRequired``.
"""

from __future__ import annotations

import ipaddress

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


def check_bind(host: str, *, explicit: bool, token: str | None = None) -> None:
    """Refuse to listen on ``host`` unless it is loopback; a non-loopback address must be
    given explicitly and must come with a token (not available yet: always refused)."""
    if is_loopback(host):
        return
    if not explicit:
        raise TokenRequired(
            f"refusing to listen on {host}: only loopback is served by default",
            hint=f"pass --host {host} explicitly (a token is then required)",
        )
    raise TokenRequired(
        f"refusing to listen on {host}: a non-loopback address requires an access token, "
        "and scoped tokens are not available in this version",
        hint=f"serve on loopback (--host {DEFAULT_HOST}, the default) and reach it through an SSH tunnel",
    )
