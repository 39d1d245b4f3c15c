"""Every cascading foreign key has an index leading with its column (issue 20, finding 7):
without one, deleting a parent row scans the whole child table."""

from __future__ import annotations

from pathlib import Path

from kenning.store.db import connect


def test_every_foreign_key_column_leads_an_index(tmp_path: Path) -> None:
    conn = connect(tmp_path / "k.db", create=True)
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    missing = []
    for table in tables:
        leading = set()
        for index in conn.execute(f"PRAGMA index_list('{table}')").fetchall():
            cols = conn.execute(f"PRAGMA index_info('{index['name']}')").fetchall()
            if cols:
                leading.add(cols[0]["name"])
        pk = [r["name"] for r in conn.execute(f"PRAGMA table_info('{table}')") if r["pk"] == 1]
        leading.update(pk)
        for fk in conn.execute(f"PRAGMA foreign_key_list('{table}')").fetchall():
            if fk["on_delete"] == "CASCADE" and fk["from"] not in leading:
                missing.append(f"{table}.{fk['from']}")
    assert missing == []
