"""What the public benchmark scripts share: where the data lives, tables.

The data sets are never copied into the repository: they are read from ``../shared/bench/``
beside the repository root (or ``--data DIR``), and a script whose data is absent says so and
exits 0.
"""

from __future__ import annotations

import sys
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

sys.path.insert(0, str(REPO / "src"))  # run from a clone without installing


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
