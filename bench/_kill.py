"""Killing a sync at random moments, and checking what it leaves (issue 20): shared by
``bench/kill_run.py`` (the long run) and ``tests/hardening/test_kill.py`` (the bounded one).

A round edits part of a fixture corpus (enough files, every other round, for the sync to use its
process pool), saves a memory, starts ``sync`` in its own process group, waits until the child
has imported kenning, sleeps a random delay, and sends SIGKILL to the main process or to the
whole group. Then: no process of that group may remain, the store passes ``integrity_check``,
a search answers, and every memory saved so far is there. At the end one sync runs to
completion and its fact set ``(uri, content hash)`` must equal a clean sync of a copy of the tree.
No timing is assumed: each wait is bounded generously and a kill that lands after the sync has
finished is counted as such (it still checks the store).
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
# argv: the project root, then the multiprocessing start method ("" for the platform's default)
_CHILD = (
    "import multiprocessing, sys\n"
    "if sys.argv[2]:\n"
    "    multiprocessing.set_start_method(sys.argv[2])\n"
    "from datetime import UTC, datetime\n"
    "from pathlib import Path\n"
    "from kenning.config import load_project\n"
    "from kenning.sync.run import sync\n"
    "project = load_project(Path(sys.argv[1]))\n"
    "print('go', flush=True)\n"
    "sync(project, now=datetime(2026, 11, 29, 12, 0, tzinfo=UTC))\n"
    "print('done', flush=True)\n"
)
LEXICAL_ONLY = 'name = "{name}"\n\n[dense]\nenabled = false\n'  # level 1 off: the runs time the lexical sync
WAIT_SECONDS = 120.0  # an upper bound for anything to happen on a loaded machine, never a target
STRAY_WAIT_SECONDS = 20.0  # a worker still alive this long after its parent died is a stray


@dataclass
class Outcome:
    kills: int = 0
    landed_after_finish: int = 0
    by_mode: dict[str, int] = field(default_factory=lambda: {"main": 0, "group": 0})
    stray_workers: int = 0
    integrity_failures: int = 0
    query_failures: int = 0
    memories_lost: int = 0
    converged: bool | None = None
    pool_rounds: int = 0

    def sound(self) -> bool:
        return not (self.stray_workers or self.integrity_failures or self.query_failures or self.memories_lost)


def write_corpus(root: Path, files: int, seed: int = 7) -> list[Path]:
    """``files`` small Markdown and Python files in a few folders (deterministic)."""
    rng = random.Random(seed)
    words = ["widget", "gizmo", "ledger", "parser", "cursor", "anchor", "budget", "socket", "quorum", "vector"]
    paths = []
    for i in range(files):
        folder = root / f"pkg{i % 8}"
        folder.mkdir(parents=True, exist_ok=True)
        if i % 2:
            path = folder / f"mod{i}.py"
            body = "".join(
                f'def {rng.choice(words)}_{i}_{k}(x):\n    """{rng.choice(words)} {k}."""\n    return x + {k}\n\n'
                for k in range(4)
            )
        else:
            path = folder / f"note{i}.md"
            body = f"# Note {i}\n\n" + "".join(
                f"## {rng.choice(words).title()} {k}\n\n{' '.join(rng.choices(words, k=30))}\n\n" for k in range(4)
            )
        path.write_text(body, encoding="utf-8")
        paths.append(path)
    return paths


def mutate(root: Path, rng: random.Random, count: int, tag: int) -> None:
    """Edit ``count`` files, add one, delete one (the tree changes under every round)."""
    files = sorted(p for p in root.rglob("*") if p.is_file() and ".kenning" not in p.parts)
    for path in rng.sample(files, min(count, len(files))):
        with path.open("a", encoding="utf-8") as handle:
            handle.write(f"\n# edit {tag}\n" if path.suffix == ".py" else f"\nEdited in round {tag}.\n")
    (root / "pkg0" / f"added{tag}.md").write_text(f"# Added {tag}\n\nround {tag} widget\n", encoding="utf-8")
    victims = [p for p in files if p.name.startswith("added")]
    if victims:
        rng.choice(victims).unlink()


def start_sync(root: Path, start_method: str = "") -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(root), start_method],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


def group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes whose process group is ``pgid`` (Linux /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if fields[0] != b"Z" and int(fields[2]) == pgid:
            found.append(int(entry))
    return found


def kill_one(
    root: Path, mode: str, max_delay: float, rng: random.Random, outcome: Outcome, start_method: str = ""
) -> None:
    """Start a sync, kill it after a random delay (``mode``: "main" or "group"), wait for its group to empty."""
    proc = start_sync(root, start_method)
    assert proc.stdout is not None
    proc.stdout.readline()  # "go": kenning is imported (EOF if it died first)
    time.sleep(rng.uniform(0, max_delay))
    if proc.poll() is not None:
        outcome.landed_after_finish += 1
    elif mode == "main":
        os.kill(proc.pid, signal.SIGKILL)  # not yet reaped: the pid is still this child's
    else:
        _kill_group(proc.pid)
    proc.wait(timeout=WAIT_SECONDS)
    proc.stdout.close()
    outcome.kills += 1
    outcome.by_mode[mode] += 1
    deadline = time.monotonic() + STRAY_WAIT_SECONDS
    while group_members(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = group_members(proc.pid)
    if left:
        outcome.stray_workers += len(left)
        for pid in left:
            os.kill(pid, signal.SIGKILL)


def _kill_group(pgid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # the whole group may be gone already
        os.killpg(pgid, signal.SIGKILL)


def save_memory(root: Path, text: str) -> None:
    from kenning.config import load_project
    from kenning.lifecycle import remember
    from kenning.store.db import connect

    conn = connect(load_project(root).db_path, create=True)
    try:
        remember(conn, text, now=NOW)
    finally:
        conn.close()


def check_store(root: Path, memories: list[str], outcome: Outcome) -> None:
    from kenning.answer.search import search_project
    from kenning.config import load_project
    from kenning.search.serve import SearchOptions

    project = load_project(root)
    conn = sqlite3.connect(f"file:{project.db_path}?mode=ro", uri=True, timeout=WAIT_SECONDS)
    try:
        if conn.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            outcome.integrity_failures += 1
        bodies = {r[0] for r in conn.execute("SELECT body FROM facts WHERE lifecycle = 'active'")}
        outcome.memories_lost += sum(1 for m in memories if m not in bodies)
    finally:
        conn.close()
    try:
        answer = search_project(project, "widget", SearchOptions(limit=3), now=NOW)
        if answer.empty_reason is not None and memories:
            outcome.query_failures += 1
    except Exception:  # noqa: BLE001 - any failure to answer is what is counted here
        outcome.query_failures += 1


def fact_set(db_path: Path) -> set[tuple[str, str]]:
    conn = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        return set(
            conn.execute(
                "SELECT l.uri, f.content_hash FROM locations l JOIN facts f ON f.id = l.fact_id"
                " WHERE f.lifecycle = 'active' AND f.source_kind = 'file'"
            )
        )
    finally:
        conn.close()


def finish_sync(root: Path, start_method: str = "") -> None:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(root), start_method], capture_output=True, timeout=WAIT_SECONDS * 5
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the sync after the kills failed: {proc.stderr.decode(errors='replace')[-2000:]}")


def converges(root: Path, scratch: Path) -> bool:
    """One sync to completion, then the fact set against a clean sync of a copy of the tree."""
    from kenning.config import init_project, load_project

    finish_sync(root)
    clean = scratch / "clean"
    shutil.copytree(root, clean, ignore=shutil.ignore_patterns(".kenning"))
    init_project(clean, "killed-clean")
    (clean / ".kenning" / "config.toml").write_text(LEXICAL_ONLY.format(name="killed-clean"), encoding="utf-8")
    finish_sync(clean)
    return fact_set(load_project(root).db_path) == fact_set(load_project(clean).db_path)


def run(
    root: Path,
    scratch: Path,
    *,
    kills: int,
    files: int,
    seed: int,
    pool_every: int = 2,
    max_delay: float | None = None,
    log=None,
    stop_on_failure: bool = False,
    modes: tuple[str, ...] = ("main", "group"),
    start_method: str = "",
) -> Outcome:
    """``kills`` rounds on a corpus of ``files`` files under ``root`` (initialised here), the kill
    modes taken in turn; ``start_method``: the sync's multiprocessing start method (``fork``,
    ``spawn``, ``forkserver``; "" for the platform's default)."""
    from kenning.config import init_project

    rng = random.Random(seed)
    write_corpus(root, files, seed)
    init_project(root, "killed")
    (root / ".kenning" / "config.toml").write_text(LEXICAL_ONLY.format(name="killed"), encoding="utf-8")
    started = time.monotonic()
    finish_sync(root, start_method)  # a first full sync: its duration bounds the random delays
    full = time.monotonic() - started
    delay = max_delay if max_delay is not None else full
    outcome = Outcome()
    memories: list[str] = []
    for i in range(kills):
        pool = (i // 2) % pool_every == 0  # both kill modes meet pool rounds
        outcome.pool_rounds += pool
        mutate(root, rng, files if pool else 10, i)  # every file: the sync reads in its pool
        memories.append(f"Memory saved before kill {i}: the quorum needs {i} votes.")
        save_memory(root, memories[-1])
        mode = modes[i % len(modes)]
        kill_one(root, mode, delay if pool else delay / 4, rng, outcome, start_method)
        check_store(root, memories, outcome)
        if log:
            log(i, outcome)
        if stop_on_failure and not outcome.sound():
            return outcome
    outcome.converged = converges(root, scratch)
    check_store(root, memories, outcome)
    return outcome
