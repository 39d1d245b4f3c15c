"""The machine registry and the transverse memory: `kenning projects …`, `kenning promote`."""

from __future__ import annotations

from pathlib import Path

import click

from kenning import registry
from kenning.config import kenning_home, load_project
from kenning.interfaces.cli.common import (
    columns,
    emit,
    json_option,
    no_embed_option,
    now,
    parse_fact_id,
    project_option,
    resolve_project,
    stderr_is_terminal,
    warn,
)


@click.group()
def projects() -> None:
    """The machine registry of projects (under KENNING_HOME)."""


@projects.command("list")
@json_option
def projects_list(as_json: bool) -> None:
    """Registered projects: path, store state (ok, missing, unreadable, outdated, not_synced; with the
    reason), last sync, size and confidential flag. Each store is opened read-only."""
    from kenning.across.stores import state_of

    rows = [state_of(entry, load_project).to_json() for entry in registry.list_entries(kenning_home())]
    emit(
        {"projects": rows},
        as_json,
        lambda: _table(rows) if rows else "no projects registered (run `kenning init`)",
    )
    missing = [str(r["name"]) for r in rows if r["state"] == "missing"]
    if missing and stderr_is_terminal():  # a hint, not data: stderr, on a terminal only
        warn(
            f"hint: {', '.join(missing)}: directory gone — moved? run `kenning init` where it now lives "
            f"(or `kenning projects add PATH`); deleted? `kenning projects remove {missing[0]}`"
        )


def _table(rows: list[dict]) -> str:
    """One project a line under a header; a store that is not ``ok`` has ``-`` for its counts and
    its reason last (a long reason widens no column before it)."""
    cells = []
    for row in rows:
        note = [] if row["state"] == "ok" else [str(row["reason"])]
        note += ["confidential"] if row["confidential"] else []
        if row["state"] == "ok":
            size = "on a server" if row["size_bytes"] is None else f"{row['size_bytes'] / 1_048_576:.1f} MiB"
            counts = [str(row["facts"]), size, row["last_sync"] or "never"]
        else:
            counts = ["-", "-", "-"]
        cells.append([row["name"], row["state"], *counts, row["path"], " · ".join(note)])
    return columns(["NAME", "STATE", "FACTS", "SIZE", "LAST SYNC", "PATH", "NOTE"], cells)


@projects.command("add")
@click.argument("path", type=click.Path(file_okay=False, path_type=Path))
@json_option
def projects_add(path: Path, as_json: bool) -> None:
    """Register an existing kenning project."""
    project = load_project(path)
    changed = registry.register(kenning_home(), project.name, project.root)
    emit(
        {"name": project.name, "path": str(project.root), "changed": changed},
        as_json,
        f"{project.name}\t{project.root}" + ("" if changed else " (already registered)"),
    )


@projects.command("remove")
@click.argument("name")
@json_option
def projects_remove(name: str, as_json: bool) -> None:
    """Unregister a project (its files and index are left alone)."""
    removed = registry.unregister(kenning_home(), name)
    emit({"name": name, "removed": removed}, as_json, f"{name}: " + ("removed" if removed else "not registered"))


@projects.command("rename")
@click.argument("old")
@click.argument("new")
@json_option
def projects_rename(old: str, new: str, as_json: bool) -> None:
    """Rename a registered project, in the registry and in its .kenning/config.toml (citations
    kn://<name>/<id> follow)."""
    entry = registry.rename(kenning_home(), old, new)
    emit({"old": old, "name": entry.name, "path": str(entry.path)}, as_json, f"{old} → {entry.name}\t{entry.path}")


@click.command()
@click.argument("fact_id")
@no_embed_option
@project_option
@json_option
def promote(fact_id: str, no_embed: bool, project_path: Path | None, as_json: bool) -> None:
    """Copy a fact of this project into the transverse memory (kn://global/<id>), keeping its
    origin project and source. Refused for a confidential project."""
    from kenning.across.transverse import embed_global
    from kenning.across.transverse import promote as run
    from kenning.interfaces.render import saved_note

    project = resolve_project(project_path)
    promoted = run(project, parse_fact_id(fact_id, project), kenning_home(), now=now())
    embedded = None if no_embed else embed_global(kenning_home())
    verb = "promoted as" if promoted.created else "already promoted as"
    payload = promoted.to_json() | ({} if embedded is None else {"dense": embedded})
    text = f"{promoted.origin.citation} {verb} {promoted.citation}" + saved_note(embedded, "kenning sync --global")
    emit(payload, as_json, text)
