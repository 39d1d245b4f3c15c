"""The ledger: a JSONL file (default ``.kenning/ledger.jsonl``) of tasks, evidence and verdicts.

One JSON object a line, with ``"kind"``:

- ``task``: ``id``, ``title``, ``status`` (default ``open``), ``depends_on`` (task ids),
  ``touches`` (project-relative paths), ``date``; optional ``body``, ``labels``;
- ``evidence``: ``id``, ``task``, ``path`` and/or ``command``, ``result``, ``date``;
- ``verdict``: ``id``, ``evidence``, ``outcome``, ``date``.

The file is append-only: a later line with the same kind and id replaces the earlier one.
Validation is strict at the boundary (``validate``); reading tolerates bad lines and counts
them, so one broken line never stops a sync.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kenning.errors import ValidationError
from kenning.refs import project_path

LEDGER_NAME = "ledger.jsonl"
LEDGER_PATH = f".kenning/{LEDGER_NAME}"  # project-relative, as facts and locations name it
KINDS = ("task", "evidence", "verdict")
_ID = re.compile(r"^[A-Za-z0-9#][A-Za-z0-9._#:/-]{0,63}$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")
_FIELDS = {
    "task": {"kind", "id", "title", "status", "depends_on", "touches", "date", "body", "labels"},
    "evidence": {"kind", "id", "task", "path", "command", "result", "date"},
    "verdict": {"kind", "id", "evidence", "outcome", "date"},
}
_DEPENDS = re.compile(r"(?:depends on|blocked by)\s*:?\s*((?:#\d+[\s,]*(?:and\s+)?)+)", re.I)


@dataclass(frozen=True)
class Entry:
    line: int
    record: dict[str, Any]


@dataclass(frozen=True)
class Ledger:
    entries: tuple[Entry, ...]  # the last version of each (kind, id), in file order
    invalid: tuple[tuple[int, str], ...]  # (line, reason)


def validate(record: Any) -> dict[str, Any]:
    """A clean copy of one record, or ``ValidationError`` saying what is wrong."""
    if not isinstance(record, dict):
        raise ValidationError("a ledger record must be a JSON object")
    kind = record.get("kind")
    if kind not in KINDS:
        raise ValidationError(f"`kind` must be one of {', '.join(KINDS)} (got {kind!r})")
    unknown = set(record) - _FIELDS[kind]
    if unknown:
        raise ValidationError(f"unknown field(s) for a {kind}: {', '.join(sorted(unknown))}")
    out: dict[str, Any] = {"kind": kind, "id": _ident(record.get("id"), "id")}
    match kind:
        case "task":
            out["title"] = _text(record.get("title"), "title")
            out["status"] = _text(record.get("status", "open"), "status", 40)
            out["depends_on"] = [_ident(v, "depends_on") for v in _list(record.get("depends_on", []), "depends_on")]
            out["touches"] = [_path(v) for v in _list(record.get("touches", []), "touches")]
            for extra in ("body",):
                if record.get(extra) is not None:
                    out[extra] = _text(record[extra], extra, 20_000)
            if record.get("labels") is not None:
                out["labels"] = [_text(v, "labels", 100) for v in _list(record["labels"], "labels")]
        case "evidence":
            out["task"] = _ident(record.get("task"), "task")
            if record.get("path") is None and record.get("command") is None:
                raise ValidationError("evidence needs a `path` or a `command`")
            if record.get("path") is not None:
                out["path"] = _path(record["path"])
            if record.get("command") is not None:
                out["command"] = _text(record["command"], "command", 2000)
            out["result"] = _text(record.get("result"), "result", 2000)
        case "verdict":
            out["evidence"] = _ident(record.get("evidence"), "evidence")
            out["outcome"] = _text(record.get("outcome"), "outcome", 2000)
    if record.get("date") is not None:
        date = record["date"]
        if not isinstance(date, str) or not _DATE.match(date):
            raise ValidationError(f"`date` must be an ISO 8601 date (got {date!r})")
        out["date"] = date
    return out


def read(path: Path) -> Ledger:
    """Every valid record (last version per kind and id) and the lines that were not."""
    latest: dict[tuple[str, str], Entry] = {}
    invalid: list[tuple[int, str]] = []
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return Ledger((), ())
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = validate(json.loads(line))
        except json.JSONDecodeError as exc:
            invalid.append((number, f"not JSON: {exc.msg}"))
            continue
        except ValidationError as exc:
            invalid.append((number, exc.message))
            continue
        key = (record["kind"], record["id"])
        latest.pop(key, None)
        latest[key] = Entry(number, record)
    return Ledger(tuple(latest.values()), tuple(invalid))


def record_fingerprint(record: dict[str, Any]) -> str:
    """The source fingerprint of a ledger fact: sha256 of its record, not of the whole file,
    so that appending other records leaves it ``current``; a later version of the same
    record makes it ``stale``."""
    canonical = json.dumps(record, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def fingerprints(path: Path) -> dict[str, str]:
    """``kind/id`` → fingerprint of the record's last version (what freshness re-reads)."""
    return {f"{e.record['kind']}/{e.record['id']}": record_fingerprint(e.record) for e in read(path).entries}


def append(path: Path, record: dict[str, Any]) -> dict[str, Any]:
    """Validate ``record`` against the record itself and the ledger (referenced ids must exist),
    then append it as one line. Nothing is written when validation fails."""
    clean = validate(record)
    known = {(e.record["kind"], e.record["id"]) for e in read(path).entries}
    if clean["kind"] == "evidence" and ("task", clean["task"]) not in known:
        raise ValidationError(f"no task {clean['task']!r} in the ledger", hint="add it with `kenning ledger task`")
    if clean["kind"] == "verdict" and ("evidence", clean["evidence"]) not in known:
        raise ValidationError(
            f"no evidence {clean['evidence']!r} in the ledger", hint="add it with `kenning ledger evidence`"
        )
    write_lines(path, [clean])
    return clean


def write_lines(path: Path, records: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    prefix = ""
    if path.exists() and path.stat().st_size:
        with path.open("rb") as handle:
            handle.seek(-1, 2)
            prefix = "" if handle.read(1) == b"\n" else "\n"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(prefix + "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in records))


def from_github_issues(data: Any) -> list[dict[str, Any]]:
    """Task records from ``gh issue list --json number,title,state,body,labels,createdAt,closedAt``."""
    if not isinstance(data, list):
        raise ValidationError("expected the JSON array written by `gh issue list --json …`")
    tasks = []
    for n, issue in enumerate(data, start=1):
        if not isinstance(issue, dict) or not isinstance(issue.get("number"), int):
            raise ValidationError(f"item {n}: expected an object with an integer `number`")
        body = issue.get("body") or ""
        depends = sorted({f"#{d}" for m in _DEPENDS.finditer(body) for d in re.findall(r"#(\d+)", m.group(1))})
        labels = [lab.get("name") if isinstance(lab, dict) else lab for lab in issue.get("labels") or []]
        record = {
            "kind": "task",
            "id": f"#{issue['number']}",
            "title": issue.get("title") or f"issue {issue['number']}",
            "status": str(issue.get("state") or "open").lower(),
            "depends_on": [d for d in depends if d != f"#{issue['number']}"],
            "touches": [],
            "labels": [str(lab) for lab in labels if lab],
        }
        if body:
            record["body"] = body[:20_000]
        date = issue.get("closedAt") or issue.get("createdAt")
        if date:
            record["date"] = date
        tasks.append(validate(record))
    return tasks


def _ident(value: Any, name: str) -> str:
    if not isinstance(value, str) or not _ID.match(value):
        raise ValidationError(f"`{name}` must be an id of letters, digits and . _ # : / - (got {value!r})")
    return value


def _text(value: Any, name: str, cap: int = 500) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError(f"`{name}` must be a non-empty string")
    if len(value) > cap:
        raise ValidationError(f"`{name}` is longer than {cap} characters")
    return value.strip()


def _list(value: Any, name: str) -> list[Any]:
    if not isinstance(value, list):
        raise ValidationError(f"`{name}` must be a list")
    return value


def _path(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValidationError("a path must be a non-empty string")
    return project_path(value)
