"""Fact types a caller may name (``--type``, ``type_filter``, ``save_memory(type=…)``): the
built-in vocabulary, plus any type the store already holds (a file's front matter may declare
its own, ``type: runbook``). Anything else is refused with the list of known types, never
served as an empty answer or saved under a typo."""

from __future__ import annotations

from collections.abc import Iterable

from kenning.errors import ValidationError
from kenning.store import facts as fact_store
from kenning.store.handle import Connection

# What kenning itself writes (files, code, ADRs, the ledger, git history, sessions) and the
# words its tools suggest for notes.
BUILTIN_TYPES = (
    "code",
    "commit",
    "convention",
    "correction",
    "decision",
    "doc",
    "evidence",
    "fact",
    "failure",
    "handoff",
    "note",
    "observation",
    "preference",
    "session_summary",
    "task",
    "verdict",
)


def unknown_types(conn: Connection, types: Iterable[str]) -> list[str]:
    """The ``types`` neither built in nor held by the store at ``conn`` (in the order given)."""
    asked = [t for t in dict.fromkeys(types) if t not in BUILTIN_TYPES]
    if not asked:
        return []
    present = fact_store.types_present(conn, asked)
    return [t for t in asked if t not in present]


def refusal(unknown: Iterable[str], known: Iterable[str]) -> ValidationError:
    names = ", ".join(repr(t) for t in unknown)
    return ValidationError(
        f"unknown type {names}",
        hint="use one of: " + ", ".join(sorted(set(BUILTIN_TYPES) | set(known))),
    )


def check_types(conn: Connection, types: Iterable[str]) -> None:
    """``ValidationError`` (its hint lists the known types) unless every type is known here."""
    unknown = unknown_types(conn, types)
    if unknown:
        raise refusal(unknown, fact_store.types_present(conn))


def check_types_across(conns: Iterable[Connection], types: Iterable[str]) -> None:
    """As ``check_types`` over several stores: a type is known if any of them holds it."""
    stores = list(conns)
    unknown = [t for t in dict.fromkeys(types) if t not in BUILTIN_TYPES]
    for conn in stores:
        if not unknown:
            return
        unknown = unknown_types(conn, unknown)
    if unknown:
        raise refusal(unknown, {t for conn in stores for t in fact_store.types_present(conn)})
