"""Bearer tokens for remote MCP: created once, stored only as a salted SHA-256 in
``KENNING_HOME/tokens.json`` (written atomically), checked in constant time.

A secret reads ``kn_<id>_<random>``: the id finds the record, the random part (32 bytes,
URL-safe base64) is hashed with the record's salt and compared with ``hmac.compare_digest``.
The secret carries 256 bits of entropy, so a salted hash is enough (no slow KDF needed).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from kenning import registry
from kenning.clock import iso, parse_iso
from kenning.errors import NotFound, Unauthorized, UsageError, ValidationError
from kenning.files import write_atomic

READ, WRITE = "memory:read", "memory:write"
SCOPES = (READ, WRITE)
FILE_NAME = "tokens.json"
_SECRET = re.compile(r"^kn_(?P<id>[a-f0-9]{8})_(?P<secret>[A-Za-z0-9_-]{20,100})$")
_NAME = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_DURATION = re.compile(r"^(?P<n>\d{1,5})(?P<unit>[hdw])$")
_UNITS = {"h": timedelta(hours=1), "d": timedelta(days=1), "w": timedelta(weeks=1)}


@dataclass(frozen=True)
class TokenRecord:
    id: str
    name: str
    scopes: tuple[str, ...]
    projects: tuple[str, ...]
    paths: tuple[str, ...]
    created: str
    expires: str | None
    revoked: str | None
    salt: str
    digest: str

    def public(self, now: datetime) -> dict[str, Any]:
        """What `kenning token list` shows: never the salt or the digest."""
        return {
            "id": self.id,
            "name": self.name,
            "scopes": list(self.scopes),
            "projects": list(self.projects),
            "paths": list(self.paths),
            "created": self.created,
            "expires": self.expires,
            "revoked": self.revoked,
            "state": self.state(now),
        }

    def state(self, now: datetime) -> str:
        if self.revoked:
            return "revoked"
        if self.expires and parse_iso(self.expires) <= now:
            return "expired"
        return "active"


def _file(home: Path) -> Path:
    return home / FILE_NAME


_DUMMY_SALT = "00" * 16  # an unknown id still costs one hash and one comparison
_cache: dict[str, tuple[tuple[int, int], dict[str, TokenRecord]]] = {}


def load(home: Path) -> dict[str, TokenRecord]:
    """Every record by id; re-read only when the file changed (a revocation is seen at once)."""
    path = _file(home)
    try:
        stat = path.stat()
    except FileNotFoundError:
        return {}
    except OSError as exc:  # a KENNING_HOME that is a file (the registry's one check), no access
        raise _unreadable(home, path, exc) from exc
    key = (stat.st_mtime_ns, stat.st_size)
    cached = _cache.get(str(path))
    if cached and cached[0] == key:
        return cached[1]
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _unreadable(home, path, exc) from exc
    try:
        raw = json.loads(data.decode("utf-8"))
        records = {
            r["id"]: TokenRecord(
                **{**r, "scopes": tuple(r["scopes"]), "projects": tuple(r["projects"]), "paths": tuple(r["paths"])}
            )
            for r in raw.get("tokens", [])
        }
    except (ValueError, KeyError, TypeError, AttributeError) as exc:  # JSONDecodeError and UnicodeDecodeError too
        raise UsageError(
            f"{path}: unreadable token file ({type(exc).__name__})",
            hint="restore it from a backup, or delete it (every token is then revoked) and run `kenning token create`",
        ) from exc
    _cache[str(path)] = (key, records)
    return records


def _unreadable(home: Path, path: Path, exc: OSError) -> UsageError:
    """The typed error for a token file the system refuses: ``registry.check_home``'s when
    KENNING_HOME is a file (raised from here), else the system's reason."""
    registry.check_home(home)
    return UsageError(
        f"{path}: the token file cannot be read ({exc.strerror or type(exc).__name__})",
        hint="make KENNING_HOME a folder this user can read and write, then retry",
    )


def _save(home: Path, records: dict[str, TokenRecord]) -> None:
    body = {"schema": "kenning.tokens/v1", "tokens": [asdict(r) for r in records.values()]}
    write_atomic(str(_file(home)), json.dumps(body, indent=2).encode())
    os.chmod(_file(home), 0o600)


def _digest(salt: str, secret: str) -> str:
    return hashlib.sha256(bytes.fromhex(salt) + secret.encode()).hexdigest()


def parse_expiry(text: str | None, now: datetime) -> str | None:
    if text is None or text == "never":
        return None
    match = _DURATION.match(text.strip())
    if not match or int(match["n"]) == 0:
        raise ValidationError(f"not a duration: {text!r}", hint="use e.g. 12h, 30d, 8w or never")
    return iso(now + int(match["n"]) * _UNITS[match["unit"]])


def create(
    home: Path,
    *,
    scopes: list[str],
    projects: list[str],
    paths: list[str],
    name: str | None,
    expires: str | None,
    now: datetime,
) -> tuple[TokenRecord, str]:
    """A new record and its secret (returned once, never stored). Every project must be in
    the machine registry of ``home`` (``NotFound`` otherwise, nothing written): a token bound to
    a mistyped name would open nothing, silently."""
    scopes = sorted({s.strip() for s in scopes if s.strip()})
    unknown = [s for s in scopes if s not in SCOPES]
    if unknown or not scopes:
        raise ValidationError(
            f"unknown scope(s): {', '.join(unknown) or '(none given)'}", hint=f"use {READ} and/or {WRITE}"
        )
    if not projects:
        raise ValidationError("a token needs at least one --project", hint="kenning token create --project PATH|NAME …")
    for project in projects:
        if not _NAME.match(project):
            raise ValidationError(f"not a project name: {project!r}")
    clean_paths = []
    for prefix in paths:
        p = prefix.strip().removeprefix("./")
        if not p or p in (".", "/") or p.startswith(("/", "\\")) or ".." in p.split("/"):
            raise ValidationError(f"not a relative path prefix: {prefix!r}", hint="e.g. --path docs/")
        clean_paths.append(p)
    registry.require(home, projects)
    records = dict(load(home))
    taken = {r.name for r in records.values()}
    label = name or next(
        f"token-{n}" for n in range(len(records) + 1, len(records) + len(taken) + 2) if f"token-{n}" not in taken
    )
    if not _NAME.match(label):
        raise ValidationError(f"not a token name: {label[:80]!r}", hint="letters, digits, . _ - (at most 64)")
    if label in taken:  # `token revoke NAME` must name one token
        raise ValidationError(
            f"a token is already named {label!r}", hint="choose another --name (kenning token list shows them)"
        )
    token_id = secrets.token_hex(4)
    while token_id in records:
        token_id = secrets.token_hex(4)
    secret, salt = secrets.token_urlsafe(32), secrets.token_hex(16)
    record = TokenRecord(
        id=token_id,
        name=label,
        scopes=tuple(scopes),
        projects=tuple(sorted(set(projects))),
        paths=tuple(sorted(set(clean_paths))),
        created=iso(now),
        expires=parse_expiry(expires, now),
        revoked=None,
        salt=salt,
        digest=_digest(salt, secret),
    )
    records[token_id] = record
    _save(home, records)
    return record, f"kn_{token_id}_{secret}"


def active_for(home: Path, project: str, *, now: datetime) -> list[TokenRecord]:
    """The active tokens (not expired, not revoked) bound to ``project``: what a server behind
    tokens for that project can be reached with."""
    return [t for t in load(home).values() if t.state(now) == "active" and project in t.projects]


def revoke(home: Path, ref: str, *, now: datetime) -> TokenRecord:
    """Revoke by id or name; revoking twice keeps the first date."""
    records = dict(load(home))
    matches = [r for r in records.values() if ref in (r.id, r.name)]
    if not matches:
        raise NotFound(f"no token {ref!r}", hint="kenning token list")
    if len(matches) > 1:
        raise ValidationError(f"{len(matches)} tokens are named {ref!r}", hint="revoke by id (kenning token list)")
    record = matches[0]
    if record.revoked is None:
        record = replace(record, revoked=iso(now))
        records[record.id] = record
        _save(home, records)
    return record


def verify(home: Path, presented: str | None, *, now: datetime) -> TokenRecord:
    if not presented:
        raise Unauthorized(
            "a bearer token is required (Authorization: Bearer kn_…); create one with `kenning token create`",
            hint="send Authorization: Bearer <secret>",
        )
    match = _SECRET.match(presented.strip())
    record = load(home).get(match["id"]) if match else None
    salt, digest = (record.salt, record.digest) if record else (_DUMMY_SALT, _DUMMY_SALT * 2)
    same = hmac.compare_digest(_digest(salt, match["secret"] if match else presented), digest)
    if record is None or not same:
        raise Unauthorized("unknown token")
    state = record.state(now)
    if state != "active":
        raise Unauthorized(f"token {record.name!r} is {state}" + (f" (since {record.revoked or record.expires})"))
    return record
