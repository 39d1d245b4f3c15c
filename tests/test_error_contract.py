"""One error vocabulary: the same bad input gives the same typed error — type, message, hint —
and the same exit code through the CLI (the console script's entry point, in text and with
``--json``) and through the MCP tools (the SDK's client, in memory); nothing is changed.

Each case pairs a command with the tool that does the same thing. The CLI prints
``error: <message>`` / ``hint: <hint>`` on stderr and exits with ``exit_codes.exit_code``; with
``--json`` stdout also carries ``{"error": {type, message, hint}}``; MCP answers ``isError``
with that object as structured content and a text ending ``Next: <hint>``.
"""

from __future__ import annotations

import ast
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.shared.memory import create_connected_server_and_client_session

import kenning.errors as errors_module
from conftest import NOW, resync
from kenning.config import Project
from kenning.interfaces.exit_codes import exit_code
from kenning.interfaces.mcp.server import build_server
from kenning.store import version

FILES = {
    "src/app.py": "def handler():\n    return helper()\n\n\ndef helper():\n    return 1\n",
    "docs/guide.md": "# Guide\n\nThe handler calls the helper.\n",
}


@dataclass(frozen=True)
class Case:
    name: str
    kind: str  # the expected error type
    cli: tuple[str, ...]  # arguments; `{code}` / `{note}` stand for the ids of a code excerpt and a note
    tool: str
    arguments: dict[str, Any]
    store: str = "synced"  # synced, unsynced (no index) or damaged


CASES = [
    Case("fts syntax: dangling operator", "InvalidQuery", ("memory", "search", "handler AND", "--syntax", "fts"),
         "memory_search", {"query": "handler AND"}),
    Case("fts syntax: unknown column", "InvalidQuery", ("memory", "search", "foo:bar", "--syntax", "fts"),
         "memory_search", {"query": "foo:bar"}),
    Case("fts syntax: unclosed quote", "InvalidQuery", ("search", '"handler', "--syntax", "fts"),
         "memory_search", {"query": '"handler'}),
    Case("query over 500 characters", "InvalidQuery", ("memory", "search", "a" * 501),
         "memory_search", {"query": "a" * 501}),
    Case("query over 1,024 bytes", "InvalidQuery", ("memory", "index", "\U0001f642" * 256 + "a"),
         "memory_index", {"query": "\U0001f642" * 256 + "a"}),
    Case("question over 500 characters", "InvalidQuery", ("ask", "why " * 126),
         "memory_ask", {"question": "why " * 126}),
    Case("blank query", "InvalidQuery", ("memory", "search", "   "), "memory_search", {"query": "   "}),
    Case("unknown fact id", "NotFound", ("get", "99999"), "memory_get", {"ids": [99999]}),
    Case("unknown fact id (memory get)", "NotFound", ("memory", "get", "99999"), "memory_get", {"ids": ["99999"]}),
    Case("unknown timeline anchor", "NotFound", ("memory", "timeline", "99999"),
         "memory_timeline", {"anchor": 99999}),
    Case("confirm an unknown fact", "NotFound", ("confirm", "99999"), "confirm", {"id": 99999}),
    Case("malformed citation", "ValidationError", ("get", "kn://demo/abc"), "memory_get", {"ids": ["kn://demo/abc"]}),
    # alone, another store's citation is read there (`kenning get`, tests/across/test_cited.py);
    # among this project's ids it is refused
    Case("another project's citation", "ScopeDenied", ("get", "1", "kn://elsewhere/1"),
         "memory_get", {"ids": ["1", "kn://elsewhere/1"]}),
    Case("unknown --type (search)", "ValidationError", ("memory", "search", "handler", "--type", "nosuchtype"),
         "memory_search", {"query": "handler", "type_filter": "nosuchtype"}),
    Case("unknown --type (index)", "ValidationError", ("memory", "index", "handler", "--type", "nosuchtype"),
         "memory_index", {"query": "handler", "type_filter": "nosuchtype"}),
    Case("unknown --type (save)", "ValidationError", ("memory", "save", "a new note", "--type", "nosuchtype"),
         "save_memory", {"text": "a new note", "type": "nosuchtype"}),
    Case("unknown --type (remember)", "ValidationError", ("remember", "a new note", "--type", "nosuchtype"),
         "save_memory", {"text": "a new note", "type": "nosuchtype"}),
    Case("path outside the root", "ValidationError", ("graph", "touches", "../etc/passwd"),
         "graph_touches", {"node": "../etc/passwd"}),
    Case("absolute path", "ValidationError", ("graph", "impact", "/etc/passwd"),
         "graph_impact", {"node": "/etc/passwd"}),
    Case("limit below range", "ValidationError", ("memory", "search", "handler", "--limit", "0"),
         "memory_search", {"query": "handler", "limit": 0}),
    Case("limit above range", "ValidationError", ("memory", "index", "handler", "--limit", "21"),
         "memory_index", {"query": "handler", "limit": 21}),
    Case("limit not an integer", "ValidationError", ("memory", "search", "handler", "--limit", "ten"),
         "memory_search", {"query": "handler", "limit": "ten"}),
    Case("search limit below range", "ValidationError", ("search", "handler", "--limit", "0"),
         "memory_search", {"query": "handler", "limit": 0}),
    Case("supersede a file excerpt", "SourceOwned", ("supersede", "{code}", "{note}", "--reason", "x"),
         "supersede", {"old": "{code}", "new": "{note}", "reason": "x"}),
    Case("forget a file excerpt", "SourceOwned", ("forget", "{code}", "--reason", "x"),
         "forget", {"target": "{code}", "reason": "x"}),
    Case("store never synced", "IndexMissing", ("memory", "search", "handler"),
         "memory_search", {"query": "handler"}, store="unsynced"),
    Case("store never synced (get)", "IndexMissing", ("get", "1"), "memory_get", {"ids": [1]}, store="unsynced"),
    Case("damaged store", "StoreUnreadable", ("memory", "search", "handler"),
         "memory_search", {"query": "handler"}, store="damaged"),
    Case("damaged store (search)", "StoreUnreadable", ("search", "handler"),
         "memory_search", {"query": "handler"}, store="damaged"),
    Case("damaged store (save)", "StoreUnreadable", ("memory", "save", "a note"),
         "save_memory", {"text": "a note"}, store="damaged"),
]  # fmt: skip


@pytest.fixture
def stores(make_project, cli) -> dict[str, Any]:
    synced = make_project(FILES, name="demo")
    resync(synced)
    root = ("--project", str(synced.root))
    code = cli("search", "handler helper", "--type", "code", "--json", *root).json()["excerpts"][0]["id"]
    note = cli("remember", "The handler is stable.", "--json", *root).json()["id"]
    unsynced = make_project(FILES, name="fresh")
    damaged = make_project(FILES, name="broken")
    resync(damaged)
    damaged.db_path.write_bytes(b"garbage" * 2000)
    for suffix in ("-wal", "-shm"):
        damaged.db_path.with_name(damaged.db_path.name + suffix).unlink(missing_ok=True)
    return {"synced": synced, "unsynced": unsynced, "damaged": damaged, "code": code, "note": note}


def fill(value: Any, ids: dict[str, Any]) -> Any:
    if isinstance(value, str) and value in ("{code}", "{note}"):
        return ids[value.strip("{}")]
    return value


def state_of(project: Project) -> tuple[bool, str | None, str | None]:
    """Whether the store exists, its change counter (bumped by every fact written) and, for a
    file that is no store, a digest of its bytes: equal before and after means nothing was written."""
    path = project.db_path
    if not path.exists():
        return False, None, None
    counter = version.store_state_at(path)
    return True, counter, None if counter is not None else hashlib.sha256(path.read_bytes()).hexdigest()


def mcp_call(project: Project, tool: str, arguments: dict[str, Any]) -> Any:
    server = build_server(project, clock=lambda: NOW, tools="all")

    async def main() -> Any:
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return await client.call_tool(tool, arguments)

    return anyio.run(main)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_same_bad_input_is_the_same_typed_error_in_the_cli_its_json_and_mcp(case, stores, cli):
    project: Project = stores[case.store]
    before = state_of(project)
    args = [str(fill(a, stores)) for a in case.cli] + ["--project", str(project.root)]

    text = cli(*args)
    as_json = cli(*args, "--json")
    result = mcp_call(project, case.tool, {k: fill(v, stores) for k, v in case.arguments.items()})

    assert result.isError, result.content
    error = result.structuredContent["error"]
    assert set(error) == {"type", "message", "hint"} and error["type"] == case.kind, error
    assert error["message"] and error["hint"]
    assert result.content[0].text == f"error ({error['type']}): {error['message']}\nNext: {error['hint']}"

    expected_code = exit_code(getattr(errors_module, case.kind)("x"))
    hint = cli_hint(error["hint"], args)  # a default hint is worded in each interface's terms
    assert text.code == expected_code, text
    assert text.err == f"error: {error['message']}\nhint: {hint}\n"
    assert text.out == ""
    assert as_json.code == expected_code
    assert json.loads(as_json.out) == {"error": {**error, "hint": hint}}
    assert as_json.err == text.err
    for leaked in ("sqlite", "fts5", "no such column", "not a database", "pydantic", "Input should", "Traceback"):
        assert leaked not in text.err and leaked not in result.content[0].text, leaked
    assert "inputSchema" not in text.err and "memory_index tool" not in text.err  # MCP's terms
    assert "--help" not in result.content[0].text  # the CLI's
    assert state_of(project) == before


def cli_hint(mcp_hint: str, args: list[str]) -> str:
    """The CLI's hint for an error MCP gave MCP_HINT: the same, unless it is one of MCP's own
    wordings of a default, which the CLI words for its command."""
    from kenning.interfaces.cli.main import cli
    from kenning.interfaces.cli.plain import cli_hints
    from kenning.interfaces.cli.usage import command_path
    from kenning.interfaces.mcp.context import MCP_HINTS

    kinds = [kind for kind, worded in MCP_HINTS.items() if worded == mcp_hint]
    return cli_hints(command_path(cli, args))[kinds[0]] if kinds else mcp_hint


def test_a_default_hint_is_worded_for_the_interface_that_shows_it(stores, cli):
    """A CLI user is pointed at the command's --help and `kenning search`, an MCP client at
    the tool's inputSchema and the memory_index tool; a raiser's own hint is shown as given."""
    root = str(stores["synced"].root)
    limit = cli("search", "handler", "--limit", "0", "--project", root)
    assert limit.err.endswith(
        "hint: fix the value named in the message (its bounds are in `kenning search --help`), then retry\n"
    )
    missing = cli("get", "99999", "--project", root)
    assert missing.err.endswith(
        "hint: check the id or name (`kenning search` lists ids, `kenning projects list` projects)\n"
    )
    called = mcp_call(stores["synced"], "memory_get", {"ids": [99999]})
    assert called.structuredContent["error"]["hint"] == "check the id or name (the memory_index tool lists ids)"
    given = errors_module.NotFound("x", hint="look elsewhere")
    assert given.to_json({errors_module.NotFound: "other"})["hint"] == "look elsewhere"
    own = errors_module.InvalidQuery("x")  # a nearer type's own default is kept
    assert own.hint_for({errors_module.UsageError: "other"}) == errors_module.InvalidQuery.default_hint


def test_every_case_has_an_exit_code_of_the_documented_table():
    assert {exit_code(getattr(errors_module, c.kind)("x")) for c in CASES} == {1, 2}


def test_a_click_usage_error_with_json_is_a_usage_error_object(stores, cli):
    result = cli("search", "handler", "--syntax", "nope", "--json", "--project", str(stores["synced"].root))
    assert result.code == 2
    error = json.loads(result.out)["error"]
    assert error["type"] == "UsageError" and "--syntax" in error["message"]
    assert error["hint"] == "see `kenning search --help`"


CLICK_USAGE = [
    pytest.param(("memory", "search", "handler", "--bogus"), "No such option '--bogus'.", id="unknown option"),
    pytest.param(("search", "handler", "--bogus"), "No such option '--bogus'.", id="unknown option (search)"),
    pytest.param(("memory", "search"), "Missing argument 'QUERY'.", id="missing argument"),
    pytest.param(("get",), "Missing argument 'IDS...'.", id="missing argument (get)"),
    pytest.param(("search", "handler", "--syntax", "nope"), "'nope' is not one of 'natural', 'fts'", id="bad choice"),
    pytest.param(("memory", "nosuchstep"), "No such command 'nosuchstep'.", id="unknown subcommand"),
    pytest.param(
        ("graph", "neighbours", "handler", "--edge", "bogus"), "'bogus' is not one of 'depends_on'", id="bad edge"
    ),
    pytest.param(
        ("memory", "save", "x", "--producer", "robot"), "'robot' is not one of 'human', 'agent'", id="bad producer"
    ),
]


@pytest.mark.parametrize(("args", "message"), CLICK_USAGE)
def test_a_click_usage_error_is_a_usage_error_in_text_and_json(args, message, stores, cli):
    """What click detects is kenning's ``UsageError``: exit 2 like every usage error, the hint
    naming the command's --help; ``--json`` prints the error object, and text the same
    ``error:`` and ``hint:`` lines as every typed error (not click's ``Usage:``/``Error:``)."""
    project = stores["synced"]
    before = state_of(project)
    root = ("--project", str(project.root)) if args[-1] != "nosuchstep" else ()
    text = cli(*args, *root)
    as_json = cli(*args, *root, "--json")
    usage = exit_code(errors_module.UsageError("x"))
    command = "kenning " + " ".join(
        args[:2] if args[0] in ("memory", "graph") and args[1] != "nosuchstep" else args[:1]
    )
    assert text.code == usage and as_json.code == usage
    error = json.loads(as_json.out)["error"]
    assert error["type"] == "UsageError" and message in error["message"], error
    assert error["hint"] == f"see `{command} --help`"
    assert as_json.err == f"error: {error['message']}\nhint: {error['hint']}\n"
    assert text.out == "" and text.err == as_json.err
    assert "Usage:" not in text.err and "Error:" not in text.err
    assert state_of(project) == before


def test_a_group_without_its_command_prints_its_help_and_exits_as_a_usage_error(cli):
    shown = cli("memory")
    assert shown.code == exit_code(errors_module.UsageError("x"))
    assert "Commands:" in shown.err and "hint:" not in shown.err  # the help is the hint


def test_an_argument_a_tool_does_not_declare_is_a_usage_error_and_changes_nothing(stores, cli):
    """The SDK drops undeclared arguments silently (``path_filtr`` would search everything);
    kenning refuses them as the CLI refuses an unknown option: same type, same exit code."""
    project = stores["synced"]
    before = state_of(project)
    typo = mcp_call(project, "recall", {"query": "handler", "path_filtr": "src/"})
    write = mcp_call(project, "save_memory", {"text": "a brand new note", "tag": "x", "scope_": "global"})
    cli_twin = cli("memory", "search", "handler", "--path-filtr", "src/", "--json", "--project", str(project.root))
    for result in (typo, write):
        assert result.isError, result.content
        error = result.structuredContent["error"]
        assert error["type"] == "UsageError" == json.loads(cli_twin.out)["error"]["type"]
        assert result.content[0].text == f"error (UsageError): {error['message']}\nNext: {error['hint']}"
        assert exit_code(getattr(errors_module, error["type"])("x")) == cli_twin.code == 2
    assert typo.structuredContent["error"]["message"] == "recall takes no argument `path_filtr`"
    assert "path_filter" in typo.structuredContent["error"]["hint"]
    assert write.structuredContent["error"]["message"] == "save_memory takes no arguments `scope_`, `tag`"
    assert state_of(project) == before
    fine = mcp_call(project, "recall", {"query": "handler", "path_filter": "src/"})
    assert not fine.isError


DOCS = Path(__file__).resolve().parents[1] / "docs" / "errors.md"
SRC = Path(__file__).resolve().parents[1] / "src" / "kenning"


def error_types() -> dict[str, type]:
    return {
        name: value
        for name, value in vars(errors_module).items()
        if isinstance(value, type) and issubclass(value, errors_module.KenningError)
    }


def test_docs_errors_md_lists_every_error_type_with_its_exit_code_and_hint():
    rows = re.findall(r"^\| `(\w+)` \| (?:—|`\w+`) \| (\d+) \| .* \| (.*) \|$", DOCS.read_text(encoding="utf-8"), re.M)
    documented = {name: (int(code), hint) for name, code, hint in rows}
    types = error_types()
    assert set(documented) == set(types)
    for name, kind in types.items():
        assert documented[name] == (exit_code(kind("x")), kind.default_hint), name


def test_every_typed_error_is_declared_in_errors_py():
    """One vocabulary: no module defines its own public error type (``_Private`` ones never
    leave their module)."""
    names = set(error_types())
    stray = []
    for path in SRC.rglob("*.py"):
        if path.name == "errors.py" and path.parent == SRC:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
                if bases & names:
                    stray.append(f"{path.relative_to(SRC)}: {node.name}")
    assert stray == []


@pytest.mark.parametrize("kind", ["CursorRejected", "SkippedStep", "CursorExpired", "SearchEnded"])
def test_a_rejected_cursor_without_its_own_hint_is_worded_for_each_interface(kind, capsys):
    """The guided search is MCP's: its tool is named to an MCP client only; the command line
    names its own steps, and the web API (no interface wording) the neutral default."""
    from kenning.interfaces.cli.plain import report_failure
    from kenning.interfaces.mcp.context import error_reply
    from kenning.interfaces.web.app import error_payload

    error = getattr(errors_module, kind)("this continuation cannot be used")
    mcp = error_reply(error)
    assert mcp.structuredContent["error"]["hint"] == 'restart with mem_search(query=..., mode="guided")'
    assert report_failure(error) == 2
    printed = capsys.readouterr().err
    assert "mem_search(" not in printed and "kenning memory index QUERY" in printed
    web = error_payload(error)["error"]["hint"]
    assert web == errors_module.CursorRejected.default_hint and "mem_search" not in web
