"""A parsing pool's worker keeps the memory it frees for the next files (``ingest.read``'s
``_keep_freed_memory``, glibc's ``mallopt``): blocks of the size of a file's texts and pickles,
freed then made again, come back without the system faulting fresh pages in.

Measured in a fresh interpreter, as a sync starts its pool: what this process allocated and
freed already moves glibc's own thresholds, which its forked workers inherit."""

from __future__ import annotations

import json
import platform
import subprocess
import sys

import pytest

BLOCK = 200_000  # bytes: above glibc's first mmap threshold (128 KiB), as a large file's text is
BLOCKS = 100
PAGES = BLOCK * BLOCKS // 4096

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc", reason="glibc's malloc only"
)

# Page faults in a worker while BLOCKS blocks of BLOCK bytes are made and written a second time,
# after the first ones were freed; the worker started as a sync's pool starts them, or plainly.
_SCRIPT = f"""
import json, os, resource, sys
from concurrent.futures import ProcessPoolExecutor
from kenning.ingest import read

def faults():
    blocks = [b"x" * {BLOCK} for _ in range({BLOCKS})]
    del blocks
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    blocks = [b"y" * {BLOCK} for _ in range({BLOCKS})]
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before

if __name__ == "__main__":
    start = dict(initializer=read._worker_start, initargs=(os.getpid(), ())) if sys.argv[1] == "pool" else {{}}
    with ProcessPoolExecutor(max_workers=1, **start) as pool:
        print(json.dumps(pool.submit(faults).result()))
"""


def _faults(how: str) -> int:
    done = subprocess.run([sys.executable, "-c", _SCRIPT, how], capture_output=True, text=True, check=True)
    return int(json.loads(done.stdout))


def test_a_pool_worker_makes_freed_blocks_again_without_faulting_pages_in():
    assert _faults("pool") < PAGES // 10


def test_a_worker_started_plainly_faults_the_pages_in_again():
    """The measure above tells the two apart: without it, a worker faults the blocks' pages in
    again, over the line the pool's worker stays under. How many depends on what the parent
    allocated and freed before forking, which glibc's thresholds remember (every page, 4,857 of
    4,882, with the modules compiled at import; 1,099 with their bytecode cached): at least a
    tenth of them, and ten times the pool worker's."""
    plain = _faults("plain")
    assert plain > PAGES // 10 and plain > 10 * _faults("pool")
