"""Time in one place, so tests can inject it: every function that needs "now" takes it."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_now() -> datetime:
    return datetime.now(UTC)


def iso(moment: datetime) -> str:
    """UTC, second precision, ``Z`` suffix: ``2026-11-29T20:23:36Z``."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def from_timestamp(seconds: float) -> str:
    return iso(datetime.fromtimestamp(seconds, UTC))


def parse_iso(text: str) -> datetime:
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment
