"""Numbered SQL migrations, applied at start-up and recorded in `schema_version`.

Migrations live in store/migrations/NNNN_name.sql, numbered from 1 in increasing order: ONE
list for both back ends. A number may be missing (work on two branches reserves one each, and
the other lands later), so a database records every migration applied to it in
`schema_version`, and start-up applies every migration it does not record yet, in order — not
merely those above its highest number. Each one runs in its own transaction together with its
row in `schema_version`, so a crash in the middle of one leaves the database as it was before
it. A database that records a migration this code does not know (a newer bot's) is refused
untouched.

PostgreSQL runs the same files, with two rules (`Migration.sql_for`):

- where a file `NNNN_name.postgres.sql` sits beside `NNNN_name.sql`, PostgreSQL runs that one
  instead (the first four: SQLite's AUTOINCREMENT, WITHOUT ROWID, triggers and JSON functions
  have no common spelling);
- otherwise the SQLite text runs with the column types spelled for PostgreSQL: `INTEGER`
  becomes `BIGINT` (Discord ids need 64 bits; SQLite's INTEGER has them) and `REAL` becomes
  `DOUBLE PRECISION` (PostgreSQL's REAL is 4 bytes: a Unix time would lose its seconds).

So a new migration is usually one plain file that both run as it is.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import aiosqlite

from store.errors import MigrationError, NotAGameDatabase, SchemaTooNew, UnreadableValue

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
_POSTGRES_NAME = re.compile(r"^(\d{4})_([a-z0-9_]+)\.postgres\.sql$")
# The type words of a shared migration, as PostgreSQL must spell them (see the docstring).
_POSTGRES_TYPES = ((re.compile(r"\bINTEGER\b"), "BIGINT"), (re.compile(r"\bREAL\b"), "DOUBLE PRECISION"))

SQLITE = "sqlite"
POSTGRES = "postgres"

_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at REAL NOT NULL
)
"""


@dataclass(frozen=True)
class Migration:
    """One numbered migration script."""

    version: int
    name: str
    sql: str
    # The PostgreSQL text from NNNN_name.postgres.sql, when the two differ.
    postgres_sql: str | None = None

    def statements(self) -> list[str]:
        """The script split into single statements (triggers with inner `;` stay whole)."""
        return split_statements(self.sql)

    def sql_for(self, dialect: str) -> str:
        """The script one back end runs (see the module's docstring)."""
        if dialect == SQLITE:
            return self.sql
        if self.postgres_sql is not None:
            return self.postgres_sql
        sql = self.sql
        for word, spelled in _POSTGRES_TYPES:
            sql = word.sub(spelled, sql)
        return sql


@lru_cache(maxsize=4)
def load_migrations(directory: Path = MIGRATIONS_DIR) -> tuple[Migration, ...]:
    """Every migration in `directory`, in order; their numbers must increase from 1 (a number
    may be missing, but none may be used twice)."""
    found: list[Migration] = []
    overrides: dict[tuple[int, str], str] = {}
    for path in sorted(directory.glob("*.sql")):
        override = _POSTGRES_NAME.match(path.name)
        if override:
            overrides[(int(override.group(1)), override.group(2))] = path.read_text(encoding="utf-8")
            continue
        match = _NAME.match(path.name)
        if not match:
            raise MigrationError(f"{path.name} is not named like 0001_name.sql (or 0001_name.postgres.sql)")
        found.append(Migration(int(match.group(1)), match.group(2), path.read_text(encoding="utf-8")))
    for key in overrides:
        if not any((m.version, m.name) == key for m in found):
            raise MigrationError(f"{key[0]:04d}_{key[1]}.postgres.sql has no {key[0]:04d}_{key[1]}.sql beside it")
    found = [Migration(m.version, m.name, m.sql, overrides.get((m.version, m.name))) for m in found]
    previous = 0
    for migration in found:
        if migration.version <= previous:
            raise MigrationError(f"migration {migration.version} is numbered twice (or 0)")
        previous = migration.version
    return tuple(found)


def latest_version() -> int:
    """The schema version this code writes: the number of its last migration."""
    migrations = load_migrations()
    return migrations[-1].version if migrations else 0


def to_apply(migrations: tuple[Migration, ...], applied: set[int], label: str,
             target: int | None = None) -> list[Migration]:
    """The migrations a database that records `applied` still needs, in order, up to version
    `target` (default: all). Raises SchemaTooNew, changing nothing, when the database records
    one this code does not know (a newer bot's)."""
    known = {m.version for m in migrations}
    latest = migrations[-1].version if migrations else 0
    target = latest if target is None else target
    if target != 0 and target not in known:
        raise ValueError(f"there is no schema version {target}")
    unknown = applied - known
    if unknown:
        raise SchemaTooNew(label, max(unknown), latest)
    return [m for m in migrations if m.version <= target and m.version not in applied]


def split_statements(script: str) -> list[str]:
    """Split an SQL script into statements. `executescript` would do it for us, but it commits
    any open transaction first, and we want each migration in exactly one transaction."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not all(
        not part.strip() or part.strip().startswith("--") for part in buffer.splitlines()
    ):
        raise MigrationError(f"unterminated SQL statement at the end of a migration: {buffer.strip()[:60]!r}")
    return statements


async def schema_version(db: aiosqlite.Connection) -> int:
    """The highest version recorded in the database (0 for a new, empty file)."""
    return max(await applied_versions(db), default=0)


async def applied_versions(db: aiosqlite.Connection) -> set[int]:
    """The migrations recorded in the database (none for a new, empty file)."""
    rows = await db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
    )
    if not rows:
        return set()
    versions = [r[0] for r in await db.execute_fetchall("SELECT version FROM schema_version")]
    if not all(isinstance(v, int) for v in versions):  # a damaged file (the opening says so)
        raise UnreadableValue("schema_version holds a version that is not a whole number")
    return set(versions)


async def migrate(db: aiosqlite.Connection, label: str, clock: Callable[[], float],
                  target: int | None = None) -> int:
    """Apply every migration up to `target` (default: the latest version) that the database
    does not record yet, and return the highest version it is at. Refuses a database newer than
    this code (SchemaTooNew) and a file that holds some other application's tables, without
    changing either."""
    applied = await applied_versions(db)
    pending = to_apply(load_migrations(), applied, label, target)
    if not applied:
        others = await db.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " AND name != 'schema_version'"
        )
        if others:
            raise NotAGameDatabase.foreign(label, [str(r[0]) for r in others])
        await db.execute(_VERSION_TABLE)
    for migration in pending:
        await _apply(db, label, migration, clock)
    return max(applied | {m.version for m in pending}, default=0)


async def _apply(db: aiosqlite.Connection, label: str, migration: Migration, clock: Callable[[], float]) -> None:
    await db.execute("BEGIN IMMEDIATE")
    try:
        # Re-read inside the write lock: another process may have applied it meanwhile.
        rows = await db.execute_fetchall("SELECT 1 FROM schema_version WHERE version = ?", (migration.version,))
        if not rows:
            for statement in migration.statements():
                await db.execute(statement)
            await db.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.name, clock()),
            )
        await db.execute("COMMIT")
    except BaseException as exc:
        await db.execute("ROLLBACK")
        if isinstance(exc, sqlite3.Error):
            raise MigrationError(
                f"Migration {migration.version} ({migration.name}) failed on {label}: {exc}. "
                "The database stays as it was before it."
            ) from exc
        raise
