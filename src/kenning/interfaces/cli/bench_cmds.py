"""`kenning bench`: deterministic evaluation of a project store (SPEC §14)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from kenning.errors import ValidationError
from kenning.interfaces.cli.common import Bounded, json_option, now, project_option, resolve_project
from kenning.interfaces.terminal_text import terminal_safe


@click.command()
@click.option("--seed", type=int, default=7, show_default=True, help="Seed of the question generator.")
@click.option(
    "--per-kind",
    type=Bounded(1, 1000),
    default=25,
    show_default=True,
    help="Most questions of each kind (section, symbol, decision, edge).",
)
@click.option(
    "--speed",
    is_flag=True,
    help="Add a `speed` section (sync throughput, no-op resync, query p50/p95); it varies run to run.",
)
@click.option(
    "--out",
    "out_file",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write the report to FILE instead of stdout.",
)
@project_option
@json_option
def bench(
    seed: int, per_kind: int, speed: bool, out_file: Path | None, project_path: Path | None, as_json: bool
) -> None:
    """Measure this project's store: coverage, attribution, freshness, recall@k and MRR per mode,
    router agreement, core cost. Same store and seed, same bytes (without --speed)."""
    from kenning.bench import report as bench_report
    from kenning.bench import speed as bench_speed
    from kenning.interfaces.render import to_json_text
    from kenning.store.db import open_store

    project = resolve_project(project_path)
    if out_file is not None:
        _check_writable(out_file)  # before the run: its minutes are not lost to a typo
    clock = now()
    conn = open_store(project)  # PostgreSQL when the project names a server (unreachable: StoreUnavailable)
    try:
        result = bench_report.run(project, conn, seed=seed, per_kind=per_kind, now=clock)
        if speed:
            texts = [row["text"] for row in result["questions_asked"]]
            result["speed"] = bench_speed.measure(project, conn, texts, now=clock)
    finally:
        conn.close()
    text = to_json_text(result) if as_json else terminal_safe(bench_report.render_text(result))
    if out_file is not None:
        try:
            out_file.write_text(text + "\n", encoding="utf-8")
        except OSError as exc:
            raise _unwritable(out_file, exc.strerror or str(exc)) from None
        click.echo(f"report written to {out_file}", err=True)
    else:
        click.echo(text)


def _check_writable(out_file: Path) -> None:
    folder = out_file.parent
    if not folder.is_dir():
        raise _unwritable(out_file, f"no such directory {folder}")
    if not os.access(folder, os.W_OK) or (out_file.exists() and not os.access(out_file, os.W_OK)):
        raise _unwritable(out_file, "permission denied")


def _unwritable(out_file: Path, why: str) -> ValidationError:
    return ValidationError(
        f"--out {out_file}: cannot write the report ({why})", hint="give a file in a writable folder"
    )
