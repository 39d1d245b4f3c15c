"""The PostgreSQL engine for the store contract tests: SQLite always runs; PostgreSQL when
``KENNING_TEST_DATABASE_URL`` names a reachable server (``.ci/run`` starts one).

Outside CI an unreachable server skips the PostgreSQL runs with the reason; with CI=true it
fails them. Every contract test runs on both engines: a new one must pass on PostgreSQL too.
"""

from __future__ import annotations

import os
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
def _reachable() -> str | None:
    """The test server's URL, or why there is none."""
    url = os.environ.get("KENNING_TEST_DATABASE_URL")
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


def server_url() -> str:
    """The test server's URL; skips (fails with CI=true) when there is none."""
    url = _reachable()
    if url is None or url.startswith("!"):
        reason = "no PostgreSQL server: set KENNING_TEST_DATABASE_URL (`.ci/postgres.sh` starts one)"
        reason = reason if url is None else url[1:]
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI=true: the PostgreSQL contract runs are required)")
        pytest.skip(reason)
    return url
