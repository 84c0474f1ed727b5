"""Checks made before the game store uses a database file, so that an operator reads what is
wrong, with which path, and what to do, instead of a traceback (docs/operations.md lists every
message).

`inspect_path` looks at the file system only (folders, permissions, the file's first bytes);
`check_contents` looks inside with a connection that changes nothing; `create_database` makes
a new one atomically. All of them raise `DatabaseUnusable` subclasses and change nothing when
they refuse.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

import aiosqlite

from store.commits import SUFFIX as LASTCOMMIT
from store.commits import LastCommit, read_last_commit
from store.db import connect
from store.errors import (
    BackupRefused,
    DatabaseDamaged,
    DatabaseNeedsInit,
    DatabaseNotWritable,
    DatabasePathError,
    NotAGameDatabase,
    SchemaTooNew,
    UnreadableValue,
)
from store.file_lock import SUFFIX as LOCK
from store.migrations import latest_version, migrate, schema_version

SQLITE_MAGIC = b"SQLite format 3\x00"
RESTORE_HINT = "restore a backup (see docs/operations.md, \"Restoring a backup\")"
INIT_HINT = "python bot.py --init"


class Kind(Enum):
    """What is at the database path."""

    MISSING = "missing"  # nothing yet: a new database is made there
    EMPTY = "empty"  # 0 bytes, and --init was given: a new database replaces it
    SQLITE = "sqlite"  # an SQLite file, to be looked at inside


@dataclass(frozen=True, slots=True)
class Found:
    """What `inspect_path` found."""

    kind: Kind
    # Whether a -wal file was beside the database before anything opened it.
    wal_present: bool
    # What its -lastcommit file said before anything opened it (store/commits.py).
    last: LastCommit | None = None


def companion(path: Path, suffix: str) -> Path:
    """A file SQLite (or the store) keeps beside the database: `-wal`, `-shm`, `-journal` …"""
    return path.with_name(path.name + suffix)


def run_as() -> str:
    """The user this process runs as, for messages about permissions."""
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError, AttributeError, OSError):
        return os.environ.get("USER") or os.environ.get("USERNAME") or "the bot's user"


def inspect_path(path: Path, *, create_folder: bool, allow_init: bool) -> Found:
    """Check that `path` can be the game database, from the outside: its folder exists (made
    when `create_folder`) and is writable, the file (if any) is readable and writable, and it
    is an SQLite file, or empty and `allow_init`. Raises a DatabaseUnusable subclass."""
    try:
        return _inspect(path, create_folder=create_folder, allow_init=allow_init)
    except OSError as exc:  # a folder on the way that may not be looked into, say
        raise not_writable(path, Path(exc.filename) if exc.filename else path.parent, exc) from None


def _inspect(path: Path, *, create_folder: bool, allow_init: bool) -> Found:
    folder = path.parent
    if path.is_dir():
        raise DatabasePathError(
            path,
            f"The database path {path} is a folder, not a file. Set TTR_DATABASE to a file in it, for "
            f"example {path / 'ttr.sqlite3'}.",
        )
    _check_folder(path, folder, create_folder)
    _check_writable(path, folder)
    wal = companion(path, "-wal")
    wal_size = _size(wal)
    size = _size(path)
    if size is None:
        if wal_size:
            # A new database beside it would have that -wal applied to it, and be damaged.
            raise DatabaseDamaged(
                path,
                f"There is no database at {path}, but {wal} beside it holds writes: the database file was "
                f"deleted or moved without it. Put the database back beside it, or {RESTORE_HINT}. Only to "
                f"start afresh, move {wal} and {companion(path, '-shm')} away. Nothing was changed.",
            )
        return Found(Kind.MISSING, wal_size is not None)
    if size == 0:
        if wal_size:
            # SQLite deletes the -wal of a 0-byte database; that file may be all there is.
            raise DatabaseDamaged(
                path,
                f"The database {path} is empty (0 bytes), but {wal} beside it is not, and SQLite would "
                f"delete it on opening. Stop here: if the games were lost, {RESTORE_HINT}. Only to start "
                f"afresh, move {wal} away and run {INIT_HINT}.",
            )
        if not allow_init:
            raise DatabaseNeedsInit(
                path,
                f"The database {path} is empty (0 bytes), so it holds no games: perhaps a copy or restore "
                f"that failed, or a file made by hand. If games should be here, {RESTORE_HINT}. To start a "
                f"new, empty game database in this file, run {INIT_HINT}. Nothing was changed.",
            )
        return Found(Kind.EMPTY, wal_size is not None)
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as exc:
        raise not_writable(path, folder, exc) from None
    if not header.startswith(SQLITE_MAGIC):
        raise NotAGameDatabase(
            path,
            f"{path} is not an SQLite database (it does not start with SQLite's header), so it is not a game "
            f"database. Point TTR_DATABASE at the game database, or {RESTORE_HINT}. The file was left alone "
            f"({INIT_HINT} does not overwrite a file that holds data).",
        )
    if len(header) >= 20 and header[18:20] == b"\x01\x01" and wal_size:
        shm = companion(path, "-shm")
        raise DatabaseDamaged(
            path,
            f"{path} is a standalone copy (not in WAL mode, like the copies python bot.py --backup writes), "
            f"but {wal} beside it holds writes: that file belongs to the database that was here before, and "
            f"SQLite would apply it to this copy and damage it. With the bot stopped, move {wal} and {shm} "
            "away (keep them until the games look right) and start again. Nothing was changed.",
        )
    # Read before the database is opened: the file can then only lag what the database holds.
    return Found(Kind.SQLITE, wal_size is not None, read_last_commit(path))


def _size(path: Path) -> int | None:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return None


def _check_folder(path: Path, folder: Path, create_folder: bool) -> None:
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise DatabasePathError(
            path,
            f"The database path {path} cannot be used: {existing} is a file, not a folder. Set TTR_DATABASE "
            "to a file in a folder (the default is data/ttr.sqlite3 in the bot's folder).",
        )
    if existing == folder:
        return
    if not create_folder:
        raise DatabasePathError(
            path,
            f"The folder {folder} of the database {path} does not exist. If the games belong there, create "
            f"it (mkdir -p {folder}) and start again; otherwise correct TTR_DATABASE.",
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise not_writable(path, existing, exc) from None


def _check_writable(path: Path, folder: Path) -> None:
    # SQLite creates and deletes the -wal and -shm files beside the database, so the folder
    # must be writable even when the file already is.
    if not os.access(folder, os.W_OK | os.X_OK):
        raise not_writable(path, folder, None)
    for file in (path, companion(path, "-wal"), companion(path, "-shm"), companion(path, LASTCOMMIT),
                 companion(path, LOCK)):
        if file.exists() and not os.access(file, os.R_OK | os.W_OK):
            raise not_writable(path, file, None)


def _read_only_fs(where: Path) -> bool:
    try:
        return bool(os.statvfs(where).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def not_writable(path: Path, where: Path, exc: OSError | None) -> DatabaseNotWritable:
    """The words for a file or folder of the database (`where`) the bot may not use."""
    why = f" ({exc.strerror})" if exc is not None and exc.strerror else ""
    if _read_only_fs(where if where.exists() else where.parent):
        return DatabaseNotWritable(
            path,
            f"{where} is on a read-only filesystem{why}, and the bot must write the database {path} and the "
            "-wal and -shm files SQLite keeps beside it. Mount it read-write, or set TTR_DATABASE to a path "
            "on a writable disk.",
        )
    user = run_as()
    if where.is_dir() or not where.exists():
        what = f"cannot write in the folder {where}"
        fix = f"sudo chown {user} {where}"
    else:
        what = f"cannot read and write {where}"
        fix = f"sudo chown {user} {path}*"
    return DatabaseNotWritable(
        path,
        f"The user this bot runs as ({user}) {what}{why}; the database {path} and the -wal and -shm files "
        f"SQLite keeps beside it must be writable by it. Give it access (for example: {fix}), or run the bot "
        "as the user who owns them.",
    )


# What reading a damaged file can raise besides DatabaseUnusable: SQLite's errors, the
# system's, and ValueError — sqlite3 raises UnicodeDecodeError for text (even in SQLite's own
# error message) that is not UTF-8, and the store's strict readers of its bookkeeping rows
# raise UnreadableValue (a ValueError) for a value of a type it never writes.
READ_FAILURES: tuple[type[Exception], ...] = (sqlite3.Error, OSError, ValueError)


def sqlite_failure(path: Path, exc: Exception) -> DatabaseDamaged | DatabaseNotWritable:
    """The words for an error (one of READ_FAILURES) met while opening `path`."""
    if isinstance(exc, ValueError):
        # Never quote the text itself: it may be a part of a hand or of the deck.
        what = (f"text in it is not UTF-8: {exc.reason} at byte {exc.start}" if isinstance(exc, UnicodeDecodeError)
                else str(exc) if isinstance(exc, UnreadableValue) else "a value the bot cannot read")
        return DatabaseDamaged(
            path,
            f"SQLite finds the database {path} damaged ({what}). Stop the bot and {RESTORE_HINT}; "
            f"`sqlite3 {path} .recover` may save more of it. Nothing was changed.",
        )
    text = " ".join(str(exc).split())  # one line: SQLite quotes a damaged schema's SQL, newlines and all
    code = getattr(exc, "sqlite_errorname", "")
    if code in ("SQLITE_CORRUPT", "SQLITE_NOTADB") or "malformed" in text or "not a database" in text:
        return DatabaseDamaged(
            path,
            f"SQLite finds the database {path} damaged ({text}). Stop the bot and {RESTORE_HINT}; "
            f"`sqlite3 {path} .recover` may save more of it. Nothing was changed.",
        )
    user = run_as()
    return DatabaseNotWritable(
        path,
        f"SQLite could not open the database {path} ({text}). Check that its disk is mounted and not full, and "
        f"that the user this bot runs as ({user}) can read and write the file and its folder.",
    )


async def check_contents(db: aiosqlite.Connection, path: Path, *, allow_init: bool) -> bool:
    """Look inside an existing SQLite file through a connection that has not changed it: it
    passes SQLite's quick_check, holds tables (or `allow_init`), they are a game database's,
    and its schema is not newer than this code. Returns whether it holds no table at all."""
    rows = list(await db.execute_fetchall("PRAGMA quick_check"))
    problems = [" ".join(str(r[0]).replace("*** in database main ***", "").split()) for r in rows]
    if problems != ["ok"]:
        first = problems[0][:200] if problems else "no answer"
        more = f" and {len(problems) - 1} more problems" if len(problems) > 1 else ""
        raise DatabaseDamaged(
            path,
            f"SQLite's quick_check finds the database {path} damaged ({first}{more}). Stop the bot and "
            f"{RESTORE_HINT}; `sqlite3 {path} .recover` may save more of it. Nothing was changed.",
        )
    tables = [str(r[0]) for r in await db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
    if not tables:
        if allow_init:
            return True
        raise DatabaseNeedsInit(
            path,
            f"{path} is an SQLite database without any table, so it holds no games. If games should be here, "
            f"{RESTORE_HINT}. To make it a new, empty game database, run {INIT_HINT}. Nothing was changed.",
        )
    if "schema_version" not in tables:
        raise NotAGameDatabase.foreign(path, tables)
    found = await schema_version(db)
    if found > latest_version():
        raise SchemaTooNew(str(path), found, latest_version())
    return False


async def create_database(path: Path, clock: Callable[[], float], *, replace_empty: bool) -> None:
    """Make a new, fully migrated game database at `path`, atomically: it is built in a
    temporary file beside it and then put in place, so a crash never leaves a half-made (or
    0-byte) database behind. `replace_empty`: `path` is an empty file to replace. If another
    process puts a database at `path` first, that one is kept."""
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".new")
    os.close(fd)
    temp = Path(name)
    try:
        db = await connect(temp)
        try:
            await migrate(db, str(path), clock)
            # Everything into the file itself: it moves without its -wal.
            await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            await db.close()
        if replace_empty:
            os.replace(temp, path)
        else:
            try:
                os.link(temp, path)  # unlike a rename, never replaces a file that appeared meanwhile
            except FileExistsError:
                pass
            except OSError:  # a filesystem without hard links
                if not path.exists():
                    os.replace(temp, path)
        _sync_folder(path.parent)
    finally:
        for leftover in (temp, companion(temp, "-wal"), companion(temp, "-shm")):
            with contextlib.suppress(OSError):
                leftover.unlink(missing_ok=True)


def _sync_folder(folder: Path) -> None:
    """Make the new name durable (POSIX: fsync the folder); a no-op where folders cannot be opened."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


LIVE_SUFFIXES = ("", "-wal", "-shm", "-journal", LASTCOMMIT, LOCK)


def check_backup_target(source: Path, dest: Path) -> None:
    """Refuse (BackupRefused) a backup target that is the live database or one of its files,
    however it is spelled (relative, `./`, a symlink, a hard link), and one whose folder does
    not exist: a typo, or a backup disk that is not mounted, should not quietly become a new
    folder on the wrong disk."""
    partial = dest.with_name(dest.name + ".partial")
    for suffix in LIVE_SUFFIXES:
        live = companion(source, suffix)
        for target in (dest, partial):
            if _same_file(target, live):
                what = "the live database" if not suffix else f"the live database's {suffix} file"
                raise BackupRefused(
                    f"{dest} is {what} ({os.path.realpath(live)}): a backup must go to another file, for "
                    "example backups/ttr-$(date +%F).sqlite3. Nothing was written."
                )
    if dest.is_dir():
        raise BackupRefused(f"{dest} is a folder: name the backup file, for example {dest / 'ttr.sqlite3'}.")
    folder = dest.parent
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "does not exist"
        raise BackupRefused(
            f"The folder {folder} of the backup {dest} {what}. Create it first (mkdir -p {folder}), or check the "
            "path (is the backup disk mounted?). Nothing was written."
        )


def _same_file(a: Path, b: Path) -> bool:
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)  # hard links; names that differ only in case on some disks
    except OSError:
        return False
