"""The long-lived servers (`kenning serve`, `kenning mcp --http`) stop cleanly on SIGTERM,
SIGINT or SIGHUP and exit 0, the port released: uvicorn re-raised the signal after its clean shutdown,
so the process died of SIGTERM (exit 143, a failure to systemd or `docker stop`) or ended in
KeyboardInterrupt (exit 130). The real command in a subprocess, a real request first."""

from __future__ import annotations

import os
import pty
import select
import signal
import socket
import subprocess
import sys

import pytest
from terminal import read_to_end

from conftest import on_free_port, wait_until_served

COMMANDS = {"serve": ("serve",), "mcp --http": ("mcp", "--http")}


def refused(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    except ConnectionRefusedError:
        return True
    return False


@pytest.mark.parametrize(
    ("command", "sig"),
    [
        ("serve", signal.SIGTERM),
        ("mcp --http", signal.SIGTERM),
        ("serve", signal.SIGINT),
        ("serve", signal.SIGHUP),  # the terminal closed: it killed the process, exit 129
        ("mcp --http", signal.SIGHUP),
    ],
)
def test_a_server_stopped_by_a_signal_exits_0_and_releases_its_port(make_project, isolated_home, command, sig):
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    args = (*COMMANDS[command], "--project", str(project.root))
    with on_free_port(*args, home=isolated_home) as (server, port):
        wait_until_served(server, port)
        server.send_signal(sig)
        code = server.wait(timeout=20)
        assert server.stderr is not None
        rest = server.stderr.read()
    assert code == 0, rest
    assert "Traceback" not in rest and "stopped on" not in rest  # stderr is no terminal: nothing said
    assert refused(port)


def test_a_clean_stop_says_so_in_one_line_when_stderr_is_a_terminal(make_project, isolated_home):
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    main, tty = pty.openpty()
    server = subprocess.Popen(
        [sys.executable, "-m", "kenning.interfaces.cli.main", "serve", "--port", "0", "--project", str(project.root)],
        env={**os.environ, "KENNING_HOME": str(isolated_home)},
        stderr=tty,
        stdout=subprocess.DEVNULL,
    )
    os.close(tty)
    try:
        seen = b""
        while b"\n" not in seen:
            ready, _, _ = select.select([main], [], [], 30)
            assert ready, "no banner within 30 s"
            seen += os.read(main, 1024)
        port = int(seen.decode().split("http://127.0.0.1:")[1].split("/")[0])
        wait_until_served(server, port)  # type: ignore[arg-type]
        server.send_signal(signal.SIGTERM)
        code = server.wait(timeout=20)
        seen += read_to_end(main)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
        os.close(main)
    lines = seen.decode().splitlines()
    assert code == 0
    assert lines[-1] == "kenning serve: stopped on SIGTERM, shut down cleanly"
    assert len(lines) == 2, lines  # the banner, then that line only


def test_a_server_whose_app_fails_to_start_still_exits_non_zero_and_keeps_the_signal_handlers():
    """The other side of the clean stop: a failure is not turned into exit 0."""
    from contextlib import asynccontextmanager

    from starlette.applications import Starlette

    from kenning.interfaces.serve import listen, run

    @asynccontextmanager
    async def broken(app):
        raise RuntimeError("the store cannot be opened")
        yield

    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    sock = listen("127.0.0.1", 0)
    with pytest.raises(SystemExit) as stopped:
        run(Starlette(lifespan=broken), sock)
    sock.close()
    assert stopped.value.code == 3  # uvicorn's start-up failure
    assert {sig: signal.getsignal(sig) for sig in before} == before


@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_server_whose_terminal_closes_stops_cleanly_and_exits_0(make_project, isolated_home, command):
    """The terminal closed for real: the server's controlling terminal (a pty) loses its other
    end, the kernel sends SIGHUP, and stderr can no longer be written. Before, SIGHUP killed it
    (exit 129) with its store open."""
    import fcntl
    import termios

    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    main, tty = pty.openpty()
    server = subprocess.Popen(
        [sys.executable, "-m", "kenning.interfaces.cli.main", *COMMANDS[command], "--port", "0"]
        + ["--project", str(project.root)],
        env={**os.environ, "KENNING_HOME": str(isolated_home)},
        stderr=tty,
        stdout=subprocess.DEVNULL,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(2, termios.TIOCSCTTY, 0),  # the pty: its controlling terminal
    )
    os.close(tty)
    try:
        seen = b""
        while b"\n" not in seen:
            ready, _, _ = select.select([main], [], [], 30)
            assert ready, "no banner within 30 s"
            seen += os.read(main, 1024)
        port = int(seen.decode().split("http://127.0.0.1:")[1].split("/")[0])
        wait_until_served(server, port)  # type: ignore[arg-type]
    finally:
        os.close(main)  # the terminal closes: SIGHUP
    try:
        code = server.wait(timeout=20)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
    assert code == 0
    assert refused(port)


def test_a_forced_stop_says_so_on_a_terminal_and_exits_130(monkeypatch, capsys):
    """A second Ctrl-C (the real commands: test_server_in_flight.py, test_mcp_stdio_stop.py)."""
    from kenning.interfaces.cli import serve_cmds
    from kenning.interfaces.serve import Stopped

    monkeypatch.setattr(serve_cmds, "stderr_is_terminal", lambda: True)
    with pytest.raises(SystemExit) as forced:
        serve_cmds.said_stopped(Stopped(signal.SIGTERM, forced=True), "kenning serve")
    assert forced.value.code == 130
    said = capsys.readouterr().err
    assert said == "kenning serve: stopped at once on a second SIGINT, requests in flight cancelled\n"

    def hung_up(message: str) -> None:
        raise OSError(5, "Input/output error")  # a terminal that closed (SIGHUP)

    monkeypatch.setattr(serve_cmds, "warn", hung_up)
    serve_cmds.said_stopped(Stopped(signal.SIGHUP), "kenning serve")  # a clean stop: no error, exit 0


def test_a_sigterm_while_uvicorn_is_still_starting_stops_the_server_not_lost(monkeypatch):
    """A SIGTERM after kenning's handlers were put in but before uvicorn's own (a supervisor
    stopping a server that just printed its banner) was noted and dropped: the server then
    served until killed. It now starts, runs its lifespan and stops at once, exit 0."""
    import threading
    import time
    from contextlib import asynccontextmanager

    import uvicorn
    from starlette.applications import Starlette

    from kenning.interfaces.serve import listen, run

    ran: list[str] = []

    @asynccontextmanager
    async def lifespan(app):
        ran.append("startup")
        yield
        ran.append("shutdown")

    real_init = uvicorn.Server.__init__

    def init_then_signal(self, config):  # noqa: ANN001, ANN202
        signal.raise_signal(signal.SIGTERM)  # kenning's handler is in, uvicorn's not yet
        real_init(self, config)

    monkeypatch.setattr(uvicorn.Server, "__init__", init_then_signal)
    rescue = threading.Timer(15, lambda: os.kill(os.getpid(), signal.SIGINT))  # the old behaviour: ran on
    rescue.start()
    sock = listen("127.0.0.1", 0)
    started = time.monotonic()
    try:
        stopped = run(Starlette(lifespan=lifespan), sock)
    finally:
        rescue.cancel()
        sock.close()
    assert time.monotonic() - started < 10
    assert stopped is not None and stopped.signal is signal.SIGTERM and not stopped.forced
    assert ran == ["startup", "shutdown"]


@pytest.mark.parametrize("command", ["serve", "mcp --http", "serve --mcp"])
def test_a_signal_as_soon_as_the_banner_is_read_stops_the_server_cleanly(make_project, isolated_home, command):
    """A supervisor that stops a server the moment it prints its banner: the banner now comes
    once the server's handlers are in (``serve.run``'s ``ready``); before, a SIGTERM in the
    first moments after it, while uvicorn's modules loaded, killed the process (exit 143)."""
    project = make_project({"docs/a.md": "# Alpha\n\nCitations are computed at read time.\n"}, name="alpha")
    args = (*command.split(), "--project", str(project.root))
    for _ in range(3):
        with on_free_port(*args, home=isolated_home) as (server, port):
            server.send_signal(signal.SIGTERM)  # no request first: the banner alone was read
            code = server.wait(timeout=20)
            assert server.stderr is not None
            rest = server.stderr.read()
        assert code == 0, rest
        assert "Traceback" not in rest
        assert refused(port)
