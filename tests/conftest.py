"""The two back ends for the store and service tests (the conformance suite).

A test that takes `database` runs twice: on a new SQLite file, and on a new PostgreSQL
database of a throwaway server that the session starts in a temporary folder (tests/pg_cluster.py)
and stops at the end. `database.target` is what `Store.open` and `GameService.open` take;
`database.fetch`/`execute` read and change it from outside, as a hand edit or a disk fault
would (`?` placeholders on both; tests/databases.py).

Without PostgreSQL's server binaries the PostgreSQL half is skipped, with one line saying how
to install them; with TTR_REQUIRE_POSTGRES=1 (CI: .ci/run) a missing server fails instead.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.databases import BACKENDS, Database, pg_admin
from tests.pg_cluster import Cluster, NoServer

REQUIRE_POSTGRES = os.environ.get("TTR_REQUIRE_POSTGRES", "") not in ("", "0")
_skipped_because: list[str] = []
_names = itertools.count(1)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """A PostgreSQL server for the whole session (skipped, or failed, without one)."""
    try:
        cluster = Cluster.start()
    except NoServer as exc:
        if REQUIRE_POSTGRES:
            pytest.fail(f"TTR_REQUIRE_POSTGRES is set but no PostgreSQL server could be started: {exc}")
        _skipped_because.append(str(exc))
        pytest.skip(f"PostgreSQL half skipped: {exc}")
    try:
        yield cluster
    finally:
        cluster.stop()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _skipped_because:
        terminalreporter.write_line(f"PostgreSQL half of the suite skipped: {_skipped_because[0]}")


def new_database(request: pytest.FixtureRequest, kind: str, tmp_path: Path, name: str = "ttr") -> Database:
    """A new empty database of `kind` (dropped at the end of the test)."""
    if kind == "sqlite":
        return Database(kind, tmp_path / "data" / f"{name}.sqlite3")
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    db_name = f"t{os.getpid()}_{next(_names)}"
    pg_admin(cluster, f"CREATE DATABASE {db_name}")
    request.addfinalizer(lambda: pg_admin(cluster, f"DROP DATABASE IF EXISTS {db_name} WITH (FORCE)"))
    return Database(kind, cluster.url(db_name))


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A fresh empty database, once per back end."""
    return new_database(request, request.param, tmp_path)


@pytest.fixture
def other_database(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A maker of more empty databases (`other_database("postgres")`), for copies between back ends."""
    return lambda kind, name="other": new_database(request, kind, tmp_path, name)
