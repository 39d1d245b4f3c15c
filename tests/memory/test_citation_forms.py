"""One citation parser: the CLI and the MCP tools accept the same id forms and refuse the same
inputs with the same typed error."""

from __future__ import annotations

import pytest
from memory_helpers import Clock, call, make_server, save_direct

from conftest import resync
from kenning.citation import format_citation, parse_fact_ref
from kenning.errors import ScopeDenied, ValidationError

NOW_FILES = {"docs/guide.md": "# Guide\n\nThe retry budget is three attempts.\n"}


@pytest.fixture
def saved(make_project):
    from conftest import NOW

    project = make_project(NOW_FILES)
    resync(project)
    clock = Clock(NOW)
    fact_id = save_direct(project, clock, "Deploys run from the release branch only.")
    return project, make_server(project, clock), fact_id


def _forms(project_name: str, fact_id: int) -> list[object]:
    return [fact_id, str(fact_id), f" {fact_id} ", f"#{fact_id}", format_citation(project_name, fact_id)]


def test_every_accepted_form_reads_the_same_fact_on_both_interfaces(saved, cli):
    project, server, fact_id = saved
    for form in _forms(project.name, fact_id):
        assert parse_fact_ref(form, project.name) == fact_id
        mcp = call(server, "memory_get", ids=[form])
        assert not mcp.isError and [f["id"] for f in mcp.structuredContent["facts"]] == [fact_id], form
        if isinstance(form, str):
            out = cli("memory", "get", form, "--project", str(project.root), "--json")
            assert out.code == 0, (form, out.err)
            assert [f["id"] for f in out.json()["facts"]] == [fact_id]


@pytest.mark.parametrize(
    ("raw", "error"),
    [
        ("kn://elsewhere/3", ScopeDenied),
        ("abc", ValidationError),
        ("0", ValidationError),
        ("kn://demo/x", ValidationError),
        ("##4", ValidationError),
        ("4.0", ValidationError),
    ],
)
def test_the_same_inputs_are_refused_with_the_same_typed_error(saved, cli, raw, error):
    project, server, _ = saved
    with pytest.raises(error):
        parse_fact_ref(raw, project.name)
    # Alone, another store's citation is read from that store (CLI get; MCP with the cross-project
    # switch, across/cited.py); among this project's ids it is refused by the parser, everywhere.
    ids = ["1", raw] if error is ScopeDenied else [raw]
    mcp = call(server, "memory_get", ids=ids)
    assert mcp.isError and mcp.structuredContent["error"]["type"] == error.__name__
    out = cli("memory", "get", *ids, "--project", str(project.root))
    assert out.code == (1 if error is ScopeDenied else 2) and out.err.startswith("error: ")
    assert ("belongs to project 'elsewhere'" in out.err) == (error is ScopeDenied)
