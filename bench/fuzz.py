"""The long fuzz run (not a test): hostile inputs across the CLI's query path and every MCP tool.

Usage:
    .venv/bin/python bench/fuzz.py                    # 100,000 inputs, seed 20
    .venv/bin/python bench/fuzz.py --inputs 5000 --seed 7

The inputs and the judging are the property suite's (tests/hardening/hostile.py): odd
digits and ids out of range, other projects' citations, lone surrogates, FTS syntax
fragments, prefix storms, 60,000-character names, random code points. Half go to the CLI's
query commands in process (search, ask, get, memory, graph), half to the MCP tools, chosen
in turn, through the official SDK client over memory streams. A small fixture project is
made for the run. Target (issue 20): 0 crashes, 0 untyped errors. Prints the counts by
verdict and, for each failure kind, one example.
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from anyio.from_thread import start_blocking_portal
from mcp.shared.memory import create_connected_server_and_client_session

import _common  # noqa: F401  (puts src/ on the path)

sys.path.insert(0, str(_common.REPO / "tests" / "hardening"))
import hostile  # noqa: E402

from kenning.clock import utc_now  # noqa: E402
from kenning.config import init_project  # noqa: E402
from kenning.interfaces.mcp.server import build_server  # noqa: E402
from kenning.memory.observations import Observation, save  # noqa: E402
from kenning.store.db import connect  # noqa: E402
from kenning.sync.run import sync  # noqa: E402

FILES = {
    "src/app.py": "def handler():\n    return helper()\n\n\ndef helper():\n    return 1\n",
    "docs/guide.md": "# Guide\n\nThe handler calls the helper. Sessions, search and store.\n",
    "docs/adr/0001-store.md": "# ADR-0001 Store\n\nStatus: accepted\n\n## Decision\n\nSQLite.\n",
}


def make_project(root: Path):
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    project, _ = init_project(root, "demo")
    sync(project, now=utc_now())
    conn = connect(project.db_path, create=True)
    save(conn, "demo", Observation(text="the handler is stable"), now=utc_now())
    conn.close()
    return project


def facts_state(db: Path) -> tuple[int, int]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT count(*), coalesce(max(id), 0) FROM facts").fetchone()
    finally:
        conn.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--inputs", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    os.environ.setdefault("KENNING_HOME", tempfile.mkdtemp(prefix="kenning-fuzz-home-"))
    rng = random.Random(args.seed)
    verdicts: Counter[str] = Counter()
    examples: dict[str, str] = {}
    written_on_refusal = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="kenning-fuzz-") as tmp:
        project = make_project(Path(tmp) / "demo")
        root = str(project.root)
        server = build_server(project)
        with (
            start_blocking_portal() as portal,
            portal.wrap_async_context_manager(create_connected_server_and_client_session(server._mcp_server)) as client,
        ):
            tools = {t.name: t.inputSchema for t in portal.call(client.list_tools).tools}
            names = sorted(tools)
            for n in range(args.inputs):
                before = facts_state(project.db_path) if n % 10 == 0 else None
                if n % 2 == 0:
                    argv = hostile.cli_argv(rng, root)
                    verdict, _, err = hostile.run_cli(argv)
                    key = f"cli {argv[0]}" + (f" {argv[1]}" if argv[0] in ("memory", "graph") else "")
                    detail = f"{argv[:3]!r}: {err[-300:]!r}"
                    writes_expected = False  # the CLI query path never writes
                else:
                    name = names[(n // 2) % len(names)]
                    arguments = hostile.mcp_args(rng, tools[name])
                    verdict = hostile.judge_mcp(portal.call(client.call_tool, name, arguments))
                    key = f"mcp {name}"
                    detail = f"{name} {str(arguments)[:300]}: {verdict}"
                    writes_expected = verdict == "ok"
                kind = verdict.split(":", 1)[0] if not verdict.startswith("typed:") else verdict
                verdicts[kind] += 1
                verdicts[f"inputs to {key}"] += 1
                if kind in ("crash", "untyped"):
                    examples.setdefault(f"{kind} {key}", detail)
                if before is not None and not writes_expected and facts_state(project.db_path) != before:
                    written_on_refusal += 1
                    examples.setdefault(f"written {key}", detail)
                if (n + 1) % 10_000 == 0:
                    print(f"  {n + 1:,} inputs, {time.perf_counter() - started:.0f} s", flush=True)
    elapsed = time.perf_counter() - started
    total = args.inputs
    print(
        f"\n{total:,} inputs (seed {args.seed}) in {elapsed:.0f} s: "
        f"{verdicts['crash']} crashes, {verdicts['untyped']} untyped errors, "
        f"{written_on_refusal} writes on a refused input (checked every 10th input)"
    )
    print(f"answered: {verdicts['ok']:,}; SDK schema refusals: {verdicts['schema']:,}")
    for kind, count in sorted((k, c) for k, c in verdicts.items() if k.startswith("typed:")):
        print(f"  {kind[6:]:<24} {count:,}")
    print(f"tools and commands reached: {sum(1 for k in verdicts if k.startswith('inputs to '))}")
    for key, detail in sorted(examples.items()):
        print(f"EXAMPLE {key}: {detail}")
    return 1 if verdicts["crash"] or verdicts["untyped"] or written_on_refusal else 0


if __name__ == "__main__":
    sys.exit(main())
