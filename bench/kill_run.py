"""The long kill run of issue 20 (not a test; the suite runs 20 kills in tests/hardening/test_kill.py).

``--kills`` rounds on a generated corpus: each edits files (every other pair of rounds, every
file, so that the sync reads in its process pool), saves a memory, starts a sync in its own
process group and sends SIGKILL after a random delay — to the main process (even rounds) or to
the whole group (odd rounds). After each kill: no process of the group left, ``PRAGMA
integrity_check`` ok, a search answers, every memory saved so far present. At the end one sync
to completion must yield exactly the fact set ``(uri, content hash)`` of a clean sync of a copy.

    .venv/bin/python bench/kill_run.py [--kills 100 --files 400 --seed 1]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import _common  # noqa: F401  (puts src/ on the path)
import _kill


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--files", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kenning-kill-") as scratch:
        os.environ.setdefault("KENNING_HOME", str(Path(scratch) / "home"))
        started = time.monotonic()

        def log(i: int, outcome: _kill.Outcome) -> None:
            if (i + 1) % 10 == 0:
                print(
                    f"  {i + 1} kills, {outcome.landed_after_finish} after the sync had finished, "
                    f"sound so far: {outcome.sound()}",
                    flush=True,
                )

        outcome = _kill.run(
            Path(scratch) / "corpus", Path(scratch), kills=args.kills, files=args.files, seed=args.seed, log=log
        )
    print(
        f"kills: {outcome.kills} (main process {outcome.by_mode['main']}, process group "
        f"{outcome.by_mode['group']}; {outcome.pool_rounds} rounds with the process pool; "
        f"{outcome.landed_after_finish} landed after the sync had finished)"
    )
    print(
        f"integrity failures: {outcome.integrity_failures}, query failures: {outcome.query_failures}, "
        f"memories lost: {outcome.memories_lost}, stray workers: {outcome.stray_workers}"
    )
    print(f"converged to the clean-sync fact set: {outcome.converged}; all consistent: {outcome.sound()}")
    print(f"wall time: {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
