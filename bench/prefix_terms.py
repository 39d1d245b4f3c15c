"""Prefix terms against the stemmed word index (not a test): what `deploy*` finds, and costs.

On real English text (the SciFact abstracts of ``../shared/bench``, each a Markdown document,
synced lexically by the product), for prefixes users type — the first 4 and 6 letters of the
corpus's most frequent long words, and each whole word with `*` — the facts that hold a word
beginning with the prefix (in any indexed column, read from the store's own texts) are the
truth. Against it, the engine's own prefix (`"p"*`: FTS5 stems the prefix first, so `deploy*`
reads `deploi*`) and kenning's expansion (``search/prefix.py``) are compared: facts found of
the truth (recall), facts found beyond it (they share a stem with a word of the prefix:
`generaliz*` finds `generated`, both `gener`), then the expansion's own time and the search's
(``search_project``'s whole path, limit 10) with each, interleaved, median of --runs, wall and
CPU.

    .venv/bin/python bench/prefix_terms.py [--keep DIR] [--runs 7] [--words 40]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path

from _common import DEFAULT_DATA, require
from kenning.answer.search import SearchOptions, search_project
from kenning.clock import utc_now
from kenning.config import init_project, load_project
from kenning.search import prefix
from kenning.store.db import open_store
from kenning.sync.run import sync

WORD = re.compile(r"[^\W_]+")


def fold(text: str) -> str:
    """Lower case, diacritics removed, as FTS5's ``unicode61 remove_diacritics 2`` reads words
    (NFD, not NFKD: it leaves compatibility forms alone, such as the ligature ``ﬁ`` in ``ﬁnding``)."""
    return "".join(c for c in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(c))


def build(root: Path, data: Path) -> None:
    import json

    docs = root / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    with (data / "scifact" / "corpus.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            doc = json.loads(line)
            title = " ".join(doc["title"].split()) or doc["_id"]
            (docs / f"{doc['_id']}.md").write_text(f"# {title}\n\n{doc['text']}\n", encoding="utf-8")
    init_project(root, "prefixes")
    config = root / ".kenning" / "config.toml"
    config.write_text(config.read_text(encoding="utf-8") + "\n[dense]\nenabled = false\n", encoding="utf-8")
    started = time.perf_counter()
    sync(load_project(root), now=utc_now())
    print(f"synced in {time.perf_counter() - started:.1f} s")


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--keep", type=Path, help="build the project here and keep it (reused when synced)")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--words", type=int, default=40, help="most frequent words of 7 letters or more")
    args = parser.parse_args()
    if not require(args.data / "scifact" / "corpus.jsonl", "SciFact corpus"):
        return 0
    holder = None if args.keep else tempfile.TemporaryDirectory(prefix="kenning-prefixes-")
    root = (args.keep or Path(holder.name if holder else ".")) / "prefixes"
    if not (root / ".kenning" / "kenning.db").exists():
        build(root, args.data)
    project = load_project(root)
    conn = open_store(project)
    # The truth: each fact's words, folded, from the texts the index was fed.
    texts = {
        row[0]: " ".join(str(c or "") for c in row[1:])
        for row in conn.execute(
            "SELECT f.id, t.title, t.keywords, t.path, t.body FROM facts f JOIN facts_text t ON t.id = f.id "
            "WHERE f.lifecycle = 'active'"
        )
    }
    words_of = {i: {fold(w) for w in WORD.findall(text)} for i, text in texts.items()}
    counts = Counter(w for ws in words_of.values() for w in ws if len(w) >= 7 and w.isalpha())
    common = [w for w, _ in counts.most_common(args.words)]
    prefixes = sorted({p for w in common for p in (w[:4], w[:6], w)})
    print(f"corpus: {root} ({len(texts)} facts); {len(prefixes)} prefixes from the {len(common)} most frequent words")

    def rows(expression: str) -> set[int]:
        return {r[0] for r in conn.execute("SELECT rowid FROM facts_fts WHERE facts_fts MATCH ?", (expression,))}

    totals = Counter()
    worst: list[tuple[float, str]] = []
    for p in prefixes:
        truth = {i for i, ws in words_of.items() if any(w.startswith(p) for w in ws)}
        native = rows(f'"{p}"*')
        expanded_text, _ = prefix.expand(conn, f"{p}*")
        expanded = rows(expanded_text)
        totals["truth"] += len(truth)
        totals["native_hit"] += len(native & truth)
        totals["native_extra"] += len(native - truth)
        totals["expanded_hit"] += len(expanded & truth)
        totals["expanded_extra"] += len(expanded - truth)
        totals["terms"] += expanded_text.count(" OR ") + 1
        if truth:
            worst.append((len(native & truth) / len(truth), p))
    print(
        f"recall over {len(prefixes)} prefixes ({totals['truth']:,} facts to find): "
        f"engine's prefix {totals['native_hit']:,} ({totals['native_hit'] / totals['truth']:.4f}), "
        f"expanded {totals['expanded_hit']:,} ({totals['expanded_hit'] / totals['truth']:.4f}); "
        f"facts found beyond the truth: {totals['native_extra']:,} / {totals['expanded_extra']:,}; "
        f"terms per prefix after expansion {totals['terms'] / len(prefixes):.1f}"
    )
    print("engine's prefix, lowest recall:", ", ".join(f"{p}* {r:.2f}" for r, p in sorted(worst)[:8]))

    expand_s: list[float] = []
    expand_cpu: list[float] = []
    timed: dict[str, list[float]] = {"engine": [], "expanded": []}
    cpu: dict[str, list[float]] = {"engine": [], "expanded": []}
    original = prefix.expand
    for _ in range(args.runs):
        for p in prefixes:
            started, cpu_started = time.perf_counter(), time.process_time()
            original(conn, f"{p}*")
            expand_s.append(time.perf_counter() - started)
            expand_cpu.append(time.process_time() - cpu_started)
        for label in ("engine", "expanded"):  # interleaved, each round
            prefix.expand = original if label == "expanded" else (lambda _conn, text: (text, ()))  # type: ignore[assignment]
            started, cpu_started = time.perf_counter(), time.process_time()
            for p in prefixes:
                search_project(project, f"{p}*", SearchOptions(limit=10, syntax="fts"), now=utc_now())
            timed[label].append((time.perf_counter() - started) / len(prefixes))
            cpu[label].append((time.process_time() - cpu_started) / len(prefixes))
    prefix.expand = original
    print(
        f"expansion alone: median {median_ms(expand_s):.2f} ms wall, {median_ms(expand_cpu):.2f} ms CPU a prefix "
        f"(max {max(expand_s) * 1000:.1f} ms)"
    )
    for label in ("engine", "expanded"):
        print(
            f"search_project, limit 10, {label:<8}: {median_ms(timed[label]):.2f} ms wall, "
            f"{median_ms(cpu[label]):.2f} ms CPU a query (median of {args.runs} rounds)"
        )
    conn.close()
    if holder is not None:
        holder.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
