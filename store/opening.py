"""Opening the game store: the back end is chosen by the target, a `postgresql://` URL or an
SQLite file. This sits above the interface (store/repository.py) and both back ends that
implement it, so that the interface imports neither of them."""

from __future__ import annotations

import time
from pathlib import Path

from store.db import default_target
from store.repository import Clock, Store, Target, is_database_url


async def open_store(target: Target | None = None, *, clock: Clock = time.time, max_batch: int | None = None,
                     allow_init: bool = False, create_folder: bool = True) -> Store:
    """Open and migrate the game database at `target`: a `postgresql://` URL, or an SQLite
    file (default: $TTR_DATABASE, else data/ttr.sqlite3). Refuses a database it should
    not use with a DatabaseUnusable subclass whose message says what is wrong and what to
    do, having changed nothing (store/sqlite_store.py, store/postgres.py). `max_batch`:
    transactions per commit at most (default: 128 for SQLite, 1 for PostgreSQL)."""
    if target is None:
        target = default_target()
    if is_database_url(target):
        # Imported only for a PostgreSQL database: an SQLite bot never loads asyncpg.
        from store.postgres import PgStore

        return await PgStore.open_url(str(target), clock=clock, max_batch=max_batch)
    from store.sqlite_store import SqliteStore

    return await SqliteStore.open_file(Path(target), clock=clock, max_batch=max_batch or 128,
                                       allow_init=allow_init, create_folder=create_folder)
