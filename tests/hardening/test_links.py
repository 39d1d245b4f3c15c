"""Finding 1: a README that links outside the project never reaches an answer. The sync skips
it (``link_outside_root``); the pack, the session-start hook, MCP ``core_pack`` and freshness
apply the same rule (``kenning.files.inside_root``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "memory"))

from memory_helpers import Clock, call, make_server, text  # noqa: E402

from conftest import NOW, resync  # noqa: E402

SECRET = "root:x:0:0:SECRET-OUTSIDE-THE-PROJECT:/root:/bin/bash"


def _linked_project(make_project, tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "passwd").write_text(SECRET + "\n", encoding="utf-8")
    project = make_project(
        {
            "docs/guide.md": "# Guide\n\nHow to run the tool.\n",
            "CONTRIBUTING.md": "# Contributing\n\nUse four spaces.\n",
        }
    )
    os.symlink(outside / "passwd", project.root / "README.md")
    return project


def test_a_readme_linked_outside_the_root_is_neither_synced_nor_packed(make_project, tmp_path, cli):
    project = _linked_project(make_project, tmp_path)
    report = resync(project)
    assert report.skipped.get("link_outside_root") == 1
    assert cli("pack", "build", "--project", str(project.root)).code == 0
    assert SECRET not in (project.state_dir / "cache" / "pack.md").read_text(encoding="utf-8")
    hook = cli("hook", "session-start", "--plain", "--project", str(project.root))
    assert hook.code == 0 and "four spaces" in hook.out
    assert SECRET not in hook.out
    result = call(make_server(project, Clock(NOW)), "core_pack")
    assert not result.isError and SECRET not in text(result)


def test_a_configured_context_linked_outside_is_refused(make_project, tmp_path, cli):
    project = _linked_project(make_project, tmp_path)
    os.symlink(tmp_path / "outside" / "passwd", project.root / "docs" / "intro.md")
    config = project.state_dir / "config.toml"
    config.write_text(config.read_text(encoding="utf-8") + 'context = "docs/intro.md"\n', encoding="utf-8")
    resync(project)
    result = cli("pack", "build", "--project", str(project.root))
    assert result.code == 2 and "inside the project" in result.err
    assert SECRET not in result.out + result.err


def test_freshness_does_not_read_a_file_replaced_by_a_link_out(make_project, tmp_path, cli):
    project = _linked_project(make_project, tmp_path)
    resync(project)
    guide = project.root / "docs" / "guide.md"
    (tmp_path / "outside" / "guide.md").write_bytes(guide.read_bytes())  # same bytes, outside
    guide.unlink()
    os.symlink(tmp_path / "outside" / "guide.md", guide)
    found = cli("search", "run the tool", "--json", "--project", str(project.root))
    answer = found.json()
    assert answer["excerpts"] == [] and answer["filtered"] == {"source_missing": 1}


def _inside_then_stat(root_real: str, rel: str) -> tuple[str, object]:
    from kenning.files import inside_root

    full = os.path.join(root_real, rel)
    try:
        if inside_root(root_real, full) is None:
            return ("outside", None)
        info = os.stat(full)
    except OSError as exc:
        return ("error", type(exc))
    return ("inside", (info.st_ino, info.st_size, info.st_mtime_ns))


def _stat_inside(root_real: str, rel: str) -> tuple[str, object]:
    from kenning.files import stat_inside

    try:
        info = stat_inside(root_real, rel)
    except OSError as exc:
        return ("error", type(exc))
    if info is None:
        return ("outside", None)
    return ("inside", (info.st_ino, info.st_size, info.st_mtime_ns))


def test_the_freshness_stat_follows_the_root_and_link_rule_of_inside_root(tmp_path):
    root = tmp_path / "root"
    (root / "docs" / "deep").mkdir(parents=True)
    (root / "docs" / "deep" / "page.md").write_text("page\n", encoding="utf-8")
    (root / "top.md").write_text("top\n", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(SECRET + "\n", encoding="utf-8")
    os.symlink(root / "top.md", root / "inner-link.md")  # a link that stays inside
    os.symlink(outside / "secret.md", root / "docs" / "out-link.md")  # a file link leaving the root
    os.symlink(outside, root / "docs" / "out-dir")  # a folder link leaving the root
    os.symlink(root / "docs" / "deep", root / "deep-link")  # a folder link that stays inside
    os.symlink(root / "nowhere", root / "dangling.md")
    real = os.path.realpath(root)
    cases = [
        "top.md",
        "docs/deep/page.md",
        "docs",
        "inner-link.md",
        "docs/out-link.md",
        "docs/out-dir/secret.md",
        "deep-link/page.md",
        "dangling.md",
        "missing.md",
        "docs/missing/page.md",
        "docs/../top.md",
        "docs/./deep/page.md",
        "../outside/secret.md",
    ]
    for rel in cases:
        assert _stat_inside(real, rel) == _inside_then_stat(real, rel), rel
    assert _stat_inside(real, "docs/out-link.md") == ("outside", None)
    assert _stat_inside(real, "docs/deep/page.md")[0] == "inside"
