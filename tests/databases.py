"""Raw access to the test databases of both back ends (used by tests/conftest.py's fixtures
and by the tests themselves; a module of its own so that there is one `Database` class)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.pg_cluster import Cluster

BACKENDS = ("sqlite", "postgres")
# For a test whose subject exists in SQLite only (a file, its -wal, text that is not UTF-8).
SQLITE_ONLY = pytest.mark.parametrize("database", ["sqlite"], indirect=True)
# For a test of several bot processes on one database: PostgreSQL only (a second process on an
# SQLite file is refused: store/file_lock.py, tests/store/test_store_startup.py).
POSTGRES_ONLY = pytest.mark.parametrize("database", ["postgres"], indirect=True)


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


def pg_admin(cluster: Cluster, *statements: str) -> None:
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
                triggers = db.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name IN"
                                      " ('actions_are_never_updated', 'actions_are_never_deleted')").fetchall()
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


