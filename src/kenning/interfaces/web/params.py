"""Query-string values checked at the boundary: a bad value is a typed error, never a guess."""

from __future__ import annotations

from starlette.requests import Request

from kenning.errors import ValidationError

SCOPES = ("project", "all")


def scope(request: Request) -> str:
    value = request.query_params.get("scope") or "project"
    if value not in SCOPES:
        raise ValidationError(
            f"unknown scope {value!r}", hint="scope=project (this project) or scope=all (all projects)"
        )
    return value


def integer(request: Request, name: str, default: int, low: int, high: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    if not (raw.isascii() and raw.isdecimal()) or not low <= int(raw) <= high:
        raise ValidationError(f"{name} must be an integer between {low} and {high}, not {raw!r}")
    return int(raw)


def question(request: Request) -> str | None:
    """The ``q`` parameter as given (None when absent; an empty one is for the core to refuse)."""
    return request.query_params.get("q")
