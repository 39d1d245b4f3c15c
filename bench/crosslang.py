"""Cross-language retrieval: French questions over an English project's docs, recall@5.

The question set (``bench/data/crosslang_fr.json``) was written by reading kenning's own docs
at a pinned commit (the files are taken from git at that commit, so later doc edits do not
move the target); each question names the section(s) that answer it. The docs go into a
throwaway project, indexed by the product's own ``sync`` (with its dense hook); each question
is searched lexically (``search_conn``), densely and hybrid (``kenning.search.hybrid``, with
the embedder the product picks for that question: the multilingual one for French).

    python bench/crosslang.py            # lexical, dense, hybrid side by side
    python bench/crosslang.py --misses   # also list the questions each mode missed
    python bench/crosslang.py --plain    # the questions typed without accents (diacritics removed)
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

from _common import REPO, table

QUESTIONS = REPO / "bench" / "data" / "crosslang_fr.json"
KS = (1, 5, 10)
TYPED_PLAIN = " typed without accents"  # --plain


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", action="store_true", help="list the questions each mode missed at 5")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--plain", action="store_true", help="ask each question without its accents, as often typed")
    args = parser.parse_args(argv)

    from kenning.clock import utc_now
    from kenning.config import init_project, load_project
    from kenning.dense import index as dense_index
    from kenning.dense.embed import for_query
    from kenning.search import hybrid
    from kenning.search.query import parse, reads_french
    from kenning.search.serve import SearchOptions, search_conn
    from kenning.store.db import connect
    from kenning.sync.run import sync

    spec = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    figures: dict = {"questions": len(spec["questions"]), "commit": spec["commit"], "modes": {}}
    with tempfile.TemporaryDirectory(prefix="kenning-crosslang-") as tmp:
        root = Path(tmp) / "kenning-docs"
        for name in spec["files"]:
            text = subprocess.run(
                ["git", "-C", str(REPO), "show", f"{spec['commit']}:{name}"], capture_output=True, text=True, check=True
            ).stdout
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text, encoding="utf-8")
        project, _ = init_project(root, "kenning-docs")
        with (project.state_dir / "config.toml").open("a", encoding="utf-8") as handle:
            handle.write(
                "\n[dense]\nenabled = true\nbudget_seconds = 100000\n"
            )  # embed all: a budget cut would score 0
        project = load_project(root)
        now = utc_now()
        started = time.perf_counter()
        report = sync(project, now=now)
        figures["sync_seconds"] = round(time.perf_counter() - started, 2)
        figures["excerpts"] = report.added
        figures["dense"] = report.dense
        conn = connect(project.db_path)
        embedders = dense_index.embedders(project)
        misses: dict[str, list[str]] = {}
        for mode in ("lexical", "dense", "hybrid"):
            hits = {k: 0 for k in KS}
            misses[mode] = []
            for item in spec["questions"]:
                question = _plain(item["q"]) if args.plain else item["q"]
                options = SearchOptions(limit=max(KS))
                if mode == "lexical":
                    answer = search_conn(conn, project, parse(question), options, now=now)
                else:
                    answer = hybrid.search(
                        conn,
                        project,
                        parse(question),
                        options,
                        now=now,
                        embedder=for_query(embedders, english=not reads_french(question)),
                        mode=mode,
                    )
                ranked = [_section(e.fact) for e in answer.excerpts]
                expected = {(path, heading) for path, heading in item["expected"]}
                first = next((n for n, s in enumerate(ranked, 1) if s in expected), None)
                for k in KS:
                    hits[k] += first is not None and first <= k
                if first is None or first > 5:
                    misses[mode].append(f"{question} → got {ranked[:3]}")
            n = len(spec["questions"])
            figures["modes"][mode] = {f"recall@{k}": round(hits[k] / n, 3) for k in KS}
        conn.close()

    print(
        f"cross-language: {figures['questions']} French questions{TYPED_PLAIN if args.plain else ''} "
        f"over kenning's docs at {figures['commit']} "
        f"({figures['excerpts']} excerpts; sync with dense {figures['sync_seconds']} s)"
    )
    print(
        table(
            ["mode", *(f"recall@{k}" for k in KS)],
            [[m, *(f[f"recall@{k}"] for k in KS)] for m, f in figures["modes"].items()],
        )
    )
    if args.misses:
        for mode, lines in misses.items():
            for line in lines:
                print(f"miss ({mode}): {line}")
    if args.json:
        print(json.dumps(figures, indent=2))
    return 0


def _plain(text: str) -> str:
    """``text`` without its diacritics (``où est définie`` → ``ou est definie``)."""
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def _section(fact) -> tuple[str, str]:
    path = fact.source.uri.split("#", 1)[0]
    heading = fact.title.split(" > ")[-1].replace("`", "")
    return path, re.sub(r" \(part \d+\)$", "", heading)  # a long section is cut in parts: same section


if __name__ == "__main__":
    sys.exit(main())
