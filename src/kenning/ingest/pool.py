"""The sync's parsing pool: forked worker processes fed through pipes, with ``submit`` and
``shutdown`` as ``concurrent.futures.ProcessPoolExecutor`` has them for ``ingest.read``.

Not the standard pool because of its import: ``concurrent.futures.process`` brings logging,
multiprocessing's sockets, queues and temporary files, 14 ms before the first file can be
handed over, a fifth of a cold `kenning sync`'s start-up (docs/benchmarks.md, branch
coldstart). This one needs ``os``, ``pickle`` and ``threading``. POSIX only (``fork``):
``ingest.read`` falls back to ``ProcessPoolExecutor`` elsewhere.

Each worker takes at most ``QUEUED`` tasks at a time, in order, from its own pipe, and sends
each result back on another; one thread per worker reads its results (so a worker never
blocks on a full pipe while the caller is busy writing) and hands it its next task. A worker
that dies fails the tasks it held (``PoolBroken``); ``shutdown`` lets the running tasks end,
drops the others and waits for the workers.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import threading
from collections import deque

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, BinaryIO

QUEUED = 2  # tasks a worker holds: the one it runs, and the next one (no wait between the two)


class PoolBroken(RuntimeError):
    """A worker ended before returning a task's result (killed, or out of memory)."""


class Task:
    """A submitted call's result, when it comes: ``done()`` and ``result()`` as a future's."""

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> None:
        self.call = (fn, args)
        self._done = threading.Event()
        self._ok = False
        self._value: Any = None

    def done(self) -> bool:
        return self._done.is_set()

    def result(self) -> Any:
        self._done.wait()
        if not self._ok:
            raise self._value
        return self._value

    def settle(self, ok: bool, value: Any) -> None:
        self._ok, self._value = ok, value
        self._done.set()


class _Worker:
    def __init__(self, pid: int, tasks: BinaryIO, results: BinaryIO) -> None:
        self.pid, self.tasks, self.results = pid, tasks, results
        self.held: deque[Task] = deque()
        self.alive = True
        self.reader: threading.Thread | None = None


class ForkPool:
    """``workers`` processes forked at the first ``submit``, each running ``initializer(*initargs)``
    first."""

    def __init__(self, workers: int, initializer: Callable[..., None], initargs: tuple[Any, ...] = ()) -> None:
        self._size, self._initializer, self._initargs = workers, initializer, initargs
        self._workers: list[_Worker] = []
        self._queue: deque[Task] = deque()
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, fn: Callable[..., Any], *args: Any) -> Task:
        task = Task(fn, args)
        with self._lock:
            if self._closed:
                raise RuntimeError("the pool is shut down")
            if not self._workers:
                self._start()
            self._queue.append(task)
            self._dispatch()
        return task

    def shutdown(self, cancel_futures: bool = True) -> None:
        """Stop the pool: the tasks not begun are dropped (``cancel_futures``; else run first),
        the workers end after their running task, and are waited for."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            dropped = list(self._queue) if cancel_futures else []
            if cancel_futures:
                self._queue.clear()
            self._dispatch()  # closes the pipes of the workers with nothing left to take
            workers = list(self._workers)
        for task in dropped:
            task.settle(False, PoolBroken("the pool was shut down before this task ran"))
        for worker in workers:
            if worker.reader is not None:
                worker.reader.join()  # it ends once the worker has no task left and has exited

    def _start(self) -> None:
        """Fork every worker before any thread starts: a child holds no lock of this process's."""
        pipes = [(os.pipe(), os.pipe()) for _ in range(self._size)]
        for (task_r, task_w), (result_r, result_w) in pipes:
            pid = os.fork()
            if pid == 0:  # the worker
                keep = {task_r, result_w}
                for fd in (fd for pair in pipes for ends in pair for fd in ends):
                    if fd not in keep:
                        os.close(fd)
                _serve(task_r, result_w, self._initializer, self._initargs)
            self._workers.append(_Worker(pid, os.fdopen(task_w, "wb"), os.fdopen(result_r, "rb")))
        for (task_r, _), (_, result_w) in pipes:
            os.close(task_r)
            os.close(result_w)
        for worker in self._workers:
            worker.reader = threading.Thread(target=self._read, args=(worker,), name="kenning-pool", daemon=True)
            worker.reader.start()

    def _dispatch(self) -> None:
        """Hand queued tasks to the workers holding fewer than QUEUED, the least busy first (under
        the lock); once shut down and out of tasks, close their pipes: a worker ends when it has
        read them all."""
        while self._queue:
            free = [w for w in self._workers if w.alive and len(w.held) < QUEUED]
            if not free:
                break
            worker = min(free, key=lambda w: len(w.held))
            task = self._queue.popleft()
            worker.held.append(task)
            try:
                pickle.dump(task.call, worker.tasks, pickle.HIGHEST_PROTOCOL)
                worker.tasks.flush()
            except OSError:  # the worker is gone: its reader fails what it held
                worker.alive = False
        for worker in self._workers:
            if self._closed and not self._queue and not worker.tasks.closed:
                with contextlib.suppress(OSError):  # the worker is gone
                    worker.tasks.close()

    def _read(self, worker: _Worker) -> None:
        """The results of ``worker``, in the order it took its tasks, until it ends."""
        while True:
            try:
                ok, value = pickle.load(worker.results)
            except (EOFError, OSError, pickle.UnpicklingError):
                break
            with self._lock:
                task = worker.held.popleft()
                self._dispatch()
            task.settle(ok, value)
        with self._lock:
            worker.alive = False
            lost = list(worker.held)
            worker.held.clear()
            if not worker.tasks.closed:
                with contextlib.suppress(OSError):  # what it was not sent cannot be sent now
                    worker.tasks.close()
            if not any(w.alive for w in self._workers):  # nobody left to run the queue
                lost.extend(self._queue)
                self._queue.clear()
            else:
                self._dispatch()
        for task in lost:
            task.settle(False, PoolBroken("a parsing worker ended before returning its files"))
        worker.results.close()
        os.waitpid(worker.pid, 0)


def _serve(task_fd: int, result_fd: int, initializer: Callable[..., None], initargs: tuple[Any, ...]) -> None:
    """A worker's life: its tasks in order until its pipe closes, then ``os._exit`` (nothing
    of the parent's, buffers or exit handlers, runs again here)."""
    code = 0
    try:
        initializer(*initargs)
        tasks, results = os.fdopen(task_fd, "rb"), os.fdopen(result_fd, "wb")
        while True:
            try:
                fn, args = pickle.load(tasks)
            except EOFError:
                break
            try:
                answer = (True, fn(*args))
            except BaseException as exc:  # handed to the caller, as concurrent.futures does
                answer = (False, exc)
            pickle.dump(answer, results, pickle.HIGHEST_PROTOCOL)
            results.flush()
    except BaseException:
        code = 1
    finally:
        os._exit(code)
