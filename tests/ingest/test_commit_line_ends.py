"""A commit message written with Windows line ends (httpx has hundreds: ``…ASGITransport\\r\\n``)
is read with plain ones (branch walk4): ``kenning get`` showed ``\\x0d`` at the end of every line
of the message, and the excerpt's words kept the carriage returns."""

from __future__ import annotations

import json
import subprocess

from conftest import commit_all, git, resync


def test_a_commit_message_with_windows_line_ends_reads_with_plain_ones(cli, make_project):
    project = make_project({"docs/a.md": "# A\n\nText.\n"}, name="crlf")
    commit_all(project.root, "Initial import")
    (project.root / "docs" / "b.md").write_text("# B\n\nMore.\n")
    git(project.root, "add", "-A")
    git(project.root, "commit", "-q", "--cleanup=verbatim", "-m", "Deprecate app\r\n\r\n* Linting\r\n* Docs\r\n")
    raw = subprocess.run(["git", "-C", str(project.root), "log", "-1", "--format=%B"], capture_output=True, check=True)
    assert b"\r\n" in raw.stdout  # git kept them
    resync(project)
    found = cli("search", "Deprecate app linting", "--project", str(project.root), "--json", "--type", "commit")
    assert found.code == 0, found.err
    (excerpt,) = json.loads(found.out)["excerpts"]
    shown = cli("get", excerpt["citation"], "--project", str(project.root))
    assert shown.code == 0, shown.err
    assert "\\x0d" not in shown.out and "\r" not in shown.out
    assert "Deprecate app\n\n* Linting\n* Docs" in shown.out
