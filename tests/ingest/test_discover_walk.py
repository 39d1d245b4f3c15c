"""Discovery outside git: the walk lists what ``git ls-files --others --exclude-standard``
lists for the same tree (git is the reference for ``.gitignore`` rules), and finds nested
projects and links to folders the way the product's rules say."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from kenning.ingest.discover import _walk, discover

TREE = {
    ".gitignore": "*.log\nbuild/\n/only-top.md\n!keep.log\n",
    "README.md": "# r\n",
    "only-top.md": "ignored at the top only\n",
    "keep.log": "kept by a negation\n",
    "noise.log": "ignored\n",
    "build/out.md": "ignored folder\n",
    "docs/only-top.md": "kept: the rule is anchored\n",
    "docs/guide.md": "# g\n",
    "docs/.gitignore": "draft-*\n!draft-keep.md\nsecret/\n",
    "docs/draft-1.md": "ignored below docs\n",
    "docs/draft-keep.md": "kept by docs' negation\n",
    "docs/secret/a.md": "ignored folder below docs\n",
    "docs/deep/er/draft-2.md": "ignored: docs' rule applies below it\n",
    "docs/deep/er/note.md": "kept\n",
    "src/app.py": "x = 1\n",
    "src/build/gen.py": "ignored: build/ matches at any depth\n",
    "other/draft-3.md": "kept: docs' rule does not reach here\n",
}


def _write(root: Path) -> None:
    for rel, text in TREE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_walk_lists_what_git_lists_for_the_same_ignore_rules(tmp_path):
    _write(tmp_path)
    listed, nested, _ = _walk(tmp_path)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    git = subprocess.run(
        ["git", "-C", str(tmp_path), "ls-files", "-z", "--others", "--exclude-standard"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert listed == sorted(n for n in git.split("\0") if n)
    assert "keep.log" in listed and "docs/deep/er/note.md" in listed and "docs/draft-1.md" not in listed
    assert nested == set()


def test_the_walk_finds_nested_projects_and_neither_follows_nor_lists_links_to_folders(tmp_path):
    _write(tmp_path)
    (tmp_path / "client" / ".kenning").mkdir(parents=True)
    (tmp_path / "client" / ".kenning" / "config.toml").write_text('name = "client"\n', encoding="utf-8")
    (tmp_path / "client" / "deal.md").write_text("# d\n", encoding="utf-8")
    (tmp_path / "plain" / ".kenning").mkdir(parents=True)  # a state folder without a config
    (tmp_path / "plain" / "p.md").write_text("# p\n", encoding="utf-8")
    os.symlink(tmp_path / "docs", tmp_path / "docs-link")
    os.symlink(tmp_path / "README.md", tmp_path / "readme-link.md")
    os.symlink(tmp_path / "missing.md", tmp_path / "broken.md")
    listed, nested, _ = _walk(tmp_path)
    assert nested == {"client"}
    assert "client/deal.md" in listed and "plain/p.md" in listed
    assert not any(rel.startswith(("docs-link", "client/.kenning", "plain/.kenning")) for rel in listed)
    assert "readme-link.md" in listed and "broken.md" in listed  # judged by discover: link rules


def test_the_walk_leaves_out_installed_packages_caches_and_virtual_environments(tmp_path, make_project):
    """Outside git, a folder of other people's code or a tool's output is not walked, and counted;
    a folder that only shares a venv's usual name is walked (a venv is known by its pyvenv.cfg)."""
    project = make_project(
        {
            "app.py": "x = 1\n",
            "node_modules/left-pad/index.js": "module.exports = 1;\n",
            "web/node_modules/react/index.js": "module.exports = 2;\n",
            "src/__pycache__/app.md": "# cached\n",
            "demo.egg-info/SOURCES.txt": "app.py\n",
            ".venv/pyvenv.cfg": "home = /usr/bin\n",
            ".venv/lib/site.py": "y = 2\n",
            "tools/py/pyvenv.cfg": "home = /usr/bin\n",
            "tools/py/lib/os.py": "z = 3\n",
            "env/settings.py": "DEBUG = True\n",  # no pyvenv.cfg: the project's own folder
        },
        name="plain",
    )
    listed, _, dependencies = _walk(project.root)
    assert [p for p in listed if not p.startswith(".kenning/")] == ["app.py", "env/settings.py"]
    assert dependencies == 6
    found = discover(project)
    assert found.method == "walk"
    assert sorted(c.path for c in found.candidates) == ["app.py", "env/settings.py"]
    assert found.skipped["dependency_folder"] == 6
