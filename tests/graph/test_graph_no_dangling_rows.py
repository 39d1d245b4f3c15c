"""No sync leaves a reference or an edge naming a node or a reference that is gone (migration
0024: the graph's foreign keys are gone, their cascades kept by triggers). A file edited, removed,
renamed, a test removed, the ledger rewritten: after each sync every row still names what is
there, and what named the removed nodes went with them."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from graph_edges import dangling

from kenning import ledger
from kenning.sync.run import sync

NOW = datetime(2026, 12, 4, 12, 0, tzinfo=UTC)
CONFIG = 'name = "demo"\n\n[dense]\nenabled = false\n'
FILES = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def parse(text):\n    return text.split()\n\n\nclass Reader:\n    def read(self, path):\n"
    "        return parse(path)\n",
    "pkg/cli.py": "from pkg.core import Reader, parse\n\n\ndef main(argv):\n"
    "    return Reader().read(argv[0]) or parse('')\n",
    "tests/test_core.py": "from pkg.core import parse\n\n\ndef test_parse():\n    assert parse('a b') == ['a', 'b']\n",
    "README.md": "# Demo\n\nThe reader is in [core](pkg/core.py), the entry point in [cli](pkg/cli.py).\n",
}


def _rows(project) -> tuple[list[tuple[str, int]], int, int, set[str]]:
    """The dangling rows, the counts of references and edges, and every node's key."""
    conn = sqlite3.connect(f"file:{project.db_path}?mode=ro", uri=True)
    try:
        refs = conn.execute("SELECT count(*) FROM graph_refs").fetchone()[0]
        edges = conn.execute("SELECT count(*) FROM graph_edges").fetchone()[0]
        keys = {row[0] for row in conn.execute("SELECT key FROM graph_nodes")}
        return dangling(conn), refs, edges, keys
    finally:
        conn.close()


def test_no_sync_leaves_a_row_naming_what_is_gone(make_project):
    project = make_project(FILES, config=CONFIG)
    root = project.root
    ledger.append(
        project.state_dir / ledger.LEDGER_NAME,
        {"kind": "task", "id": "T-1", "title": "Split", "touches": ["pkg/cli.py"]},
    )
    sync(project, now=NOW, embed=False)
    found, refs, edges, keys = _rows(project)
    assert found == [] and refs > 0 and edges > 0
    assert {"symbol:pkg/core.py:Reader.read", "task:T-1"} <= keys

    # A method called from another file goes: its node, its edges (the call to it) go with it.
    (root / "pkg/core.py").write_text("def parse(text):\n    return text.split()\n", encoding="utf-8")
    sync(project, now=NOW, embed=False)
    found, _, _, keys = _rows(project)
    assert found == [] and "symbol:pkg/core.py:Reader.read" not in keys

    # A file removed, another renamed: their nodes, references and edges go.
    (root / "tests/test_core.py").unlink()
    (root / "pkg/cli.py").rename(root / "pkg/main.py")
    sync(project, now=NOW, embed=False)
    found, _, _, keys = _rows(project)
    assert found == []
    assert not any(key.endswith(("tests/test_core.py", "pkg/cli.py")) or ":pkg/cli.py:" in key for key in keys)

    # The ledger rewritten: the task's node and its references go.
    (project.state_dir / ledger.LEDGER_NAME).write_text("", encoding="utf-8")
    sync(project, now=NOW, embed=False)
    found, _, _, keys = _rows(project)
    assert found == [] and "task:T-1" not in keys
