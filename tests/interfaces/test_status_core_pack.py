"""Right after `kenning init --sync`, `kenning status` listed `degraded: core_pack: core pack not
built …` (branch cuts8). The core pack is built on request (`kenning pack build`, SPEC §8), never
by a sync: on a fresh project its absence is a step to take, said on its own `core pack:` line
with the command, not an alarm among the `degraded:` lines, nor in the cockpit's degradations.
The JSON keeps it in `degradations` (a question about the project frame is answered by its words
until then); a pack that cannot be read is still degraded."""

from __future__ import annotations

from starlette.testclient import TestClient

from conftest import NOW
from kenning.config import load_project
from kenning.interfaces.web.app import create_app

NOT_BUILT = "core pack not built: run `kenning pack build`"
STEP = "core pack: not built yet: run `kenning pack build` (the project core agents are given at session start)"


def test_a_fresh_project_says_its_core_pack_is_not_built_without_an_alarm(cli, tmp_path, isolated_home):
    root = tmp_path / "fresh"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "a.md").write_text("# A\n\nConventions: short functions.\n")
    assert cli("init", str(root), "--sync", "--no-embed").code == 0
    where = ("--project", str(root))
    text = cli("status", *where).out.splitlines()
    assert STEP in text, text
    assert not [line for line in text if line.startswith("degraded: core_pack")], text
    data = cli("status", "--json", *where).json()
    assert f"core_pack: {NOT_BUILT}" in data["degradations"]  # the JSON as it was
    assert data["engines"]["core_pack"] == {"available": False, "reason": NOT_BUILT}
    client = TestClient(
        create_app(load_project(root), home=isolated_home, clock=lambda: NOW), base_url="http://127.0.0.1"
    )
    page = client.get("/status").text
    degradations = page.split("<h2>Degradations</h2>", 1)[1].split("<h2>", 1)[0]
    assert "core pack" not in degradations, degradations

    assert cli("pack", "build", *where).code == 0
    built = cli("status", *where).out
    assert "core pack:" not in built and "core_pack on" in built, built

    (root / ".kenning" / "cache" / "pack.json").write_text("{not json")
    broken = cli("status", *where).out.splitlines()
    assert any(line.startswith("degraded: core_pack: core pack unreadable") for line in broken), broken
