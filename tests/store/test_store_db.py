from __future__ import annotations

import pytest

from kenning.store.db import connect


def test_a_write_while_another_process_holds_the_store_is_a_typed_busy_error(tmp_path):
    from kenning.errors import StoreBusy
    from kenning.store.db import transaction

    holder = connect(tmp_path / "k.db", create=True)
    holder.execute("BEGIN IMMEDIATE")
    other = connect(tmp_path / "k.db")
    other.execute("PRAGMA busy_timeout = 50")
    with pytest.raises(StoreBusy, match="busy"), transaction(other):
        pass
    holder.execute("ROLLBACK")
    with transaction(other):
        pass


def test_a_save_made_while_a_long_sync_writes_waits_for_it_and_lands(make_project, cli):
    """A cold sync of a big project holds the write lock for several seconds; a memory saved
    meanwhile (CLI, MCP, hook) waits instead of failing after the old 5 s."""
    import threading
    import time

    from kenning.store.db import transaction

    project = make_project({"docs/a.md": "# A\n\nText.\n"})
    assert cli("sync", "--project", str(project.root)).code == 0
    holder = connect(project.db_path)
    locked = threading.Event()

    def hold() -> None:
        with transaction(holder):
            locked.set()
            time.sleep(5.5)

    thread = threading.Thread(target=hold)
    thread.start()
    locked.wait()
    started = time.monotonic()
    saved = cli("remember", "the store waits for writers", "--project", str(project.root), "--json")
    waited = time.monotonic() - started
    thread.join()
    assert saved.code == 0, saved.err
    assert waited > 5
    assert cli("get", str(saved.json()["id"]), "--project", str(project.root)).code == 0
