"""The fixtures every folder of tests/ shares: the two back ends for the store and service tests
(the conformance suite), the clock the test moves and the service on them.

A test that takes `database` runs twice: on a new SQLite file, and on a new PostgreSQL
database of a throwaway server that the session starts in a temporary folder (tests/pg_cluster.py)
and stops at the end. `database.target` is what `open_store` and `GameService.open` take;
`database.fetch`/`execute` read and change it from outside, as a hand edit or a disk fault
would (`?` placeholders on both; tests/databases.py).

Without PostgreSQL's server binaries the PostgreSQL half is skipped, with one line saying how
to install them; with TTR_REQUIRE_POSTGRES=1 (CI: .ci/run) a missing server fails instead.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import queue
import secrets
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.clock import Clock
from tests.databases import BACKENDS, Database
from tests.pg_cluster import Cluster, NoServer

if TYPE_CHECKING:
    from app import GameService

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


class Databases:
    """Empty databases on the session's server, each made before a test asks for it: a thread
    keeps one spare (CREATE DATABASE copies the template, ~150 ms) and drops the used ones,
    while the tests run, through one connection of its own."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self._work: queue.Queue[tuple[str, str] | None] = queue.Queue()
        self._made: queue.Queue[str | BaseException] = queue.Queue()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._serve()), name="test-databases", daemon=True)
        self._thread.start()
        self._order()

    def _order(self) -> None:
        self._work.put(("CREATE", f"t{os.getpid()}_{next(_names)}"))

    def take(self) -> str:
        """A new empty database's name (the next one is made meanwhile)."""
        self._order()
        made = self._made.get(timeout=120)
        if isinstance(made, BaseException):
            raise made
        return made

    def drop(self, name: str) -> None:
        """Drop it (soon, in the background; with its connections, as a test may leave one)."""
        self._work.put(("DROP", name))

    def close(self) -> None:
        self._work.put(None)
        self._thread.join(timeout=60)

    async def _serve(self) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.cluster.url("postgres"))
        try:
            while (job := await asyncio.to_thread(self._work.get)) is not None:
                verb, name = job
                try:
                    if verb == "CREATE":
                        await conn.execute(f"CREATE DATABASE {name}")
                        self._made.put(name)
                    else:
                        await conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
                except Exception as exc:  # handed to the test that waits for a database
                    if verb == "CREATE":
                        self._made.put(exc)
        finally:
            await conn.close()


@pytest.fixture(scope="session")
def pg_databases(pg_cluster: Cluster) -> Iterator[Databases]:
    databases = Databases(pg_cluster)
    try:
        yield databases
    finally:
        databases.close()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _skipped_because:
        terminalreporter.write_line(f"PostgreSQL half of the suite skipped: {_skipped_because[0]}")


def new_database(request: pytest.FixtureRequest, kind: str, tmp_path: Path, name: str = "ttr") -> Database:
    """A new empty database of `kind` (dropped at the end of the test)."""
    if kind == "sqlite":
        return Database(kind, tmp_path / "data" / f"{name}.sqlite3")
    databases: Databases = request.getfixturevalue("pg_databases")
    db_name = databases.take()
    request.addfinalizer(lambda: databases.drop(db_name))
    return Database(kind, databases.cluster.url(db_name))


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    """A fresh empty database, once per back end."""
    return new_database(request, request.param, tmp_path)


@pytest.fixture
def other_database(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    """A maker of more empty databases (`other_database("postgres")`), for copies between back ends."""
    return lambda kind, name="other": new_database(request, kind, tmp_path, name)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "clock_at(when): the `clock` fixture starts at these Unix seconds")


@pytest.fixture
def clock(request: pytest.FixtureRequest) -> Clock:
    """A clock the test moves by hand, at 1,700,000,000 (November 2023) unless the test or its
    file is marked `@pytest.mark.clock_at(when)`."""
    mark = request.node.get_closest_marker("clock_at")
    return Clock(*mark.args) if mark else Clock()


@pytest.fixture
def random_bits() -> Callable[[int], int]:
    """Where the `service` fixture's deals and AIs draw their chance: real secrets, as in the
    bot. A file whose tests need the same deals every run overrides it with a seeded one."""
    return secrets.randbits


@pytest.fixture
async def service(database: Database, clock: Clock, random_bits: Callable[[int], int]) -> AsyncIterator[GameService]:
    """The game service on a fresh database of each back end, on `clock`, with no caps on what
    one user may open (tests/app/test_limits.py tests the caps)."""
    from app import GameService, Limits  # here: the engine's and the store's tests need no service

    svc = await GameService.open(database.target, clock=clock, limits=Limits.unlimited(), random_bits=random_bits)
    yield svc
    await svc.close()


# The suite runs in two processes (pytest-xdist, `-n 2 --dist loadfile` in pyproject.toml): each
# test file in one of them. A process keeps every board base it drew (as the bot does) and two
# such processes together came within 100 MB of the suite's 2 GB budget; a process that holds more
# than this forgets its bases between two files (the next file that needs one draws it again).
MAX_TEST_PROCESS_MB = 420


def _resident_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0  # not Linux: nothing measured, nothing forgotten


def _forget_bases_above(limit_mb: float) -> None:
    if _resident_mb() > limit_mb:
        import gc

        from render.base_cache import clear_cache
        from render.memory import give_back

        clear_cache()
        gc.collect()
        give_back()


@pytest.fixture(scope="module", autouse=True)
def _bounded_memory_between_files() -> Iterator[None]:
    yield
    _forget_bases_above(MAX_TEST_PROCESS_MB)


# The files that take longest (bench/bench_tests.py, --durations), run first: with two processes
# each taking the next file, the long ones start at once and the many short ones fill in at the
# end, instead of one long file running alone while the other process waits. Only an order:
# a file not named here runs after them, as collected.
LONGEST_FIRST = (  # by the 6 December run's --durations, seconds per file in parentheses
    "test_render_encode.py", "test_picture_words.py", "test_store_snapshots.py",  # (43, 43, 33)
    "test_render_selfplay.py", "test_bot_units.py", "test_render_pool.py", "test_agents.py",  # (28-32)
    "test_store_crash.py", "test_selfplay_invariants.py", "test_replay.py",  # (21-25)
    "test_bot_hostile_input.py", "test_store_startup.py", "test_failover_shards.py",  # (17-21)
    "test_bot_e2e.py", "test_failover_pg_stop.py", "test_bot_wishes.py",  # (16-17)
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: each file stays in order
