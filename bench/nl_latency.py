"""Natural-language questions at scale (issue 19, must-show 1): SciFact claims and LoCoMo
questions on stores replicated to at least 50,000 excerpts, timed in process and through MCP,
beside the plain FTS5 OR query over the same text in the same run.

    python bench/nl_latency.py                        # both corpora, stores in a temporary folder
    python bench/nl_latency.py --corpus scifact --keep /tmp/nl   # keep (and reuse) the stores

Stores: SciFact, every abstract as a Markdown document (``# title`` then the text), the
whole corpus copied ``--copies`` times into folders ``cNN/``, the title line and the last
paragraph ending with a word naming the copy (``zq03``: kenning keeps identical excerpts once);
LoCoMo, every session of the 10 conversations as a Markdown document, one section per turn
(``## speaker (date)``, the text, the image caption, the word), copied likewise, the session's
title line ending with the word too. Each store is synced by the product's ``sync`` (dense off);
a kept store of an older layout (``LAYOUT``) is removed and built again.

Questions: SciFact's 300 test claims and the LoCoMo questions of conversations 6-10 are timed;
the process is first warmed as a server is: the lists of the store's common words read by
the warm-up thread the servers start (``lexical.warm_word_lists``: its time and size are
reported), then SciFact's train claims and the questions of conversations 1-5 asked (a
server keeps the impact lists of the words it is asked: ``store/postings.py``); the same
questions are also timed cold, in a process that has read no list yet. The MCP server starts
its own warm-up: the client waits 1.5 times the in-process warm-up time after connecting.

Timed, per question, interleaved in one run:
- ``OR query``: ``SELECT rowid, bm25(facts_fts, 2.0, 1.5, 1.2, 1.0) AS s … MATCH ? ORDER BY
  s LIMIT 10`` over the question's own word expression (what plain FTS5 does);
- ``ranking``: the product's word ranking alone (``lexical.bm25``, 10 hits), after the ask of the
  same question (below: its lists read by then);
- ``pure``: the same, the lists summed without numpy (pure-Python MaxScore);
- ``fts_topk``: the same ranking with the impact lists switched off (pruned FTS5 statements,
  the path before this one);
- ``ask``: ``answer.ask.ask_project`` (what ``memory_ask`` runs: routing, ranking, snippets,
  freshness, 10 results) on one connection kept open, as the MCP server's ``memory_ask`` does
  (``ask cold`` opens one per question, as a one-shot command), timed first of a question's
  steps: the lists of its words that the warm-up and the warm questions did not read are read
  in its time, as a server's first asking of them does (until 2026-12-03 it was timed after the
  three rankings above, which had read them: a warm figure);
- ``ask again``: the timed questions asked a second time (every list read);
- MCP: ``memory_ask`` called by the official SDK client over stdio on one ``kenning mcp``
  server (warmed with the warm-up questions, then the timed ones, then the timed ones again);
  ``client check``: the part of each call the SDK client spends checking the result against
  the tool's output schema (``jsonschema.validate``: a cost of the Python client, not the server's);
  ``server CPU`` and ``client CPU``: the CPU time per timed call of the server process (every
  thread: the answer, the SDK, the transport; Linux ``/proc``) and of the client (this process:
  reading, parsing and checking the result).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from _common import DEFAULT_DATA, relax_query_budget, require, table

TARGET_EXCERPTS = 50_000
# The stores' files: 2 since 2026-12-03 (the copy marker on the title line and the last paragraph).
LAYOUT = "2"
OR_QUERY = (
    "SELECT rowid, bm25(facts_fts, 2.0, 1.5, 1.2, 1.0) AS s FROM facts_fts WHERE facts_fts MATCH ? ORDER BY s LIMIT 10"
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="shared bench folder (default: %(default)s)")
    parser.add_argument("--corpus", choices=("scifact", "locomo", "both"), default="both")
    parser.add_argument("--copies", type=int, default=10, help="copies of each corpus in its store (default: 10)")
    parser.add_argument("--keep", type=Path, help="folder holding the stores, kept and reused between runs")
    parser.add_argument("--no-mcp", action="store_true", help="skip the MCP timings")
    parser.add_argument(
        "--mcp-baseline",
        type=Path,
        metavar="SRC",
        help="also time a second MCP server running the code under SRC (e.g. main's src/), questions alternated; "
        "SRC must know every migration of the kept stores (an older kenning refuses a newer store)",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    relax_query_budget()
    corpora = ("scifact", "locomo") if args.corpus == "both" else (args.corpus,)
    results = {}
    with tempfile.TemporaryDirectory(prefix="kenning-nl-") as tmp:
        base = args.keep or Path(tmp)
        os.environ["KENNING_HOME"] = str(base / "home")  # the machine registry stays untouched
        for name in corpora:
            built = _scifact(args.data, base / "scifact", args.copies) if name == "scifact" else None
            if name == "locomo":
                built = _locomo(args.data, base / "locomo", args.copies)
            if built is None:
                continue
            root, warm, timed = built
            results[name] = _measure(root, warm, timed, mcp=not args.no_mcp, baseline=args.mcp_baseline)
    if args.json:
        print(json.dumps(results, indent=2))
    _print(results)
    return 0


def _scifact(data: Path, root: Path, copies: int) -> tuple[Path, list[str], list[str]] | None:
    folder = data / "scifact"
    if not require(folder / "corpus.jsonl", "SciFact corpus"):
        return None
    if not _synced(root):
        docs = [json.loads(line) for line in (folder / "corpus.jsonl").read_text(encoding="utf-8").splitlines()]
        for copy in range(copies):
            target = root / f"c{copy:02d}"
            target.mkdir(parents=True, exist_ok=True)
            for doc in docs:
                title = " ".join(doc["title"].split()) or doc["_id"]
                text = f"# {title} {_marker(copy)}\n\n{doc['text']} {_marker(copy)}\n"
                (target / f"{doc['_id']}.md").write_text(text, encoding="utf-8")
        _sync(root, "scifact")
    else:
        _resync(root)
    claims = {}
    for line in (folder / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        query = json.loads(line)
        claims[query["_id"]] = query["text"]

    def split(name: str) -> list[str]:
        ids = dict.fromkeys(line.split("\t")[0] for line in (folder / "qrels" / f"{name}.tsv").read_text().splitlines())
        return [claims[i] for i in ids if i in claims]

    return root, split("train"), split("test")


def _locomo(data: Path, root: Path, copies: int) -> tuple[Path, list[str], list[str]] | None:
    path = data / "locomo" / "locomo10.json"
    if not require(path, "LoCoMo data"):
        return None
    conversations = json.loads(path.read_text(encoding="utf-8"))
    if not _synced(root):
        for copy in range(copies):
            for number, conversation in enumerate(conversations, 1):
                talk = conversation["conversation"]
                target = root / f"c{copy:02d}" / f"conv{number:02d}"
                target.mkdir(parents=True, exist_ok=True)
                sessions = sorted(int(k.split("_")[1]) for k in talk if k.startswith("session_") and k.count("_") == 1)
                for n in sessions:
                    date = talk.get(f"session_{n}_date_time", "")
                    parts = [f"# Conversation {number}, session {n} ({date}) {_marker(copy)}\n"]
                    for turn in talk[f"session_{n}"]:
                        text = turn["text"] + (
                            f"\n\n[image: {turn['blip_caption']}]" if turn.get("blip_caption") else ""
                        )
                        parts.append(f"\n## {turn['speaker']} ({date})\n\n{text} {_marker(copy)}\n")
                    (target / f"session{n:02d}.md").write_text("".join(parts), encoding="utf-8")
        _sync(root, "locomo")
    else:
        _resync(root)
    warm = [qa["question"] for c in conversations[:5] for qa in c["qa"]]
    timed = [qa["question"] for c in conversations[5:] for qa in c["qa"]]
    return root, warm, timed


def _marker(copy: int) -> str:
    """A word no question holds that tells the copies apart: kenning keeps identical excerpts once.
    It ends the title line and the last paragraph (a section of its own, it made a title-only
    excerpt one excerpt with ten locations and the marker alone an excerpt: ``LAYOUT`` 1)."""
    return f"zq{copy:02d}"


def _synced(root: Path) -> bool:
    """Whether ``root`` holds a store synced from this script's current files (``LAYOUT``). A
    kept folder of another layout is removed: synced again over it, its every excerpt would be
    superseded, not gone (twice the rows, and a store no fresh sync makes)."""
    done = root / ".kenning" / "bench-synced"
    if done.exists() and done.read_text(encoding="utf-8").strip() == LAYOUT:
        return True
    if done.exists():  # a store this script made (nothing else is removed)
        shutil.rmtree(root)
    return False


def _sync(root: Path, name: str) -> None:
    from kenning.clock import utc_now
    from kenning.config import init_project, load_project
    from kenning.sync.run import sync

    project, _ = init_project(root, name)
    config = project.state_dir / "config.toml"
    text = config.read_text(encoding="utf-8").split("\n[dense]")[0]
    config.write_text(f"{text}\n[dense]\nenabled = false\n", encoding="utf-8")
    started = time.perf_counter()
    sync(load_project(root), now=utc_now())
    (root / ".kenning" / "bench-synced").write_text(LAYOUT, encoding="utf-8")
    print(f"{name}: synced in {time.perf_counter() - started:.1f} s", file=sys.stderr)


def _resync(root: Path) -> None:
    """A kept store: a no-op sync, which migrates a store an older kenning wrote."""
    from kenning.clock import utc_now
    from kenning.config import load_project
    from kenning.sync.run import sync

    sync(load_project(root), now=utc_now())


def _measure(root: Path, warm: list[str], timed: list[str], mcp: bool, baseline: Path | None = None) -> dict:
    from kenning.answer.ask import ask_project
    from kenning.bench.speed import quantile
    from kenning.clock import utc_now
    from kenning.config import load_project
    from kenning.search import lexical
    from kenning.search.query import parse
    from kenning.store import fts, postings
    from kenning.store.db import connect

    project = load_project(root)
    conn = connect(project.db_path)
    excerpts = conn.execute("SELECT count(*) FROM facts").fetchone()[0]
    if excerpts < TARGET_EXCERPTS:
        print(f"warning: {excerpts} excerpts, fewer than {TARGET_EXCERPTS}: raise --copies", file=sys.stderr)
    now = utc_now()
    matches = [parse(q).fts for q in timed]
    timings: dict[str, list[float]] = {k: [] for k in ("or", "ranking", "pure", "fts_topk", "ask", "ask_cold", "again")}
    lexical.keep_word_lists()  # as the MCP and web servers do
    phrases_allowed = postings.MAX_PHRASES
    same = 0  # questions whose ranking is the same from the lists (numpy, pure) and from FTS5

    results: dict[str, object] = {}

    def clock(key: str, work) -> None:
        started = time.perf_counter()
        results[key] = work()
        timings[key].append((time.perf_counter() - started) * 1000)

    postings.clear()
    for question in timed:  # cold: no list read yet in this process
        clock("ask_cold", lambda q=question: ask_project(project, q, now=now))
    postings.clear()
    started = time.perf_counter()
    task = lexical.warm_word_lists(project.db_path)  # as the servers do at start: common words' lists
    if task is not None:
        task.done.wait()
    warm_seconds = time.perf_counter() - started
    warm_lists, warm_postings = (task.lists, task.postings) if task else (0, 0)
    warm_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    for question in warm:
        ask_project(project, question, now=now, conn=conn)
    for question, match in zip(timed, matches, strict=True):
        if match is None:
            continue
        # the ask first: the lists of its words that neither the warm-up nor the warm questions
        # read are read in its time, as a server's first asking of them does
        clock("ask", lambda q=question: ask_project(project, q, now=now, conn=conn))
        clock("or", lambda m=match: conn.execute(OR_QUERY, (m,)).fetchall())
        clock("ranking", lambda m=match: lexical.bm25(conn, m, fts.Filters(), 10))
        postings.USE_NUMPY = False
        clock("pure", lambda m=match: lexical.bm25(conn, m, fts.Filters(), 10))
        postings.USE_NUMPY = True
        postings.MAX_PHRASES = 0  # the lists step aside: fts_topk ranks
        clock("fts_topk", lambda m=match: lexical.bm25(conn, m, fts.Filters(), 10))
        postings.MAX_PHRASES = phrases_allowed
        same += results["ranking"] == results["pure"] == results["fts_topk"]  # hits and scores, bit for bit
    for question in timed:  # the same questions again: every list read
        clock("again", lambda q=question: ask_project(project, q, now=now, conn=conn))
    held = postings.cached_postings()
    conn.close()
    figures = {
        "excerpts": excerpts,
        "warm_questions": len(warm),
        "timed_questions": len(timed),
        "rankings_identical": f"{same} of {sum(m is not None for m in matches)}",
        "cached_postings": held,
        "cached_mb": round(held * 16 / 1e6, 1),
        "warmup_seconds": round(warm_seconds, 2),
        "warmup_lists": warm_lists,
        "warmup_postings": warm_postings,
        "warmup_mb": round(warm_postings * 16 / 1e6, 1),
        "max_rss_after_warmup_mb": round(warm_rss, 1),
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
    for key, values in timings.items():
        figures[key] = {"p50": round(quantile(values, 0.5), 2), "p95": round(quantile(values, 0.95), 2)}
    if mcp:
        runs = asyncio.run(_mcp(root, warm, timed, pause=warm_seconds * 1.5, baseline=baseline))
        for prefix, (calls, checks, cpu) in zip(("mcp", "baseline_mcp"), runs[:2], strict=False):
            first, again = calls[: len(timed)], calls[len(timed) :]
            figures[f"{prefix}_cpu_per_call_ms"] = cpu
            figures[prefix] = {"p50": round(quantile(first, 0.5), 2), "p95": round(quantile(first, 0.95), 2)}
            figures[f"{prefix}_again"] = {"p50": round(quantile(again, 0.5), 2), "p95": round(quantile(again, 0.95), 2)}
            figures[f"{prefix}_client_check"] = {
                "p50": round(quantile(checks, 0.5), 2),
                "p95": round(quantile(checks, 0.95), 2),
            }
        if baseline is not None:
            figures["baseline_same_answers"] = runs[2]
    return figures


async def _mcp(root: Path, warm: list[str], timed: list[str], pause: float, baseline: Path | None) -> list:
    """Per server: the time of each timed ``memory_ask`` call as the SDK client sees it, of
    the client's own check of each result against the tool's output schema (the SDK's
    ``jsonschema.validate``, inside the call's time: a cost of the Python client), and the CPU
    time per timed call of the server process and of the client. With ``baseline``, a second
    server runs the code under that folder (``PYTHONPATH``), each question asked of both in
    turn (the order alternating), and the count of answers identical but for the time of
    the freshness check follows."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    kenning = str(Path(sys.executable).with_name("kenning"))
    envs = [dict(os.environ)] + ([{**os.environ, "PYTHONPATH": str(baseline)}] if baseline else [])
    timings: list[list[float]] = [[] for _ in envs]
    checks: list[list[float]] = [[] for _ in envs]
    answers: list[list[str]] = [[] for _ in envs]
    client_cpu = [0.0 for _ in envs]
    failed = []
    refused = [0 for _ in envs]
    async with contextlib.AsyncExitStack() as stack:
        sessions, pids = [], []
        for n, env in enumerate(envs):
            params = StdioServerParameters(command=kenning, args=["mcp", "--project", str(root)], env=env)
            read, write = await stack.enter_async_context(stdio_client(params))
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
            pids.append(next(pid for pid in _children() if pid not in pids))
            validate = session._validate_tool_result

            async def timed_check(name: str, result: object, n: int = n, validate=validate) -> None:
                started = time.perf_counter()
                await validate(name, result)
                checks[n].append((time.perf_counter() - started) * 1000)

            session._validate_tool_result = timed_check  # type: ignore[method-assign]  # timed, unchanged
            sessions.append(session)
        await asyncio.sleep(pause)  # the servers' own warm-up (started with them) ends meanwhile
        for question in warm:
            for session in sessions:
                await session.call_tool("memory_ask", {"question": question})
        for done in checks:
            done.clear()
        server = [_children().get(pid) for pid in pids]
        for k, question in enumerate([*timed, *timed]):  # then again: every list read
            for n in range(len(sessions)) if k % 2 == 0 else reversed(range(len(sessions))):
                cpu, started = time.process_time(), time.perf_counter()
                result = await sessions[n].call_tool("memory_ask", {"question": question})
                timings[n].append((time.perf_counter() - started) * 1000)
                client_cpu[n] += time.process_time() - cpu
                answers[n].append(_CHECKED.sub("", json.dumps(result.structuredContent, sort_keys=True)))
                if result.isError:  # timed all the same (a query stopped by its budget costs that budget)
                    failed.append(f"{question!r}: {result.content[0].text.splitlines()[0]}")
                    refused[n] += 1
        server_after, count = [_children().get(pid) for pid in pids], 2 * len(timed)
    for line in failed:
        print(f"memory_ask failed on {line}", file=sys.stderr)
    if any(count and n == count for n in refused):  # nothing answered: no figure to give (a baseline whose
        # code predates a migration of this tree refuses its store: StoreOutdated)
        who = "the baseline's" if baseline and refused[-1] == count else "this tree's"
        raise SystemExit(f"{who} MCP server answered none of the {count} questions: {failed[-1]}")
    runs: list = []
    for n in range(len(envs)):
        before, after = server[n], server_after[n]
        cpu_figures = {
            "server": None if before is None or after is None else round((after - before) / count * 1000, 2),
            "client": round(client_cpu[n] / count * 1000, 2),
        }
        runs.append((timings[n], checks[n], cpu_figures))
    if baseline:
        runs.append(f"{sum(a == b for a, b in zip(*answers, strict=True))} of {count}")
    return runs


_CHECKED = re.compile(r'"checked": "[^"]*"')


def _children() -> dict[int, float]:
    """CPU seconds (user + system, every thread) of each ``kenning`` child of this process:
    the MCP servers (Linux ``/proc``; none found elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    found = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            name, fields = stat.read_text().rsplit(")", 1)
        except OSError:
            continue
        values = fields.split()
        if int(values[1]) == os.getpid() and name.endswith("(kenning"):
            found[int(stat.parent.name)] = (int(values[11]) + int(values[12])) / ticks
    return found


def _print(results: dict) -> None:
    rows = []
    for name, f in results.items():
        ratio = round(f["ask"]["p95"] / f["or"]["p95"], 3) if f["or"]["p95"] else None
        mcp = f.get("mcp", {})
        rows.append(
            [
                name,
                f["excerpts"],
                f"{f['or']['p50']} / {f['or']['p95']}",
                f"{f['fts_topk']['p50']} / {f['fts_topk']['p95']}",
                f"{f['ranking']['p50']} / {f['ranking']['p95']}",
                f"{f['pure']['p50']} / {f['pure']['p95']}",
                f"{f['ask_cold']['p50']} / {f['ask_cold']['p95']}",
                f"{f['ask']['p50']} / {f['ask']['p95']}",
                f"{f['again']['p50']} / {f['again']['p95']}",
                f"{mcp.get('p50')} / {mcp.get('p95')}" if mcp else None,
                f"{f['mcp_again']['p50']} / {f['mcp_again']['p95']}" if mcp else None,
                f"{f['mcp_client_check']['p50']} / {f['mcp_client_check']['p95']}" if mcp else None,
                f"{f['mcp_cpu_per_call_ms']['server']} / {f['mcp_cpu_per_call_ms']['client']}" if mcp else None,
                ratio,
                f["cached_mb"],
                f"{f['warmup_seconds']} s, {f['warmup_mb']} MB",
                " ".join(map(str, f["load_average"])),
            ]
        )
    headers = [
        "corpus",
        "excerpts",
        "OR query",
        "fts_topk",
        "ranking",
        "pure",
        "ask cold",
        "ask",
        "ask again",
        "MCP",
        "MCP again",
        "client check",
        "CPU/call server / client",
        "ask/OR p95",
    ]
    print("p50 / p95 in ms, 10 results")
    print(table([*headers, "lists MB", "warm-up", "load"], rows))
    pairs = []
    for name, f in results.items():
        for label, prefix in (("this code", "mcp"), ("baseline", "baseline_mcp")):
            if f"{prefix}_again" in f and "baseline_mcp" in f:
                cpu = f[f"{prefix}_cpu_per_call_ms"]
                pairs.append(
                    [
                        name,
                        label,
                        f"{f[prefix]['p50']} / {f[prefix]['p95']}",
                        f"{f[f'{prefix}_again']['p50']} / {f[f'{prefix}_again']['p95']}",
                        f"{cpu['server']} / {cpu['client']}",
                        f["baseline_same_answers"],
                    ]
                )
    if pairs:
        print("MCP, two servers asked in turn:")
        print(table(["corpus", "server", "MCP", "MCP again", "CPU/call server / client", "same answers"], pairs))


if __name__ == "__main__":
    raise SystemExit(main())
