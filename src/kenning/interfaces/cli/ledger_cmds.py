"""Ledger commands: append tasks, evidence and verdicts to `.kenning/ledger.jsonl`, import GitHub issues."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from kenning.clock import iso
from kenning.errors import ValidationError
from kenning.interfaces.cli.common import emit, json_option, now, project_option, resolve_project


@click.group()
def ledger() -> None:
    """Append to the project's ledger (tasks, evidence, verdicts); `kenning sync` reads it into the graph."""


def _append(project_path: Path | None, as_json: bool, record: dict[str, Any]) -> None:
    from kenning.ledger import LEDGER_NAME, append

    project = resolve_project(project_path)
    record = {k: v for k, v in record.items() if v not in (None, ())}
    record.setdefault("date", iso(now()))
    clean = append(project.state_dir / LEDGER_NAME, record)
    emit(
        {"appended": clean, "ledger": str(project.state_dir / LEDGER_NAME)},
        as_json,
        f"appended {clean['kind']} {clean['id']} to .kenning/{LEDGER_NAME}\nnext: kenning sync",
    )


@ledger.command()
@click.argument("task_id")
@click.option("--title", required=True, help="What the task is.")
@click.option("--status", default="open", show_default=True, help="open, in_progress, done, closed, …")
@click.option("--depends-on", "depends_on", multiple=True, help="Id of a task this one depends on (repeatable).")
@click.option("--touches", multiple=True, help="Project-relative path the task touches (repeatable).")
@click.option("--date", default=None, help="ISO 8601 date (default: now).")
@project_option
@json_option
def task(
    task_id: str,
    title: str,
    status: str,
    depends_on: tuple[str, ...],
    touches: tuple[str, ...],
    date: str | None,
    project_path: Path | None,
    as_json: bool,
) -> None:
    """Append a task record (validated; a later record with the same id replaces it)."""
    _append(
        project_path,
        as_json,
        {
            "kind": "task",
            "id": task_id,
            "title": title,
            "status": status,
            "depends_on": list(depends_on),
            "touches": list(touches),
            "date": date,
        },
    )


@ledger.command()
@click.argument("evidence_id")
@click.option("--task", "task_id", required=True, help="Id of the task this is evidence for (must exist).")
@click.option("--path", "path_", default=None, help="File the evidence is (a test, a log, a report).")
@click.option("--command", default=None, help="Command that produced the evidence.")
@click.option("--result", required=True, help="What it showed (e.g. `42 passed`).")
@click.option("--date", default=None, help="ISO 8601 date (default: now).")
@project_option
@json_option
def evidence(
    evidence_id: str,
    task_id: str,
    path_: str | None,
    command: str | None,
    result: str,
    date: str | None,
    project_path: Path | None,
    as_json: bool,
) -> None:
    """Append an evidence record for a task (needs --path or --command)."""
    _append(
        project_path,
        as_json,
        {
            "kind": "evidence",
            "id": evidence_id,
            "task": task_id,
            "path": path_,
            "command": command,
            "result": result,
            "date": date,
        },
    )


@ledger.command()
@click.argument("verdict_id")
@click.option("--evidence", "evidence_id", required=True, help="Id of the evidence judged (must exist).")
@click.option("--outcome", required=True, help="The verdict: accepted, rejected, needs work, …")
@click.option("--date", default=None, help="ISO 8601 date (default: now).")
@project_option
@json_option
def verdict(
    verdict_id: str, evidence_id: str, outcome: str, date: str | None, project_path: Path | None, as_json: bool
) -> None:
    """Append a verdict record on a piece of evidence."""
    _append(
        project_path,
        as_json,
        {"kind": "verdict", "id": verdict_id, "evidence": evidence_id, "outcome": outcome, "date": date},
    )


@ledger.command("import")
@click.argument("file", type=click.File("r", encoding="utf-8"))
@project_option
@json_option
def import_(file: Any, project_path: Path | None, as_json: bool) -> None:
    """Import tasks from `gh issue list --json number,title,state,body,labels,createdAt,closedAt` output (FILE or -)."""
    from kenning.ledger import LEDGER_NAME, from_github_issues, read, write_lines

    project = resolve_project(project_path)
    try:
        data = json.load(file)
    except json.JSONDecodeError as exc:
        raise ValidationError(f"{getattr(file, 'name', 'input')}: not JSON ({exc.msg})") from exc
    tasks = from_github_issues(data)
    target = project.state_dir / LEDGER_NAME
    current = {(e.record["kind"], e.record["id"]): e.record for e in read(target).entries}
    fresh = [t for t in tasks if current.get(("task", t["id"])) != t]
    if fresh:
        write_lines(target, fresh)
    emit(
        {"imported": len(fresh), "unchanged": len(tasks) - len(fresh), "ledger": str(target)},
        as_json,
        f"imported {len(fresh)} task(s), {len(tasks) - len(fresh)} unchanged\nnext: kenning sync",
    )
