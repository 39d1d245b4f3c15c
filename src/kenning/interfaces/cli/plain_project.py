"""`kenning init` and `kenning sync` without the CLI library: what they print, and the console
script's path that serves them without importing click (``fast_project``).

A cold index is `kenning init` then `kenning sync`: two interpreters, whose start-up is a
fifth of the whole on a small tree (the Node.js + npm docs, docs/benchmarks.md), and click
with the command modules is a third of that start-up. As with `kenning search` (``plain``),
the click commands stay the one reference for options, help and usage errors: anything this
parser does not recognise goes to them, and both print the same thing for the same arguments
(tested). A sync whose stderr is a terminal also goes to click: its progress bar is rich's.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from kenning.errors import KenningError
from kenning.interfaces.cli.plain import now, report_failure, resolve_project, scan_options
from kenning.store.handle import StoreError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from kenning.ingest.read import Progress

# Each command's options, as its click command declares them (project_cmds): flags, then
# options with a value (the keyword each sets).
_OPTIONS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "init": (
        {"--json": "as_json", "--sync": "then_sync", "--no-embed": "no_embed"},
        {"--project": "project_path", "--name": "name"},
    ),
    "sync": ({"--json": "as_json", "--no-embed": "no_embed"}, {"--project": "project_path"}),
}


def json_text(payload: Any) -> str:
    """The JSON contract as every command prints it (``interfaces.render.to_json_text``)."""
    return json.dumps(payload, indent=2, ensure_ascii=False, sort_keys=False)


def init_output(
    project_path: Path,
    name: str | None,
    as_json: bool,
    then_sync: bool = False,
    no_embed: bool = False,
    progress: Progress | None = None,
    embed_budget: float | None = None,
) -> str:
    """Create .kenning/ and register the project, then sync it if asked (``--sync``, one
    process instead of two): what `kenning init` prints."""
    from kenning import registry
    from kenning.config import init_project, kenning_home

    _check_before_writing(project_path, name, kenning_home())
    project, created = init_project(project_path, name)
    registry.register(kenning_home(), project.name, project.root)
    payload: dict[str, Any] = {
        "project": project.name,
        "root": str(project.root),
        "created": created,
        "config": str(project.state_dir / "config.toml"),
        "registry": str(kenning_home()),
    }
    outer = _enclosing_root(project.root)
    if outer is not None:
        payload["inside"] = str(outer)
    synced = _synced(project.root, no_embed, progress, embed_budget=embed_budget) if then_sync else None
    if as_json:
        return json_text(payload if synced is None else {**payload, "sync": synced})
    verb = "created" if created else "already initialised"
    head = f"{project.name}: {verb} at {project.state_dir}"
    if outer is not None:
        head += (
            f"\nnote: inside the project at {outer}: commands run under {project.root} now use {project.name!r}, "
            f"and the next sync of {outer.name!r} leaves this folder out "
            f"(undo: `kenning projects remove {project.name}` and delete {project.state_dir})"
        )
    if synced is not None:
        return f"{head}\n{sync_text(synced)}"
    try:
        here = Path.cwd().resolve()
    except OSError:  # the current directory was deleted
        here = Path("/")
    inside = here == project.root or project.root in here.parents
    return f"{head}\nnext: kenning sync" + ("" if inside else f" --project {project.root}")


def _enclosing_root(root: Path) -> Path | None:
    """The project directory above ``root``, if any: ``root`` is then a project of its own
    inside it, which that project's sync skips (``ingest.discover``'s nested projects)."""
    from kenning.project import CONFIG_NAME, STATE_DIR

    return next((p for p in root.parents if (p / STATE_DIR / CONFIG_NAME).is_file()), None)


def _check_before_writing(project_path: Path, name: str | None, home: Path) -> None:
    """Refuse, before anything is written, what a `kenning init` cannot register: a registry
    folder (KENNING_HOME) that is a file, an invalid name, one already used by another project
    of the registry (the registry's rule, checked first: a refused init must leave no
    ``.kenning/`` behind to trip the next attempt), or a ``--name`` other than the one an
    initialised directory's config already gives (it would be ignored)."""
    from kenning import registry
    from kenning.config import default_name, load_project
    from kenning.errors import UsageError
    from kenning.project import CONFIG_NAME, STATE_DIR, check_name

    registry.check_home(home)
    if name is not None:
        try:
            check_name(name, new=True)
        except UsageError:
            raise UsageError(
                f"--name {name!r}: a project name is 1-64 characters of letters, digits, . _ -, "
                "beginning with a letter, a digit or _",
                hint="for example `--name my-project` (it is the <name> of citations kn://<name>/<id>)",
            ) from None
        if name == registry.GLOBAL_NAME:
            raise UsageError(
                f"--name {name!r}: the name is reserved for the transverse memory", hint="choose another name"
            )
    root = project_path.resolve()
    if not root.is_dir():
        return  # init_project's error
    config = root / STATE_DIR / CONFIG_NAME
    existing = load_project(root).name if config.is_file() else None
    entries = registry.list_entries(home)
    if existing is not None and name is not None and name != existing:
        registered = any(e.name == existing and e.path == root for e in entries)
        raise UsageError(
            f"{root} is already initialised as {existing!r}: --name only names a new project",
            hint=f"to rename it: `kenning projects rename {existing} {name}`"
            if registered
            else f"to rename it, edit `name` in {config}, then run `kenning init` again",
        )
    chosen = existing or name or default_name(root)
    if chosen == registry.GLOBAL_NAME and existing is None:
        raise UsageError(
            f"the directory's name {chosen!r} is reserved for the transverse memory",
            hint="name the project with `kenning init --name NAME`",
        )
    for entry in entries:
        if entry.name == chosen and entry.path != root and (entry.path / STATE_DIR).is_dir():
            hint = (
                f"its {STATE_DIR}/{CONFIG_NAME} gives that name (a copy of that project?): edit `name` in {config}, "
                "then run `kenning init` again"
                if existing
                else "choose another with `kenning init --name NAME`"
            )
            raise UsageError(f"project name {chosen!r} is already used by {entry.path}", hint=hint)


def sync_output(
    project_path: Path | None,
    no_embed: bool,
    as_json: bool,
    progress: Progress | None,
    retire_missing: int | None = None,
    embed_budget: float | None = None,
) -> str:
    """Sync the project: what `kenning sync` prints."""
    data = _synced(project_path, no_embed, progress, retire_missing, embed_budget=embed_budget)
    return json_text(data) if as_json else sync_text(data)


def _synced(
    project_path: Path | None,
    no_embed: bool,
    progress: Progress | None,
    retire_missing: int | None = None,
    *,
    embed_budget: float | None = None,
) -> dict[str, Any]:
    from kenning.sync.run import sync

    project = resolve_project(project_path)
    try:
        report = sync(
            project,
            now=now(),
            progress=progress,
            embed=not no_embed,
            retire_missing=retire_missing,
            embed_budget=embed_budget,
        )
        return report.to_json()
    except KeyboardInterrupt:  # the hint of `interrupted` (plain.report_failure)
        raise KeyboardInterrupt(
            "the files written before the interrupt stay indexed: `kenning sync` carries on"
        ) from None


def sync_global_output(as_json: bool, *, embed_budget: float | None = None) -> str:
    """`kenning sync --global`: the transverse memory's notes embedded (it has no files)."""
    from kenning.across.transverse import sync_global
    from kenning.config import kenning_home

    data = sync_global(kenning_home(), embed_budget=embed_budget)
    if as_json:
        return json_text(data)
    return "\n".join([f"{data['project']}: the transverse memory at {data['root']}", *_dense_lines(data["dense"])])


SKIPPED_SHOWN = 3  # the skipped files a sync's text names for each reason (``--json``: up to 20)
SUFFIXES_SHOWN = 6  # and the kinds of files it does not read, the most frequent first


def sync_text(data: dict[str, Any]) -> str:
    cov, files, ex = data["coverage"], data["files"], data["excerpts"]
    skipped = ", ".join(f"{n} {k}" for k, n in cov["skipped"].items()) or "none"
    lines = [
        f"{data['project']}: {cov['indexed']} file(s) indexed of {cov['eligible']} eligible "
        f"(discovery: {data['discovery']}); "
        f"skipped: {skipped}",
        f"files: {files['new']} new, {files['changed']} changed, {files['touched']} touched, "
        f"{files['unchanged']} unchanged, {files['removed']} removed",
        f"excerpts: {ex['added']} added, {ex['replaced']} replaced, {ex['retired']} retired, "
        f"{ex['kept']} kept, {ex['deduplicated']} deduplicated · {data['writes']} write(s)",
    ]
    led = data["ledger"]
    if any(led.values()):  # the ledger's records, read again because its bytes changed
        lines.append(
            f"ledger: {led['added']} added, {led['changed']} changed, {led['retired']} retired, {led['kept']} kept"
        )
    replaced = data.get("graph", {}).get("commits_replaced")
    if replaced:  # graph.projections.GIT_PROJECTION moved: not a change in the history
        lines.append(
            f"git history: {replaced} commit(s) read again by this version of kenning: their excerpts replaced "
            "(the commits did not change)"
        )
    for reason, paths in cov.get("skipped_paths", {}).items():  # which files: the first few, or their kinds
        if reason == "unsupported_type" and cov.get("unsupported_suffixes"):
            kinds = list(cov["unsupported_suffixes"].items())
            shown = ", ".join(f"{n} {suffix}" for suffix, n in kinds[:SUFFIXES_SHOWN])
            lines.append(f"skipped ({reason}): {shown}" + (", … (see --json)" if len(kinds) > SUFFIXES_SHOWN else ""))
            continue
        more = cov["skipped"].get(reason, 0) - SKIPPED_SHOWN
        shown = ", ".join(paths[:SKIPPED_SHOWN]) + (f", … and {more} more (see --json)" if more > 0 else "")
        lines.append(f"skipped ({reason}): {shown}")
    failed = data.get("graph_failed") or {}
    if failed.get("files"):  # kenning's bug on those files: the sync went on without their references' edges
        named = ", ".join(f"{path} ({error})" for path, error in list(failed["first"].items())[:SKIPPED_SHOWN])
        more = failed["files"] - min(len(failed["first"]), SKIPPED_SHOWN)
        lines.append(
            f"graph: {failed['files']} file(s) indexed without their relations (kenning failed on them; please "
            f"report it): {named}" + (f", … and {more} more (see --json)" if more > 0 else "")
        )
    lines.extend(f"retired: {uri}" for uri in data["retired_uris"][:20])
    if len(data["retired_uris"]) > 20:
        lines.append(f"retired: … and {len(data['retired_uris']) - 20} more (see --json)")
    lines.extend(_dense_lines(data.get("dense") or {}))
    return "\n".join(lines)


def _dense_lines(dense: dict[str, Any]) -> list[str]:
    """What the embedding step did (a no-op sync may still spend its budget embedding)."""
    if not dense.get("available", False):
        reason = dense.get("reason")
        return [f"dense: {reason}"] if reason else []
    lines = [
        f"dense ({name}): {e['embedded']} of {e['total']} excerpts embedded, {e['added']} now "
        f"in {e.get('seconds', 0):g} s (budget {dense.get('budget_seconds', 0):g} s for all models)"
        for name, e in dense.get("embedders", {}).items()
    ]
    lines.extend(f"dense: {note}" for note in dense.get("notes", []))
    return lines


def parse_project_args(command: str, args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments of ``init_output`` / ``sync_output`` for ``command`` ARGS, or None
    when the click command must handle them (help, an unknown option, a missing value, a value
    that looks like an option, a project path that is a file: click's errors)."""
    flags, valued = _OPTIONS[command]
    pairs = scan_options(args, flags, valued)
    if pairs is None:
        return None
    values: dict[str, Any] = {key: False for key in flags.values()}
    values.update({key: None for key in valued.values()})
    positional: list[str] = []
    for name, value in pairs:
        if name in flags:
            values[flags[name]] = True
            continue
        if not name and command == "init" and value and not value.startswith("-") and not positional:
            positional.append(value)  # `kenning init DIR`, as `--project DIR`
            continue
        if not name or not value or value.startswith("-") or (name == "--project" and os.path.isfile(value)):
            return None
        values[valued[name]] = Path(value) if name == "--project" else value
    if command == "init":
        directory = Path(positional[0]) if positional else None
        if values["no_embed"] and not values["then_sync"]:
            return None  # click's usage error: --no-embed is an option of the sync
        if (directory and os.path.isfile(directory)) or init_directory_conflict(directory, values["project_path"]):
            return None  # click's usage errors: a file, or two different directories
        values["project_path"] = directory or values["project_path"] or Path(".")
    return values


def init_directory_conflict(directory: Path | None, project_path: Path | None) -> str | None:
    """Why `kenning init DIRECTORY --project PATH` is refused: two different directories (the
    same one given twice is accepted)."""
    if directory is None or project_path is None or directory.resolve() == project_path.resolve():
        return None
    return (
        f"two directories given: {directory} and --project {project_path}; "
        "give the directory once, as DIRECTORY or as --project"
    )


def fast_project(command: str, args: list[str]) -> int | None:
    """Serve `kenning init` / `kenning sync` ARGS; None to hand them to the click command."""
    parsed = parse_project_args(command, args)
    if parsed is None or ((command == "sync" or parsed.get("then_sync")) and sys.stderr.isatty()):
        return None  # a sync on a terminal draws rich's progress bar: click's command
    try:
        text = init_output(**parsed) if command == "init" else sync_output(**parsed, progress=None)
    except (KenningError, StoreError, KeyboardInterrupt) as exc:
        return report_failure(exc, as_json=parsed["as_json"], command=f"kenning {command}") or 1
    sys.stdout.write(text + "\n")
    return 0
