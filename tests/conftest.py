"""The two back ends for the store and service tests (the conformance suite).

A test that takes `database` runs twice: on a new SQLite file, and on a new PostgreSQL
database of a throwaway server that the session starts in a temporary folder (tests/pg_cluster.py)
and stops at the end. `database.target` is what `Store.open` and `GameService.open` take;
`database.fetch`/`execute` read and change it from outside, as a hand edit or a disk fault
would (`?` placeholders on both).

Without PostgreSQL's server binaries the PostgreSQL half is skipped, with one line saying how
to install them; with TTR_REQUIRE_POSTGRES=1 (CI: .ci/run) a missing server fails instead.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.pg_cluster import Cluster, NoServer

BACKENDS = ("sqlite", "postgres")
# For a test whose subject exists in SQLite only (a file, its -wal, text that is not UTF-8).
SQLITE_ONLY = pytest.mark.parametrize("database", ["sqlite"], indirect=True)
REQUIRE_POSTGRES = os.environ.get("TTR_REQUIRE_POSTGRES", "") not in ("", "0")
_skipped_because: list[str] = []
_names = itertools.count(1)


def run_async(coroutine: Any) -> Any:
    """Run a coroutine to the end from synchronous code, even inside a running event loop."""
    out: dict[str, Any] = {}

    def target() -> None:
        try:
            out["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # handed to the caller
            out["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in out:
        raise out["error"]
    return out.get("value")


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


def _pg_admin(cluster: Cluster, *statements: str) -> None:
    import asyncpg

    async def go() -> None:
        conn = await asyncpg.connect(cluster.url("postgres"))
        try:
            for statement in statements:
                await conn.execute(statement)
        finally:
            await conn.close()

    run_async(go())


@dataclass
class Database:
    """A fresh, empty database of one back end, and raw access to it from outside the store."""

    kind: str
    target: Path | str

    @property
    def is_postgres(self) -> bool:
        return self.kind == "postgres"

    def fetch(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        """Rows of a query (synchronous: usable anywhere in a test)."""
        if not self.is_postgres:
            with sqlite3.connect(self.target, isolation_level=None) as db:
                return [tuple(r) for r in db.execute(sql, params).fetchall()]
        import asyncpg

        from store.postgres import to_postgres

        async def go() -> list[tuple[Any, ...]]:
            conn = await asyncpg.connect(str(self.target))
            try:
                return [tuple(r) for r in await conn.fetch(to_postgres(sql), *params)]
            finally:
                await conn.close()

        return run_async(go())

    def fetchone(self, sql: str, *params: Any) -> tuple[Any, ...] | None:
        rows = self.fetch(sql, *params)
        return rows[0] if rows else None

    def execute(self, *statements: str | tuple[str, tuple[Any, ...]], log_writable: bool = False) -> None:
        """Run statements in one transaction from outside (a hand edit). `log_writable`: with
        the log's append-only triggers off, as a disk fault or a careless edit would be."""
        pairs = [(s, ()) if isinstance(s, str) else s for s in statements]
        if not self.is_postgres:
            with sqlite3.connect(self.target, isolation_level=None) as db:
                triggers = db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
                if log_writable:
                    db.execute("DROP TRIGGER actions_are_never_updated")
                    db.execute("DROP TRIGGER actions_are_never_deleted")
                for sql, params in pairs:
                    db.execute(sql, params)
                if log_writable:
                    for (create,) in triggers:
                        db.execute(create)
            return
        import asyncpg

        from store.postgres import to_postgres

        async def go() -> None:
            conn = await asyncpg.connect(str(self.target))
            try:
                async with conn.transaction():
                    if log_writable:
                        await conn.execute("ALTER TABLE actions DISABLE TRIGGER USER")
                    for sql, params in pairs:
                        await conn.execute(to_postgres(sql), *params)
                    if log_writable:
                        await conn.execute("ALTER TABLE actions ENABLE TRIGGER USER")
            finally:
                await conn.close()

        run_async(go())


def new_database(request: pytest.FixtureRequest, kind: str, tmp_path: Path, name: str = "ttr") -> Database:
    """A new empty database of `kind` (dropped at the end of the test)."""
    if kind == "sqlite":
        return Database(kind, tmp_path / "data" / f"{name}.sqlite3")
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    db_name = f"t{os.getpid()}_{next(_names)}"
    _pg_admin(cluster, f"CREATE DATABASE {db_name}")
    request.addfinalizer(lambda: _pg_admin(cluster, f"DROP DATABASE IF EXISTS {db_name} WITH (FORCE)"))
    return Database(kind, cluster.url(db_name))


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A fresh empty database, once per back end."""
    return new_database(request, request.param, tmp_path)


@pytest.fixture
def other_database(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A maker of more empty databases (`other_database("postgres")`), for copies between back ends."""
    return lambda kind, name="other": new_database(request, kind, tmp_path, name)
