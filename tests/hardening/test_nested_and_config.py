"""Finding 2: a confidential project nested inside a normal one is never indexed as part of
it, and configuration keys that kenning does not know are refused with file, line and the
closest known key."""

from __future__ import annotations

import pytest

from conftest import resync, write_files
from kenning import registry
from kenning.config import init_project, kenning_home, load_project
from kenning.errors import UsageError

CLIENT_SECRET = "zanzibarquartz is the client's merger code name"


def test_a_nested_confidential_project_is_skipped_and_never_answered_across_projects(make_project, cli):
    outer = make_project(
        {"README.md": "# Outer\n\nThe outer project.\n", "notes/plan.md": "# Plan\n\nzanzibarquartz is not here.\n"},
        name="outer",
    )
    client_root = outer.root / "client"
    write_files(client_root, {"deal.md": f"# Deal\n\n{CLIENT_SECRET}.\n"})
    client, _ = init_project(client_root, "client")
    (client.state_dir / "config.toml").write_text('name = "client"\nconfidential = true\n', encoding="utf-8")
    other = make_project({"a.md": "# A\n\nNothing.\n"}, name="other")
    report = resync(outer)
    assert report.skipped["nested_project"] == 1
    resync(load_project(client_root))
    resync(other)
    home = kenning_home()
    for project in (outer, load_project(client_root), other):
        registry.register(home, project.name, project.root)
    answer = cli("ask", "zanzibarquartz merger", "--all-projects", "--json", "--project", str(other.root)).json()
    excluded = {e["project"]: e["reason"] for e in answer["scope"]["excluded"]}
    assert excluded["client"].startswith("confidential")
    uris = [e["source"]["uri"] for e in answer["excerpts"]]
    assert not any("deal" in u for u in uris) and all("merger code" not in e["snippet"] for e in answer["excerpts"])
    found = cli("search", "merger", "--json", "--project", str(outer.root)).json()
    assert found["excerpts"] == []


@pytest.mark.parametrize(
    ("text", "line", "advice"),
    [
        ('name = "p"\n\n[pack]\nbudget_tokens = 1500\nconfidential = true\n', 5, "top-level key"),
        ('name = "p"\nconfidentail = true\n', 2, "did you mean `confidential`"),
        ('name = "p"\n[pack]\nbudget = 9\n', 3, "did you mean `pack.budget_tokens`"),
        ('name = "p"\n[serch]\nk = 1\n', 2, "known keys"),
        ('name = "p"\nreviewed = 2026-11-29\n', 2, "known keys"),
    ],
)
def test_an_unknown_configuration_key_is_refused_with_file_line_and_closest_key(make_project, text, line, advice):
    project = make_project({"a.md": "# A\n"}, name="p")
    config = project.state_dir / "config.toml"
    config.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_project(project.root)
    assert f"{config}:{line}: unknown configuration key" in caught.value.message
    assert advice in caught.value.message


def test_confidential_must_be_a_boolean(make_project):
    project = make_project({"a.md": "# A\n"}, name="p")
    (project.state_dir / "config.toml").write_text('name = "p"\nconfidential = "no"\n', encoding="utf-8")
    with pytest.raises(UsageError, match="true or false"):
        load_project(project.root)
