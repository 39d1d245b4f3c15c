"""Shared fixtures: an isolated KENNING_HOME, a project factory, and a CLI runner."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from kenning.config import Project, init_project
from kenning.sync.run import SyncReport, sync

NOW = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
# Four short English passages, each on one subject: what the dense tests embed and ask about.
DENSE_DOCS = {
    "docs/cancel.md": "# Cancelling slow calls\n\nWrap the fetch in an AbortController and call abort() after a "
    "delay: the pending fetch rejects with an AbortError.\n",
    "docs/auth.md": "# Authentication\n\nUsers sign in with a token; the server checks its signature and expiry "
    "before serving any page.\n",
    "docs/install.md": "# Installation\n\nRun pip install in a virtual environment, then kenning init in the "
    "project root.\n",
    "docs/logging.md": "# Logging\n\nConfigure handlers and levels in logging.toml; messages go to stderr.\n",
}


def isolate(patch: pytest.MonkeyPatch, home: Path) -> Path:
    """The environment a test sees: its own KENNING_HOME, no clock or store from the shell."""
    patch.setenv("KENNING_HOME", str(home))
    patch.delenv("KENNING_NOW", raising=False)
    patch.delenv("KENNING_DATABASE_URL", raising=False)  # the level-2 tests set it themselves
    return home


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    return isolate(monkeypatch, tmp_path_factory.mktemp("kenning-home"))


@contextmanager
def module_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The same isolation for a module-scoped fixture, which runs before ``isolated_home``:
    without it a store built once for a module would follow the shell's KENNING_DATABASE_URL."""
    with pytest.MonkeyPatch.context() as patch:
        yield isolate(patch, tmp_path_factory.mktemp("module-home"))


@contextmanager
def module_store(tmp_path_factory: pytest.TempPathFactory, files: dict[str, str]) -> Iterator[tuple[Project, Any]]:
    """A project of ``files`` synced once for a module's tests, and a connection to its store."""
    from kenning.store.db import connect

    root = tmp_path_factory.mktemp("module-store") / "demo"
    root.mkdir()
    write_files(root, files)
    with module_home(tmp_path_factory):
        project, _ = init_project(root, "demo")
        resync(project)
    conn = connect(project.db_path)
    try:
        yield project, conn
    finally:
        conn.close()


@pytest.fixture(autouse=True)
def dense_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """Embedding every fixture project would slow the whole suite: dense (level 1) is off unless
    a test turns it on (tests/dense/ do, on a handful of passages)."""
    import kenning.dense

    monkeypatch.setattr(kenning.dense, "ENABLED", False)


def write_files(root: Path, files: dict[str, str | bytes]) -> None:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")


@pytest.fixture
def make_project(tmp_path: Path) -> Callable[..., Project]:
    """A project directory with the given files, initialised (not synced)."""

    def make(files: dict[str, str | bytes], name: str = "demo", config: str | None = None) -> Project:
        root = tmp_path / name
        root.mkdir()
        write_files(root, files)
        project, _ = init_project(root, name)
        if config is not None:
            (root / ".kenning" / "config.toml").write_text(config, encoding="utf-8")
            from kenning.config import load_project

            project = load_project(root)
        return project

    return make


GIT_ENV = {
    "GIT_AUTHOR_NAME": "Ada",
    "GIT_AUTHOR_EMAIL": "ada@example.org",
    "GIT_COMMITTER_NAME": "Ada",
    "GIT_COMMITTER_EMAIL": "ada@example.org",
    "GIT_AUTHOR_DATE": "2026-03-01T10:00:00+00:00",
    "GIT_COMMITTER_DATE": "2026-03-01T10:00:00+00:00",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def env_without(folder: Path, module: str) -> dict[str, str]:
    """An environment whose Python processes cannot import ``module``: a module of that name
    raising ImportError, in ``folder``, first on ``PYTHONPATH``."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{module}.py").write_text("raise ImportError('hidden by the test')\n", encoding="utf-8")
    path = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}


def ask_loading(
    root: Path, question: str, watched: tuple[str, ...], env: dict[str, str] | None = None
) -> tuple[dict, set[str]]:
    """``kenning ask --json`` through the console script's entry, in a fresh interpreter: the
    answer, and which of the modules ``watched`` the process imported."""
    code = (
        "import sys\n"
        "from kenning.interfaces.cli.entry import run\n"
        f"try:\n    run(['ask', {question!r}, '--project', {str(root)!r}, '--json'])\n"
        "except SystemExit as exc:\n    assert exc.code == 0, exc.code\n"
        f"sys.stderr.write('loaded: ' + ' '.join(m for m in {watched!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout), set(done.stderr.rsplit("loaded:", 1)[1].split())


def git(root: Path, *args: str) -> str:
    """Run git in ``root`` with a fixed identity and dates, and no user or system config."""
    return subprocess.run(
        ["git", "-C", str(root), *args], env={**os.environ, **GIT_ENV}, check=True, capture_output=True, text=True
    ).stdout


def commit_all(root: Path, message: str = "Initial import") -> str:
    """``git init`` (once) and commit everything under ``root``; the new HEAD."""
    if not (root / ".git").exists():
        git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


def resync(project: Project, now: datetime = NOW) -> SyncReport:
    return sync(project, now=now)


def bump_mtime(path: Path, seconds: int = 5) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 1_000_000_000))


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self) -> dict:
        return json.loads(self.out)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    """Run `kenning ARGS` in-process through the console script's entry point (exit codes
    included; `search`, `ask` and `hook session-start` take the paths that skip click)."""
    from kenning.interfaces.cli.entry import run as entry

    def run(*args: str) -> Result:
        capsys.readouterr()
        try:
            entry(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        else:
            code = 0
        captured = capsys.readouterr()
        return Result(code, captured.out, captured.err)

    return run


def through_click(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    """Run `kenning ARGS` through click's group (``cli.main``), never the console script's paths
    that skip it: (exit code, stdout, stderr)."""
    from kenning.interfaces.cli.main import main as click_main

    capsys.readouterr()
    with pytest.raises(SystemExit) as done:
        click_main(args)
    captured = capsys.readouterr()
    return done.value.code, captured.out, captured.err


def wait_until_served(server: subprocess.Popen[str], port: int) -> None:
    """Until an HTTP request gets an answer (any status: `/mcp` answers 401 without a token)."""
    import httpx

    deadline = time.monotonic() + 30
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/", timeout=2)
            return
        except httpx.TransportError:
            assert time.monotonic() < deadline and server.poll() is None, "the server did not start"
            time.sleep(0.1)


@contextmanager
def on_free_port(*args: str, home: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    """``kenning ARGS --port 0`` in a subprocess (a server: serve, mcp --http; ``--host`` among
    ARGS if any), with the port its first stderr line names; stopped when the block ends."""
    server = subprocess.Popen(
        [sys.executable, "-m", "kenning.interfaces.cli.main", *args, "--port", "0"],
        env={**os.environ, "KENNING_HOME": str(home)},
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stderr is not None
        banner = server.stderr.readline()
        served = re.search(r"http://\S+:(\d+)/", banner)  # 127.0.0.1, or the --host given
        assert served is not None, banner
        yield server, int(served[1])
    finally:
        server.terminate()
        server.wait(timeout=10)
