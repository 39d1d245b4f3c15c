"""Every manual page of this machine through kenning's roff reader (not a test): whether any makes
it fail, how many give no excerpt (no section title), and the time a page takes (the figures
behind "manpages" in docs/benchmarks.md).

    .venv/bin/python bench/man_pages.py                       # /usr/share/man/man*/*
    .venv/bin/python bench/man_pages.py --glob '/opt/*/man/man1/*.1'

Pages compressed with gzip (``.gz``, as Debian installs them) are read through it; a page that is
no UTF-8 has its bytes replaced, as a sync reads it.
"""

from __future__ import annotations

import argparse
import glob
import gzip
import time
from pathlib import Path

import _common  # noqa: F401  (puts src/ on the path)
from kenning.ingest.roff import parse_roff


def read(path: str) -> str:
    data = Path(path).read_bytes()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    return data.decode("utf-8", errors="replace")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--glob", default="/usr/share/man/man*/*")
    args = parser.parse_args()
    paths = sorted(p for p in glob.glob(args.glob) if Path(p).is_file())
    if not paths:
        print(f"no manual page matches {args.glob}")
        return 0
    failed, empty, excerpts, spent = [], 0, 0, 0.0
    for path in paths:
        try:
            text = read(path)
        except (OSError, EOFError, gzip.BadGzipFile) as error:
            failed.append(f"{path}: unreadable ({error})")
            continue
        start = time.perf_counter()
        try:
            chunks = parse_roff(text, path.removesuffix(".gz"))
        except Exception as error:  # noqa: BLE001 (a bench counts what fails, it does not stop)
            failed.append(f"{path}: {type(error).__name__}: {error}")
            continue
        finally:
            spent += time.perf_counter() - start
        excerpts += len(chunks)
        empty += not chunks
    print(f"{len(paths)} pages ({args.glob}): {len(failed)} failed, {empty} without a section title (no excerpt)")
    print(f"{excerpts} excerpts; parsing {spent:.2f} s in all, {spent / len(paths) * 1000:.2f} ms a page")
    for line in failed[:20]:
        print("  " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
