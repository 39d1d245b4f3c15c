"""Every row of a kenning SQLite store as text, to compare two stores line by line (not a test).

Each table in rowid order (ids included; ``schema_migrations`` without its wall-clock
``applied_at``), the FTS5 indexes' logical content (their ``fts5vocab`` ``instance`` rows: the
``_data``/``_idx`` segments depend on where the commits fell), a hash of ``sqlite_master``,
``PRAGMA integrity_check`` and ``foreign_key_check``. Sync both stores with the same
``KENNING_NOW`` from copies with the same mtimes (``cp -a``), then ``cmp`` or ``diff`` the dumps:

    .venv/bin/python bench/store_dump.py A/.kenning/kenning.db /tmp/a.dump
"""

from __future__ import annotations

import hashlib
import sqlite3
import sys

FTS = ("facts_fts", "facts_trigram")


def dump(db: str) -> list[str]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    conn.create_function("kenning_text", 1, lambda body: body)  # the view's functions, unused here
    conn.create_function("kenning_keywords", 2, lambda body, keywords: keywords)
    schema = "\n".join(row[0] or "" for row in conn.execute("SELECT sql FROM sqlite_master ORDER BY type, name"))
    lines = ["schema " + hashlib.sha256(schema.encode()).hexdigest()]
    for (table,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall():
        if table.endswith(("_data", "_idx")) and table.rsplit("_", 1)[0] in FTS:
            continue
        try:
            rows = conn.execute(f'SELECT * FROM "{table}" ORDER BY rowid').fetchall()
        except sqlite3.OperationalError:  # a table without rowid
            rows = conn.execute(f'SELECT * FROM "{table}" ORDER BY 1').fetchall()
        if table == "schema_migrations":
            rows = [row[:2] for row in rows]
        lines.append(f"## {table} {len(rows)}")
        lines.extend(map(repr, rows))
    for fts in FTS:
        conn.execute(f"CREATE VIRTUAL TABLE temp.vocab_{fts} USING fts5vocab(main, {fts}, instance)")
        rows = conn.execute(f"SELECT * FROM temp.vocab_{fts} ORDER BY term, doc, col, offset").fetchall()
        lines.append(f"## vocab {fts} {len(rows)}")
        lines.extend(map(repr, rows))
    lines.append("integrity " + conn.execute("PRAGMA integrity_check").fetchone()[0])
    lines.append("foreign keys " + repr(conn.execute("PRAGMA foreign_key_check").fetchall()))
    conn.close()
    return lines


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    lines = dump(sys.argv[1])
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        out.write("\n".join(lines) + "\n")
    print(f"{sys.argv[2]}: {len(lines)} lines")


if __name__ == "__main__":
    main()
