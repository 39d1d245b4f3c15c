"""Questions asked of a project edited since its first sync (not a test): a store holding
superseded excerpts, as every project that changed does, where the benchmark stores hold none.

A served answer counts the superseded excerpts its question matches (``filtered``, see
docs/schemas.md); this script times what that and the rest cost a question. It copies a synced
project (its files and its store) into a temporary folder, changes one word in ``--edit`` of its
Markdown or text files (an excerpt changed in place is superseded by its new version), syncs the
copy, then asks every question of ``--questions`` as a server does (lists kept, the warm-up
read first; once unclocked, then ``--passes`` clocked passes), and prints p50 / p95 in ms. With
``--against SRC`` the same questions are also asked by another copy of ``src/`` (a child process
with ``PYTHONPATH=SRC``), in turn with this tree, on the same edited store.

    .venv/bin/python bench/edited_store.py --project /tmp/kenning-real-projects/django \\
        --questions bench/questions/django.jsonl --against /tmp/before/src
        # bench/real_projects.py --projects django builds that project
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--project", type=Path, required=True, help="a synced kenning project (copied, not changed)")
    parser.add_argument("--questions", type=Path, required=True, help="a JSON-lines file with a 'question' per line")
    parser.add_argument("--edit", type=int, default=3, help="files whose text changes before the second sync")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--against", type=Path, metavar="SRC", help="another src/ asked the same questions in turn")
    parser.add_argument("--ask-child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.ask_child:
        print(json.dumps(_ask(args.ask_child, args.questions, args.passes)))
        return 0
    if not (args.project / ".kenning").is_dir():
        print(f"skipped: no synced project at {args.project}")
        return 0
    with tempfile.TemporaryDirectory(prefix="kenning-edited-") as tmp:
        os.environ["KENNING_HOME"] = str(Path(tmp) / "home")  # the machine registry stays untouched
        root = Path(tmp) / args.project.name
        shutil.copytree(args.project, root, symlinks=True)
        edited = _edit(root, args.edit)
        _sync(root)
        rows = []
        for label, src in [("this tree", None), *([("against", args.against)] if args.against else [])] * 2:
            figures = _child(root, args.questions, args.passes, src)
            rows.append([label, figures["superseded"], figures["p50"], figures["p95"], figures["filtered"]])
    print(f"{args.project.name}: {edited} files edited, {len(rows) // (2 if args.against else 1)} runs each")
    print(table(["code", "superseded facts", "ask p50 ms", "ask p95 ms", "answers with superseded left out"], rows))
    return 0


def _edit(root: Path, count: int) -> int:
    """Change the first long word of ``count`` Markdown or text files (sorted by path): their
    excerpts holding it are superseded at the next sync."""
    done = 0
    for path in sorted(p for p in root.rglob("*") if p.suffix in (".md", ".txt") and ".kenning" not in p.parts):
        text = path.read_text(encoding="utf-8", errors="replace")
        changed = re.sub(r"\b([a-z]{8,})\b", r"\1 edited", text, count=1)
        if changed != text:
            path.write_text(changed, encoding="utf-8")
            done += 1
            if done == count:
                break
    return done


def _sync(root: Path) -> None:
    kenning = Path(sys.executable).with_name("kenning")
    subprocess.run([str(kenning), "sync", "--project", str(root)], check=True, capture_output=True)


def _child(root: Path, questions: Path, passes: int, src: Path | None) -> dict:
    env = {**os.environ, **({"PYTHONPATH": str(src)} if src else {})}
    command = [sys.executable, __file__, "--project", str(root), "--questions", str(questions)]
    out = subprocess.run(
        [*command, "--passes", str(passes), "--ask-child", str(root)], env=env, check=True, capture_output=True
    )
    return json.loads(out.stdout)


def _ask(root: Path, questions: Path, passes: int) -> dict:
    from kenning.answer.ask import ask_project
    from kenning.bench.speed import quantile
    from kenning.clock import utc_now
    from kenning.config import load_project
    from kenning.search import lexical
    from kenning.store.db import connect

    asked = [json.loads(line)["question"] for line in questions.read_text(encoding="utf-8").splitlines() if line]
    project = load_project(root)
    conn = connect(project.db_path)
    now = utc_now()
    lexical.keep_word_lists()  # as the MCP and web servers do
    task = lexical.warm_word_lists(project.db_path)
    if task is not None:
        task.done.wait()
    for question in asked:
        ask_project(project, question, now=now, conn=conn)
    times, left_out = [], 0
    for _ in range(passes):
        for question in asked:
            started = time.perf_counter()
            answer = ask_project(project, question, now=now, conn=conn)
            times.append((time.perf_counter() - started) * 1000)
            left_out += bool(answer.filtered.get("superseded"))
    superseded = conn.execute("SELECT count(*) FROM facts WHERE lifecycle = 'superseded'").fetchone()[0]
    return {
        "superseded": superseded,
        "p50": round(quantile(times, 0.5), 2),
        "p95": round(quantile(times, 0.95), 2),
        "filtered": f"{left_out // passes} of {len(asked)}",
    }


if __name__ == "__main__":
    raise SystemExit(main())
