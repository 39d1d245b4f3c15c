"""Core pack commands: `kenning pack build` and `kenning pack show`."""

from __future__ import annotations

from pathlib import Path

import click

from kenning.interfaces.cli.common import emit, json_option, project_option, resolve_project


@click.group()
def pack() -> None:
    """The core pack: project context, conventions and active decisions within a token budget."""


@pack.command()
@project_option
@json_option
def build(project_path: Path | None, as_json: bool) -> None:
    """Build the pack from the index into .kenning/cache/ (same sources, same bytes)."""
    from kenning.pack.build import build as run
    from kenning.pack.manifest import write_pack
    from kenning.pack.session import summary
    from kenning.store.db import open_store

    project = resolve_project(project_path)
    conn = open_store(project)
    try:
        built = run(conn, project)
    finally:
        conn.close()
    write_pack(project.state_dir, built.text, built.manifest)
    m = built.manifest
    emit(
        m,
        as_json,
        f"{summary(m)}\nabout {m['estimated_tokens']} of {m['budget_tokens']} tokens · "
        f"{len(m['sources'])} source(s) · written to {project.state_dir / 'cache' / 'pack.md'}",
    )


@pack.command()
@project_option
@json_option
@click.option("--why", is_flag=True, help="Explain each convention: its score, the reasons, shown or not.")
def show(project_path: Path | None, as_json: bool, why: bool) -> None:
    """Print the built pack (with --json: its manifest and text); never rebuilds it."""
    from kenning.pack.manifest import read_manifest, read_text
    from kenning.pack.session import NOT_BUILT

    project = resolve_project(project_path)
    manifest, text = read_manifest(project.state_dir), read_text(project.state_dir)
    if manifest is None or text is None:
        emit({"built": False, "status": NOT_BUILT}, as_json, NOT_BUILT)
        return
    if why:
        entries = [{"kind": kind, **entry} for kind in ("conventions", "decisions") for entry in manifest[kind]]
        emit({"built": True, "entries": entries}, as_json, _why_text(entries))
        return
    emit({"built": True, "manifest": manifest, "text": text}, as_json, text.rstrip("\n"))


def _why_text(entries: list[dict]) -> str:
    lines = []
    for entry in entries:
        shown = "shown" if entry["included"] else "left out for the budget"
        score = f"score {entry['score']} · " if entry.get("score") is not None else ""
        lines.append(f"{entry['kind'][:-1]} · {score}{shown} · {entry['title']} [{entry['citation']}]")
        lines.extend(f"    {reason}" for reason in entry.get("why", []))
    return "\n".join(lines) or "(no conventions or decisions in the pack)"
