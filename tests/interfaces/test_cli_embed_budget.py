"""`--embed-budget` is refused where it cannot apply, before anything is written: beside
`--no-embed`, on `kenning init` without `--sync`, below zero."""

from __future__ import annotations

import pytest

from conftest import write_files


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["sync", "--no-embed", "--embed-budget", "60"], "give one of them"),
        (["init", "--sync", "--no-embed", "--embed-budget", "60"], "give one of them"),
        (["init", "--embed-budget", "60"], "use it with --sync"),
        (["sync", "--embed-budget", "-1"], "not in the range"),
        (["sync", "--embed-budget", "soon"], "not a valid float"),
    ],
)
def test_embed_budget_where_it_cannot_apply_is_a_usage_error_that_writes_nothing(
    cli, tmp_path, monkeypatch, args, said
):
    monkeypatch.setenv("KENNING_HOME", str(tmp_path / "home"))
    root = tmp_path / "p"
    write_files(root, {"docs/a.md": "# A\n\nWords.\n"})
    if args[0] == "sync":
        assert cli("init", "--project", str(root)).code == 0
    before = sorted(p.name for p in (root / ".kenning").iterdir()) if (root / ".kenning").exists() else None
    done = cli(*args, "--project", str(root))
    assert done.code == 2 and said in done.err and done.out == ""
    after = sorted(p.name for p in (root / ".kenning").iterdir()) if (root / ".kenning").exists() else None
    assert after == before and not (root / ".kenning" / "kenning.db").exists()
