"""Without markdown-it-pyrs (no wheel for Python 3.13 or later) kenning reads Markdown with
markdown-it-py: the same excerpts, and ``kenning status`` says which parser reads.

The native parser is hidden from child processes by a module of the same name, first on
their ``PYTHONPATH``, that refuses to import: the CLI and its parsing pool then run as on an
installation without it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import env_without
from kenning.ingest import markdown_blocks, read

KENNING = str(Path(sys.executable).with_name("kenning"))
ROOT = Path(__file__).resolve().parents[2]

NOTE = """# Note {i}

Intro of note {i}, with `code` and a [link](https://example.org/{i}).

## Setup {i}

```sh
# not a heading: inside a fence
pip install thing-{i}
```

Setext title {i}
----------------

    # indented code, not a heading

### Deep {i} ###
Words about step {i}.
"""


@pytest.fixture
def hidden(tmp_path: Path) -> dict[str, str]:
    """An environment whose Python processes cannot import markdown-it-pyrs."""
    return env_without(tmp_path / "no-native", "markdown_it_pyrs")


def run(args: list[str], env: dict[str, str]) -> str:
    return subprocess.run([KENNING, *args], env=env, capture_output=True, text=True, check=True).stdout


def excerpts(root: Path) -> list[tuple]:
    """What a sync stored for each excerpt, but its dates."""
    with sqlite3.connect(root / ".kenning" / "kenning.db") as conn:
        return conn.execute(
            "SELECT f.type, f.title, f.body, f.keywords, f.path, f.source_uri, f.content_hash, "
            "l.uri, l.line_start, l.line_end FROM facts f JOIN locations l ON l.fact_id = f.id "
            "ORDER BY f.path, l.line_start, l.uri"
        ).fetchall()


def test_the_module_falls_back_to_markdown_it_py(hidden: dict[str, str]) -> None:
    probe = "from kenning.ingest import markdown_blocks as m; print(m.PARSER, m.NATIVE is None, m.blocks.__name__)"
    out = subprocess.run([sys.executable, "-c", probe], env=hidden, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["markdown-it-py", "True", "python_blocks"]


def test_a_sync_without_the_native_parser_stores_the_same_excerpts(make_project, hidden: dict[str, str]) -> None:
    files = {f"docs/{p.name}": p.read_text(encoding="utf-8") for p in sorted((ROOT / "docs").glob("*.md"))}
    files |= {f"notes/n{i:03d}.md": NOTE.format(i=i) for i in range(read.PARALLEL_FROM)}  # enough for the pool
    fallback, native = make_project(files, name="fallback"), make_project(files, name="native")

    report = json.loads(run(["sync", "--no-embed", "--json", "--project", str(fallback.root)], hidden))
    run(["sync", "--no-embed", "--project", str(native.root)], dict(os.environ))

    assert report["files"]["new"] == len(files) and report["coverage"]["skipped"] == {}
    stored = excerpts(fallback.root)
    assert len(stored) > len(files)  # sections, not whole files
    assert stored == excerpts(native.root)
    assert ("notes/n007.md", "Note 7 > Setup 7", "notes/n007.md#setup-7") in {(s[4], s[1], s[5]) for s in stored}


def test_status_names_the_markdown_parser(make_project, hidden: dict[str, str]) -> None:
    project = make_project({"README.md": "# Hi\n"})
    assert json.loads(run(["status", "--json", "--project", str(project.root)], hidden))["parsers"] == {
        "markdown": "markdown-it-py"
    }
    text = run(["status", "--project", str(project.root)], hidden)
    assert "markdown: read by markdown-it-py (markdown-it-pyrs is not installed" in text
    installed = json.loads(run(["status", "--json", "--project", str(project.root)], dict(os.environ)))
    assert installed["parsers"] == {"markdown": markdown_blocks.PARSER}
    if markdown_blocks.NATIVE is not None:
        assert "markdown: read by" not in run(["status", "--project", str(project.root)], dict(os.environ))
