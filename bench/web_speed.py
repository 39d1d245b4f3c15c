"""Cockpit speed (not a test): server time of the Ask page with 10 results, and of /api/ask.

Run: .venv/bin/python bench/web_speed.py [--markdown 2000] [--python 2000] [--requests 100]

Generates the corpus of bench/speed.py, syncs it, then asks questions that each return 10
excerpts. "In process" is Starlette's TestClient calling the ASGI app (routing, the core's
answer, template rendering: the server's whole work, no socket). "Loopback" is a real
uvicorn server on 127.0.0.1 timed from a keep-alive HTTP client (adds the socket and HTTP
parsing). Prints p50/p95; asserts nothing. Target (issue 16): Ask page with 10 results
<= 100 ms server time.
"""

from __future__ import annotations

import argparse
import http.client
import os
import platform
import socket
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode

import uvicorn
from starlette.testclient import TestClient

import _common  # noqa: F401  (puts src/ on the path)
from kenning.bench.speed import quantile
from kenning.config import init_project
from kenning.interfaces.web.app import create_app
from kenning.sync.run import sync
from speed import generate

QUESTIONS = [
    "how does the session token budget work",
    "cache of the manifest",
    "rrf fusion ranking",
    "graph edge node",
    "router pack budget",
    "migration schema trigger",
    "embedding latency",
    "session cache token",
    "sync parser section",
    "benchmark throughput",
    "confirm forget registry",
    "lexical trigram index",
    "precision coverage attribution",
    "module import call test",
]
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def timed(fetch, urls: list[str]) -> list[float]:
    times = []
    for url in urls:
        start = time.perf_counter()
        fetch(url)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--markdown", type=int, default=2000)
    parser.add_argument("--python", type=int, default=2000)
    parser.add_argument("--requests", type=int, default=100, help="timed requests per measure (>= 50)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kenning-web-bench-") as tmp:
        root = Path(tmp) / "corpus"
        root.mkdir()
        size = generate(root, args.markdown, args.python)
        project, _ = init_project(root, "webbench")
        sync(project, now=NOW)
        app = create_app(project, home=Path(tmp) / "home", clock=lambda: NOW)
        client = TestClient(app, base_url="http://127.0.0.1")
        pages = [f"/ask?{urlencode({'q': QUESTIONS[i % len(QUESTIONS)], 'limit': 10})}" for i in range(args.requests)]
        apis = [p.replace("/ask?", "/api/ask?", 1) for p in pages]
        counts = {len(client.get(url).json()["excerpts"]) for url in apis[: len(QUESTIONS)]}
        for url in pages[:10]:  # warm-up: templates compiled, caches filled
            assert client.get(url).status_code == 200

        def in_process(url: str) -> None:
            assert client.get(url).status_code == 200

        results = {"Ask page, in process": timed(in_process, pages), "/api/ask, in process": timed(in_process, apis)}
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        connection = http.client.HTTPConnection("127.0.0.1", port)

        def loopback(url: str) -> None:
            connection.request("GET", url)
            reply = connection.getresponse()
            reply.read()
            assert reply.status == 200

        for url in pages[:10]:
            loopback(url)
        results["Ask page, loopback HTTP"] = timed(loopback, pages)
        connection.close()
        server.should_exit = True
        thread.join(timeout=10)
    print(
        f"corpus: {args.markdown} Markdown + {args.python} Python files, {size / 1e6:.1f} MB; "
        f"excerpts per answer: {sorted(counts)}; {args.requests} requests per line"
    )
    print(f"machine: {os.cpu_count()} cpus, Python {platform.python_version()}, {platform.platform()}")
    for name, times in results.items():
        print(f"{name:<26} p50 {quantile(times, 0.5):6.1f} ms   p95 {quantile(times, 0.95):6.1f} ms")


if __name__ == "__main__":
    main()
