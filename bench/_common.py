"""What the public benchmark scripts share: where the data lives, tables.

The data sets are never copied into the repository: they are read from ``../shared/bench/``
beside the repository root (or ``--data DIR``), and a script whose data is absent says so and
exits 0.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _default_data() -> Path:
    """``../shared/bench`` beside the repository root; from a git worktree nested deeper,
    the nearest ancestor holding ``shared/bench``."""
    for parent in REPO.parents:
        if (parent / "shared" / "bench").is_dir():
            return parent / "shared" / "bench"
    return REPO.parent / "shared" / "bench"


DEFAULT_DATA = _default_data()

# Run from a clone without installing: this clone's src/ goes after the script's folder and the
# PYTHONPATH entries, so that `PYTHONPATH=<another src/>` (an A/B against another commit) runs that
# code; inserted first, it silently ran this clone's code whatever PYTHONPATH said.
_GIVEN = [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
sys.path.insert(1 + len(_GIVEN), str(REPO / "src"))


def relax_query_budget() -> None:
    """The product stops a search after 1.5 s of wall-clock time (``store.fts_guard``); on a
    shared, loaded machine a long claim can pass that, which would end a quality run. The
    benchmarks measure quality, so their searches get two minutes."""
    from kenning.store import fts_guard

    fts_guard.QUERY_BUDGET_SECONDS = 120.0


def require(path: Path, what: str) -> bool:
    """True when ``path`` exists; otherwise print why the benchmark is skipped."""
    if path.exists():
        return True
    print(f"skipped: {what} not found at {path} (pass --data DIR pointing at the shared bench folder)")
    return False


def weights_option(parser) -> None:
    parser.add_argument(
        "--weights",
        metavar="T,K,P,B",
        help="tuning only: column weights (title, keywords, path, body) instead of the product's, e.g. 1.2,1.2,1.05,1",
    )


def apply_weights(text: str | None) -> None:
    """Rank with other column weights for this run (how docs/evaluation.md's weight table is
    reproduced); the product's own weights are ``kenning.search.lexical.WEIGHTS``."""
    if not text:
        return
    from kenning.search import lexical

    weights = [float(w) for w in text.split(",")]
    if len(weights) != 4:
        raise SystemExit("--weights takes four numbers: title,keywords,path,body")
    print(f"column weights for this run: {', '.join(map(str, weights))} (product: {lexical.WEIGHTS})")
    lexical.WEIGHTS = tuple(weights)


def table(headers: list[str], rows: list[list[object]]) -> str:
    cells = [[str(h) for h in headers]] + [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        lines.append(
            "  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths, strict=True)))
        )
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _fmt(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


CACHE_DEFAULT = Path("/tmp/kenning-bench-cache")
CACHE_HELP = (
    "directory where passage embeddings are cached between runs, keyed by the model's manifest "
    "fingerprint and the sha256 of the text (default: %(default)s; always outside the repository; "
    "'none' turns the cache off)"
)


def cache_option(parser) -> None:
    parser.add_argument("--cache", type=Path, default=CACHE_DEFAULT, help=CACHE_HELP)


def cache_embeddings(directory: Path | None) -> None:
    """Make the product's embedders remember what they embed, in ``directory`` (one SQLite file
    per model fingerprint, text sha256 → float32 vector), so that a second run of a benchmark
    does not embed its corpus again. The vectors are the model's own: the cache only skips
    recomputing them. A call with one text (a query, in the product's query path) is always
    embedded, so query latencies stay honest. Refuses a directory inside the repository: bench data never enters it."""
    if directory is None or str(directory) == "none":
        return
    directory = directory.expanduser().resolve()
    if directory == REPO or REPO in directory.parents:
        raise SystemExit(f"--cache {directory} is inside the repository: choose a directory outside it")
    import dataclasses
    import hashlib
    import sqlite3

    import numpy as np

    from kenning.dense import embed
    from kenning.dense import manifest as dense_manifest

    original = embed.select

    def cached(embedder: embed.Embedder) -> embed.Embedder:
        fingerprint = dense_manifest.expected(embedder)["fingerprint"]
        directory.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(directory / f"{embedder.name}-{fingerprint[:16]}.sqlite", check_same_thread=False)
        db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vector BLOB NOT NULL)")
        encode = embedder.encode

        def encode_cached(texts):
            if len(texts) < 2:
                return encode(texts)
            keys = [hashlib.sha256(t.encode("utf-8", "surrogatepass")).hexdigest() for t in texts]
            found: dict[str, bytes] = {}
            for start in range(0, len(keys), 500):
                chunk = keys[start : start + 500]
                marks = ",".join("?" * len(chunk))
                found.update(db.execute(f"SELECT key, vector FROM vectors WHERE key IN ({marks})", chunk).fetchall())
            missing = [i for i, k in enumerate(keys) if k not in found]
            if missing:
                fresh = encode([texts[i] for i in missing])
                rows = [
                    (keys[i], np.asarray(v, dtype=np.float32).tobytes()) for i, v in zip(missing, fresh, strict=True)
                ]
                db.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)
                db.commit()
                found.update(rows)
            out = np.zeros((len(texts), embedder.dimension), dtype=np.float32)
            for i, key in enumerate(keys):
                out[i] = np.frombuffer(found[key], dtype=np.float32)
            return out

        return dataclasses.replace(embedder, encode=encode_cached)

    def select(config=None):
        return {name: cached(e) for name, e in original(config).items()}

    embed.select = select


# Where sdists are downloaded once (bench time only), and the real tree the speed scripts use.
SDIST_CACHE = Path.home() / ".cache" / "kenning-bench"
DJANGO = ("django==5.0.6", "Django-5.0.6")  # requirement, the folder its sdist unpacks as


def fetch_sdist(requirement: str, folder: str, cache: Path) -> Path:
    """The unpacked sdist of ``requirement`` (``name==version``), which unpacks as ``folder``;
    downloaded with ``pip download`` once into ``cache`` (bench time only, never at run time)."""
    unpacked = cache / folder
    if (unpacked / "PKG-INFO").is_file():
        return unpacked
    cache.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:"]
    subprocess.run([*command, "-d", str(cache), requirement], check=True)
    archive = next(p for p in cache.iterdir() if p.name.lower().startswith(folder.lower()) and p.suffix == ".gz")
    with tarfile.open(archive) as tar:
        tar.extractall(cache, filter="data")
    return unpacked
