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
    with pytest.raises(StoreBusy, match="busy"):
        with transaction(other):
            pass
    holder.execute("ROLLBACK")
    with transaction(other):
        pass
