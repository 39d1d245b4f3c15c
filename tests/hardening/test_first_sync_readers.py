"""Finding 6: a project's first sync while readers open the store, with real processes.
Readers never migrate: until the sync's schema lands they get a typed IndexMissing or
StoreOutdated, and the sync (the only migrator) never meets a half-made schema."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import write_files
from kenning.config import init_project

READER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from kenning.errors import KenningError
    from kenning.store.db import connect
    db, stop = Path(sys.argv[1]), Path(sys.argv[2])
    typed = answered = 0
    while not stop.exists():
        if not db.exists():
            time.sleep(0.002)
            continue
        try:
            conn = connect(db)
            try:
                conn.execute("SELECT count(*) FROM facts").fetchone()
                answered += 1
            finally:
                conn.close()
        except KenningError:
            typed += 1
    print(typed, answered)
""")
SYNC = "import sys; from kenning.interfaces.cli.entry import run; run(['sync', '--project', sys.argv[1]])"
MIGRATOR = textwrap.dedent("""
    import sys
    from pathlib import Path
    from kenning.store.db import connect
    connect(Path(sys.argv[1]), create=True).close()
""")


def test_first_syncs_with_readers_and_a_second_writer_never_fail(tmp_path: Path) -> None:
    failures = []
    for trial in range(4):
        root = tmp_path / f"p{trial}"
        write_files(root, {f"docs/d{i}.md": f"# Doc {i}\n\nText {i}.\n" for i in range(30)})
        project, _ = init_project(root, f"p{trial}")
        stop = tmp_path / f"stop{trial}"
        readers = [
            subprocess.Popen(
                [sys.executable, "-c", READER, str(project.db_path), str(stop)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        writer = subprocess.Popen(
            [sys.executable, "-c", MIGRATOR, str(project.db_path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        sync = subprocess.run([sys.executable, "-c", SYNC, str(root)], capture_output=True, text=True, timeout=120)
        writer_out = writer.communicate(timeout=60)
        stop.touch()
        outs = [r.communicate(timeout=60) for r in readers]
        if sync.returncode != 0:
            failures.append(f"sync {trial}: {sync.stderr[-300:]}")
        if writer.returncode != 0:
            failures.append(f"second writer {trial}: {writer_out[1][-300:]}")
        for reader, (_, err) in zip(readers, outs, strict=True):
            if reader.returncode != 0:
                failures.append(f"reader {trial}: {err[-300:]}")
    assert failures == []
