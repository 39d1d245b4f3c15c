"""The sync's parsing pool (``ingest.pool``): forked workers, results in order, errors handed
back, and no worker left behind, whether a worker dies or the pool is stopped early."""

from __future__ import annotations

import os
import signal
import sys
import time

import pytest

from conftest import child_processes
from kenning.ingest.pool import ForkPool, PoolBroken

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the fork pool serves Linux")

_STARTED: list[str] = []


def _start(label: str) -> None:
    _STARTED.append(label)


def _started() -> list[str]:
    return list(_STARTED)


def _square(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def _refuse(text: str) -> None:
    raise ValueError(text)


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _sleep_pid(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_a_pool_returns_each_tasks_result_from_workers_that_ran_their_initializer_first():
    pool = ForkPool(2, _start, ("ready",))
    try:
        tasks = [pool.submit(_square, n) for n in range(20)]
        assert [task.result()[0] for task in tasks] == [n * n for n in range(20)]
        # The least busy worker takes the next task: two tasks that last are one each.
        pids = {task.result() for task in (pool.submit(_sleep_pid, 0.3), pool.submit(_sleep_pid, 0.3))}
        assert len(pids) == 2 and os.getpid() not in pids
        assert pool.submit(_started).result() == ["ready"]  # once per worker, in the worker
    finally:
        pool.shutdown()
    assert _STARTED == [] and child_processes() == []


def test_a_task_that_raises_hands_its_error_to_the_caller_and_the_pool_goes_on():
    pool = ForkPool(1, _start, ("ready",))
    try:
        with pytest.raises(ValueError, match="not this one"):
            pool.submit(_refuse, "not this one").result()
        assert pool.submit(_square, 3).result()[0] == 9
    finally:
        pool.shutdown()


def test_a_worker_that_dies_fails_the_tasks_it_held_and_the_others_still_run():
    pool = ForkPool(2, _start, ("ready",))
    try:
        doomed = pool.submit(_die)
        later = [pool.submit(_square, n) for n in range(6)]
        with pytest.raises(PoolBroken):
            doomed.result()
        finished = 0
        for n, task in enumerate(later):
            try:
                assert task.result()[0] == n * n
                finished += 1
            except PoolBroken:  # held by the dying worker: failed, never left waiting
                pass
        assert finished >= 4
    finally:
        pool.shutdown()
    assert child_processes() == []


def test_a_pool_whose_workers_all_died_fails_what_is_queued_instead_of_hanging():
    pool = ForkPool(1, _start, ("ready",))
    try:
        tasks = [pool.submit(_die), *(pool.submit(_square, n) for n in range(5))]
        for task in tasks:
            with pytest.raises(PoolBroken):
                task.result()
    finally:
        pool.shutdown()
    assert child_processes() == []


def test_shutdown_drops_the_tasks_not_begun_and_waits_for_the_workers():
    pool = ForkPool(2, _start, ("ready",))
    tasks = [pool.submit(_sleep, 0.2) for _ in range(12)]
    time.sleep(0.05)
    pool.shutdown(cancel_futures=True)  # the running tasks and the next ones end; not the others
    assert sum(task.done() for task in tasks) == 12
    dropped = 0
    for task in tasks:
        try:
            assert task.result() == 0.2
        except PoolBroken:
            dropped += 1
    assert dropped >= 8 and child_processes() == []
    with pytest.raises(RuntimeError):
        pool.submit(_square, 2)
