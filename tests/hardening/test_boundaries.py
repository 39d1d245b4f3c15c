"""Every way to name a path or another project, against every CLI command and every MCP tool that
takes text (issue 20, must-show 4): `..`, absolute paths, links out of the root, another project's
files and `kn://other/N` citations, `path_filter` outside the project, percent-encoding,
backslashes, NUL. Nothing outside the root or the allowed projects is read or returned: each
call answers (without those bytes) or fails with a typed error, and nothing outside the root
changes.

The commands and tools are enumerated from the CLI's command tree and the MCP server's tool
list, so a new one is covered without editing this file; the few commands left out are listed
with the reason. Secrets live in a folder beside the project (reached by `..`, an absolute
path and two links) and in a registered confidential project beside it (its files and its
saved memory); their markers must appear in no output and in no stored fact."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click
import pytest

from kenning.config import kenning_home, load_project
from kenning.interfaces.cli.main import cli as cli_group
from kenning.registry import register
from kenning.store import bodies

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "memory"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from hostile import judge_mcp  # noqa: E402
from memory_helpers import Clock, make_server, save_direct, session_run  # noqa: E402

from conftest import NOW, resync, write_files  # noqa: E402

OUTSIDE_MARK = "zq-outside-the-root-9051"
OTHER_MARK = "zq-other-project-4417"
MARKS = (OUTSIDE_MARK, OTHER_MARK)

# Left out, and why: they serve, create or register projects, manage tokens, or read a file the
# user names on purpose (`ledger import`), or run an evaluation that writes its report where told.
CLI_LEFT_OUT = {
    "mcp": "starts a server",
    "serve": "starts a server",
    "init": "creates a project in the folder it is given",
    "projects add": "registers the folder it is given",
    "projects remove": "registry management: a name, nothing read",
    "projects rename": "registry management: a name, nothing read",
    "token create": "defines a token's access, reads nothing",
    "token revoke": "token management",
    "ledger import": "reads the ledger file the user names, by design",
    "bench": "an evaluation that writes its report where --out says",
}


def names(tmp_path: Path, other_root: Path) -> list[str]:
    secret = tmp_path / "outside" / "secret.md"
    return [
        "../outside/secret.md",
        "../../" + str(secret.relative_to(secret.anchor)),
        str(secret),
        str(secret.parent),
        "linked.md",
        "linkdir/secret.md",
        "linkdir",
        "../other/README.md",
        str(other_root / "README.md"),
        "kn://other/1",
        "kn://other/2",
        "kn://other/3#L1",
        "kn://other/",
        "other",
        "%2e%2e/outside/secret.md",
        "%2E%2E%2Foutside%2Fsecret.md",
        "kn%3A%2F%2Fother%2F1",
        "kn://other%2F1",
        "..\\outside\\secret.md",
        "kn:\\\\other\\1",
        "README.md\x00../outside/secret.md",
        "kn://demo/1\x00kn://other/1",
        "file://" + str(secret),
    ]


@pytest.fixture
def world(make_project, tmp_path):
    outside = tmp_path / "outside"
    write_files(outside, {"secret.md": f"# Secret\n\n{OUTSIDE_MARK} widget\n"})
    other = make_project({"README.md": f"# Other\n\n{OTHER_MARK} widget\n"}, name="other")
    (other.state_dir / "config.toml").write_text('name = "other"\nconfidential = true\n', encoding="utf-8")
    other = load_project(other.root)
    resync(other)
    save_direct(other, Clock(NOW), f"{OTHER_MARK}: the widget memory of the other project")
    demo = make_project(
        {
            "README.md": "# Demo\n\nThe widget demo.\n",
            "src/app.py": "def handler():\n    return helper()\n\n\ndef helper():\n    return 1\n",
        },
        name="demo",
    )
    os.symlink(outside / "secret.md", demo.root / "linked.md")
    os.symlink(outside, demo.root / "linkdir")
    resync(demo)
    save_direct(demo, Clock(NOW), "the widget handler is stable")
    home = kenning_home()
    for project in (other, demo):
        register(home, project.name, project.root)
    before = _outside_state(tmp_path, demo.root)
    yield demo, other, names(tmp_path, other.root)
    assert _outside_state(tmp_path, demo.root) == before  # nothing outside the root changed


def _outside_state(tmp_path: Path, root: Path) -> dict[str, bytes]:
    """Every file under tmp_path but the project's own, with its bytes (the other project's store included)."""
    state: dict[str, bytes] = {}
    for folder, dirs, files in os.walk(tmp_path):
        if Path(folder) == root:
            dirs.clear()
            continue
        for name in files:
            path = Path(folder) / name
            if not path.is_symlink() and not name.endswith(("-wal", "-shm", "-wait")):
                state[str(path)] = path.read_bytes()
    return state


def _leaf_commands() -> list[tuple[str, click.Command]]:
    found: list[tuple[str, click.Command]] = []

    def walk(group: click.Group, prefix: str) -> None:
        ctx = click.Context(group)
        for name in sorted(group.list_commands(ctx)):
            command = group.get_command(ctx, name)
            if isinstance(command, click.Group):
                walk(command, f"{prefix}{name} ")
            elif command is not None:
                found.append((f"{prefix}{name}", command))

    walk(cli_group, "")
    return found


def _text_params(command: click.Command) -> list[click.Parameter]:
    return [
        p
        for p in command.params
        if p.name != "project_path"
        and not (isinstance(p, click.Option) and p.is_flag)
        and isinstance(p.type, click.types.StringParamType)
    ]


def _argv(path: str, command: click.Command, target: click.Parameter, value: str, root: Path) -> list[str]:
    args: list[str] = []
    options: list[str] = []
    for p in command.params:
        if p.name == "project_path":
            continue
        given = value if p is target else ("1" if p.name in ("ids", "fact_id", "anchor", "old", "new") else "widget")
        if isinstance(p, click.Argument):
            args.append(given)
        elif p is target or p.required:
            options += [p.opts[0], given]
    return [*path.split(), *args, *options, "--project", str(root)]


def _cases() -> list[tuple[str, str]]:
    return [
        (path, p.name or "")
        for path, command in _leaf_commands()
        if path not in CLI_LEFT_OUT
        for p in _text_params(command)
    ]


def test_the_enumeration_covers_the_commands_that_name_things():
    covered = {path for path, _ in _cases()}
    for expected in ("get", "graph path", "graph touches", "memory timeline", "supersede", "search", "ask"):
        assert expected in covered
    every = {path for path, _ in _leaf_commands()}
    assert set(CLI_LEFT_OUT) <= every  # a renamed command must leave this list too


def test_no_cli_command_reads_or_returns_anything_outside_the_root(world, cli):
    demo, _, hostile = world
    commands = dict(_leaf_commands())
    ran = 0
    for path, param_name in _cases():
        command = commands[path]
        target = next(p for p in command.params if p.name == param_name)
        for value in hostile:
            result = cli(*_argv(path, command, target, value, demo.root))
            where = f"kenning {path} ({param_name}={value!r})"
            assert result.code in (0, 1, 2), f"{where}: exit {result.code}\n{result.err}"
            assert "Traceback" not in result.err, where
            assert not any(m in result.out or m in result.err for m in MARKS), f"{where} leaked:\n{result.out}"
            ran += 1
    assert ran > 300
    # What was saved meanwhile (ledger records naming those paths, notes) is synced, then every
    # reader of files runs: still nothing from outside.
    for args in (("sync",), ("stale", "--json"), ("pack", "build"), ("hook", "session-start", "--plain"), ("status",)):
        result = cli(*args, "--project", str(demo.root))
        assert result.code in (0, 1), result
        assert not any(m in result.out or m in result.err for m in MARKS), args
    _assert_store_clean(demo)


def test_no_mcp_tool_reads_or_returns_anything_outside_the_root(world):
    demo, _, hostile = world
    server = make_server(demo, Clock(NOW))

    async def body(client: Any) -> int:
        tools = (await client.list_tools()).tools
        assert len(tools) >= 15
        calls = 0
        for tool in tools:
            schema = tool.inputSchema
            for name, spec in (schema.get("properties") or {}).items():
                kinds = _kinds(spec)
                if not kinds & {"string", "array"}:
                    continue
                for value in hostile:
                    arguments = _defaults(schema)
                    arguments[name] = [value] if "array" in kinds and "string" not in kinds else value
                    result = await client.call_tool(tool.name, arguments)
                    verdict = judge_mcp(result)
                    where = f"{tool.name}({name}={value!r})"
                    assert not verdict.startswith("untyped"), f"{where}: {verdict}"
                    shown = " ".join(b.text for b in result.content if b.type == "text") + repr(
                        result.structuredContent
                    )
                    assert not any(m in shown for m in MARKS), f"{where} leaked: {shown[:500]}"
                    calls += 1
        return calls

    assert session_run(server, body) > 300
    _assert_store_clean(demo)


def _kinds(spec: dict[str, Any]) -> set[str]:
    kinds: set[str] = set()
    for option in spec.get("anyOf", [spec]):
        kind = option.get("type")
        kinds.update(kind if isinstance(kind, list) else [kind] if kind else [])
    return kinds


def _defaults(schema: dict[str, Any]) -> dict[str, Any]:
    """The required arguments, plausible: the call reaches the parameter under test."""
    args: dict[str, Any] = {}
    for name in schema.get("required") or []:
        spec = schema["properties"][name]
        kinds = _kinds(spec)
        if "enum" in spec:
            args[name] = spec["enum"][0]
        elif "integer" in kinds:
            args[name] = 1
        elif "array" in kinds:
            args[name] = ["1"]
        else:
            args[name] = "widget"
    return args


def _assert_store_clean(project) -> None:
    import sqlite3

    conn = sqlite3.connect(f"file:{load_project(project.root).db_path}?mode=ro", uri=True)
    bodies.register(conn)  # bodies are stored deflated (migration 0019): read their text
    try:
        for mark in MARKS:
            hits = conn.execute(
                "SELECT count(*) FROM facts WHERE title LIKE ? OR kenning_text(body) LIKE ?", (f"%{mark}%", f"%{mark}%")
            ).fetchone()[0]
            assert hits == 0, mark
    finally:
        conn.close()
