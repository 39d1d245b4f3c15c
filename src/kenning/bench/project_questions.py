"""A project's own evaluation questions, ``.kenning/questions.jsonl``: one JSON object a line,
``{"question": "...", "expected": ["src/a.py", "ADR-0002"], "rule": "relation", "mode": "graph"}``
(``rule`` and ``mode`` optional). An expected entry matches a served excerpt by its source
URI (with or without ``#fragment``), a path it is located at, or the graph node it stands
for (name, qualified name or its last dotted part). See docs/evaluation.md."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from kenning.errors import ValidationError
from kenning.records import Answer, Excerpt

FILE_NAME = "questions.jsonl"
_FIELDS = {"question", "expected", "rule", "mode"}


@dataclass(frozen=True)
class ProjectQuestion:
    line: int
    question: str
    expected: tuple[str, ...]
    rule: str | None
    mode: str | None


def load(state_dir: Path) -> list[ProjectQuestion] | None:
    """The questions of ``<project>/.kenning/questions.jsonl``; None when there is no file.
    A line that is not a valid question is a ``ValidationError`` naming the line."""
    path = state_dir / FILE_NAME
    if not path.is_file():
        return None
    found: list[ProjectQuestion] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValidationError(f"{path.name} line {number}: not JSON ({exc.msg})") from exc
        if (
            not isinstance(row, dict)
            or set(row) - _FIELDS
            or not isinstance(row.get("question"), str)
            or not row["question"].strip()
        ):
            raise ValidationError(
                f'{path.name} line {number}: expected an object with "question" (text), '
                '"expected" (list of sources) and optional "rule", "mode"'
            )
        expected = row.get("expected", [])
        if not isinstance(expected, list) or not all(isinstance(e, str) and e for e in expected):
            raise ValidationError(f'{path.name} line {number}: "expected" must be a list of non-empty strings')
        for key in ("rule", "mode"):
            if row.get(key) is not None and not isinstance(row[key], str):
                raise ValidationError(f'{path.name} line {number}: "{key}" must be text')
        found.append(ProjectQuestion(number, row["question"], tuple(expected), row.get("rule"), row.get("mode")))
    return found


def matches(excerpt: Excerpt, expected: str) -> bool:
    uri = excerpt.fact.source.uri
    if expected in (uri, uri.split("#", 1)[0]) or any(loc.path == expected for loc in excerpt.fact.locations):
        return True
    node = (excerpt.explain or {}).get("node") or {}
    name = str(node.get("name", ""))
    return bool(name) and (name == expected or name.endswith("." + expected) or node.get("path") == expected)


def first_rank(answer: Answer, expected: tuple[str, ...]) -> int | None:
    return next((rank for rank, ex in enumerate(answer.excerpts, 1) if any(matches(ex, e) for e in expected)), None)
