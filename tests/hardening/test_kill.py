"""Crash safety (issue 20, finding 5 and must-show 1, bounded): 20 SIGKILLs at random moments,
to the sync's main process and to its whole process group, on a 210-file corpus whose edits
make every other sync use the process pool."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import _kill  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for the process group")


def test_twenty_kills_leave_a_sound_store_no_worker_and_converge(tmp_path):
    outcome = _kill.run(tmp_path / "corpus", tmp_path, kills=20, files=210, seed=20, stop_on_failure=True)
    print(outcome)
    assert outcome.kills == 20 and outcome.by_mode == {"main": 10, "group": 10}
    assert outcome.pool_rounds == 10
    assert outcome.stray_workers == 0
    assert outcome.integrity_failures == 0
    assert outcome.query_failures == 0
    assert outcome.memories_lost == 0
    assert outcome.converged is True
    assert outcome.landed_after_finish < outcome.kills


def test_workers_started_through_a_fork_server_die_with_their_sync(tmp_path):
    """``forkserver`` (Python 3.14's default start method on Linux): the workers' parent is the
    fork server, not the sync; killed syncs leave no worker, and the store converges."""
    outcome = _kill.run(
        tmp_path / "corpus",
        tmp_path,
        kills=4,
        files=210,
        seed=14,
        pool_every=1,
        modes=("main",),
        start_method="forkserver",
        stop_on_failure=True,
    )
    print(outcome)
    assert outcome.kills == 4 and outcome.pool_rounds == 4 and outcome.by_mode["main"] == 4
    assert outcome.stray_workers == 0
    assert outcome.integrity_failures == 0 and outcome.memories_lost == 0
    assert outcome.converged is True
