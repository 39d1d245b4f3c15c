"""Guided-search cursors: short opaque tokens for search state kept in the store.

A token is ``c`` + 9 random base32 characters + 6 characters of an HMAC-SHA256 of them keyed
by the store's own secret (store/secrets.py): a modified token is refused before the row is
read, and nobody without the store can make a valid one (30 bits of tag: one blind guess in
about a billion passes, and it must still name a live row). The
row binds the step reached, the query, the options, the scope (project and filters), the
ids disclosed so far and a membership digest of those facts (id, content, lifecycle): if any
of them changed, the cursor is refused. Cursors expire 15 minutes after they are issued;
expired rows are kept a day so that the refusal can say "expired" rather than "unknown".
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from kenning.clock import iso, parse_iso
from kenning.errors import (  # the guided flow's refusals live with every typed error
    CursorExpired,
    CursorTampered,
    CursorUnknown,
    ResultsChanged,
    SearchEnded,
)
from kenning.store import cursors as cursor_store
from kenning.store import secrets as store_secrets
from kenning.store.db import transaction
from kenning.store.handle import Connection

TTL = timedelta(minutes=15)
KEEP_EXPIRED = timedelta(days=1)
_TOKEN = re.compile(r"^c[a-z2-7]{15}$")
SECRET = "cursor"
_RESTART = 'restart with mem_search(query=..., mode="guided")'


@dataclass(frozen=True)
class Cursor:
    token: str
    step: int  # the step that issued it: 1 (index) or 2 (context)
    project: str
    query: str
    options: dict[str, Any]
    scope: dict[str, Any]
    disclosed: tuple[int, ...]
    membership: str
    expires: str


def _check(key: bytes, body: str) -> str:
    digest = hmac.new(key, b"kenning-cursor:" + body.encode(), hashlib.sha256).digest()
    return base64.b32encode(digest).decode().lower()[:6]


def new_token(key: bytes) -> str:
    body = base64.b32encode(secrets.token_bytes(6)).decode().lower()[:9]
    return "c" + body + _check(key, body)


def _authentic(conn: Connection, text: str) -> bool:
    if not _TOKEN.match(text):
        return False
    key = store_secrets.get(conn, SECRET)
    return key is not None and hmac.compare_digest(_check(key, text[1:10]), text[10:])


def membership(conn: Connection, ids: tuple[int, ...] | list[int]) -> str:
    """Digest of what the disclosed ids are now: their content and lifecycle."""
    digest = hashlib.sha256()
    rows = cursor_store.fact_states(conn, ids)
    for fact_id in sorted(set(ids)):
        digest.update(f"{fact_id}:{rows.get(fact_id, ('gone', 'gone'))}\n".encode())
    return digest.hexdigest()[:32]


def issue(
    conn: Connection,
    *,
    step: int,
    project: str,
    query: str,
    options: dict[str, Any],
    scope: dict[str, Any],
    disclosed: list[int],
    now: datetime,
) -> str:
    state = {"options": options, "scope": scope}
    with transaction(conn):
        token = new_token(store_secrets.get_or_create(conn, SECRET))
        cursor_store.purge_expired(conn, iso(now - KEEP_EXPIRED))
        cursor_store.insert(
            conn,
            cursor_store.CursorRow(
                token,
                step,
                project,
                query,
                json.dumps(state, sort_keys=True),
                json.dumps(disclosed),
                membership(conn, disclosed),
                iso(now),
                iso(now + TTL),
            ),
        )
    return token


def load(conn: Connection, token: str, *, now: datetime) -> Cursor:
    text = token.strip()
    if not _authentic(conn, text):
        raise CursorTampered(
            "this continuation was modified: it is not a cursor this server issued",
            hint="copy the cursor from the `Continue with:` line unchanged, or " + _RESTART,
        )
    row = cursor_store.get(conn, text)
    if row is None:
        raise CursorUnknown(
            "this continuation is unknown to this project's store (never issued here, or purged)", hint=_RESTART
        )
    if parse_iso(row.expires) <= now:
        raise CursorExpired(
            f"this continuation expired at {row.expires} (cursors last 15 minutes)",
            hint=_RESTART.replace("...", json.dumps(row.query)),
        )
    if row.closed:
        raise SearchEnded("this search was ended (selectedIds: [])", hint=_RESTART)
    state = json.loads(row.state)
    cursor = Cursor(
        text,
        row.step,
        row.project,
        row.query,
        state["options"],
        state["scope"],
        tuple(json.loads(row.disclosed)),
        row.membership,
        row.expires,
    )
    if membership(conn, cursor.disclosed) != cursor.membership:
        raise ResultsChanged(
            "facts disclosed by this search changed since (edited, superseded or forgotten)",
            hint=_RESTART.replace("...", json.dumps(cursor.query)),
        )
    return cursor


def close(conn: Connection, token: str) -> None:
    with transaction(conn):
        cursor_store.close(conn, token)
