"""The MCP contract, tool by tool, through the SDK's client: every tool of `all` declares an
output schema, read-only/destructive hints and input limits; every schema violation comes
back as a typed error result (never pydantic's raw text); missing resources read cleanly."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp.shared.exceptions import McpError
from mcp.shared.memory import create_connected_server_and_client_session

from conftest import NOW, resync
from kenning.interfaces.mcp.server import build_server


def listed(server) -> list[Any]:
    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            return (await client.list_tools()).tools

    return anyio.run(main)


def unbounded(name: str, schema: dict) -> list[str]:
    """Paths of properties (and array items) without a limit: strings need maxLength (or an enum),
    integers minimum and maximum, arrays maxItems."""
    problems = []
    if "anyOf" in schema:
        for i, option in enumerate(schema["anyOf"]):
            problems += unbounded(f"{name}|{i}", option)
        return problems
    kinds = schema.get("type")
    kinds = set(kinds if isinstance(kinds, list) else [kinds])
    if "string" in kinds and "maxLength" not in schema and "enum" not in schema:
        problems.append(f"{name}: string without maxLength")
    if "integer" in kinds and not {"minimum", "maximum"} <= set(schema) and "enum" not in schema:
        problems.append(f"{name}: integer without minimum and maximum")
    if "array" in kinds:
        if "maxItems" not in schema:
            problems.append(f"{name}: array without maxItems")
        problems += unbounded(f"{name}[]", schema.get("items", {}))
    return problems


def test_every_tool_declares_output_schema_annotations_and_input_limits(tmp_path, make_project):
    tools = listed(build_server(make_project({"a.md": "# A\n"}), tools="all"))
    assert len(tools) == 19
    missing = []
    for tool in tools:
        if not tool.outputSchema or tool.outputSchema.get("type") != "object":
            missing.append(f"{tool.name}: no outputSchema")
        hints = tool.annotations
        if hints is None or hints.readOnlyHint is None or hints.destructiveHint is None:
            missing.append(f"{tool.name}: readOnlyHint/destructiveHint missing")
        elif hints.readOnlyHint and hints.destructiveHint:
            missing.append(f"{tool.name}: read-only and destructive")
        for prop, schema in tool.inputSchema.get("properties", {}).items():
            missing += [f"{tool.name}.{p}" for p in unbounded(prop, schema)]
        if len(tool.description or "") > 420 and tool.name != "mem_search":
            missing.append(f"{tool.name}: description over 420 characters")
    assert missing == []
    by_name = {t.name: t for t in tools}
    assert by_name["forget"].annotations.destructiveHint is True
    assert {n for n, t in by_name.items() if not t.annotations.readOnlyHint} == {
        "save_memory",
        "supersede",
        "confirm",
        "forget",
    }


def violations(schema: dict) -> list[tuple[str, Any]]:
    """One schema-violating value per property: past a bound, or of the wrong kind."""
    out = []
    for prop, spec in schema.get("properties", {}).items():
        kinds = spec.get("type")
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if "enum" in spec:
            out.append((prop, "not-a-choice"))
        elif "string" in kinds:
            out.append((prop, "x" * (spec["maxLength"] + 1)))
        elif "integer" in kinds:
            out.append((prop, spec["maximum"] + 1))
        elif "array" in kinds:
            out.append((prop, [1] * (spec["maxItems"] + 1)))
        elif "boolean" in kinds:
            out.append((prop, {"not": "a boolean"}))
        elif "anyOf" in spec:
            out.append((prop, {"not": "an id"}))
    return out


def test_schema_violations_are_typed_error_results_for_every_tool(make_project):
    project = make_project({"a.md": "# A\n\nSome text.\n"})
    resync(project)
    server = build_server(project, clock=lambda: NOW, tools="all")

    async def main():
        results = []
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            for tool in (await client.list_tools()).tools:
                cases = violations(tool.inputSchema)
                if tool.inputSchema.get("required"):
                    cases.append(("(required omitted)", None))
                for prop, value in cases:
                    arguments = {} if value is None else {prop: value}
                    results.append((tool.name, prop, await client.call_tool(tool.name, arguments)))
        return results

    results = anyio.run(main)
    assert len({name for name, _, _ in results}) == 18  # core_pack takes no argument to violate
    bad = []
    for name, prop, result in results:
        body = "\n".join(b.text for b in result.content if b.type == "text")
        error = (result.structuredContent or {}).get("error", {})
        # free text over its budget is the core's InvalidQuery, worded as the CLI words it
        kind, start = ("InvalidQuery", "the text is ") if prop in ("query", "question") else ("ValidationError", "`")
        if not (
            result.isError
            and error.get("type") == kind
            and error.get("message")
            and error.get("hint")
            and body.splitlines()[-1].startswith("Next: ")
            and "pydantic" not in body
            and body.startswith(f"error ({kind}): {start}")
        ):
            bad.append((name, prop, body[:200]))
    assert bad == []


def test_unknown_tool_and_core_errors_are_typed(make_project):
    project = make_project({"a.md": "# A\n"})
    resync(project)
    server = build_server(project, clock=lambda: NOW, tools="default")

    async def main():
        async with create_connected_server_and_client_session(server._mcp_server) as client:
            unknown = await client.call_tool("forget", {"target": 1, "reason": "x"})
            scope = await client.call_tool("memory_get", {"ids": ["kn://elsewhere/3"]})
            with pytest.raises(McpError) as missing:
                await client.read_resource(f"kn://{project.name}/999")
            return unknown, scope, missing.value

    unknown, scope, missing = anyio.run(main)
    assert unknown.isError and unknown.structuredContent["error"]["type"] == "NotFound"
    assert "--tools all" in unknown.structuredContent["error"]["hint"]
    assert scope.isError and scope.structuredContent["error"]["type"] == "ScopeDenied"
    assert scope.content[0].text.splitlines()[-1].startswith("Next: ")
    message = str(missing)
    assert message.startswith("error (NotFound): no fact #999") and message.count("Error") == 0
