"""One process per SQLite database: an exclusive lock on a file beside it (`X-lock`), held for
as long as the store is open.

A second bot on the same file would keep a cache of every game that the first one's moves make
stale, and refuse players' moves as "already happened" (or give games up) for good; SQLite's
own locking only serialises the writes. So the second process refuses to start, in words
(PostgreSQL is the way to run several processes: docs/scaling.md).

The lock is the operating system's: `fcntl.flock` on POSIX, `msvcrt.locking` on Windows. It
goes with the process however the process ends (a crash, SIGKILL, a power cut), so there is no
stale lock to clean up, and the file itself stays (deleting a lock file races with the next
process taking it). The file holds the holder's pid and host, for the message only.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from pathlib import Path

from store.errors import DatabaseInUse

SUFFIX = "-lock"


def lock_path(path: Path) -> Path:
    """The lock file of the database at `path`."""
    return path.with_name(path.name + SUFFIX)


class DatabaseLock:
    """The exclusive lock on the database at `path`, held from `hold` until `release`."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self._fd: int | None = fd

    @classmethod
    def hold(cls, path: Path) -> DatabaseLock:
        """Take the lock, or raise DatabaseInUse when another process holds it (OSError when the
        file cannot be made: the caller's checks of the folder come first)."""
        file = lock_path(path)
        fd = os.open(file, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if not _try_lock(fd):
                holder = _holder(fd)
                raise DatabaseInUse(
                    path,
                    f"Another bot process{holder} is already using the database {path}, and an SQLite database "
                    "serves one process at a time (a second one would not see the first one's moves). Stop the "
                    "other process first; to run several processes, move the games to PostgreSQL (python bot.py "
                    "--copy-db postgresql://…, docs/scaling.md). Nothing was changed.",
                )
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, f"{os.getpid()} {socket.gethostname()}\n".encode())
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd)

    def release(self) -> None:
        """Let the next process have the database (closing the file releases the lock)."""
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)


def _try_lock(fd: int) -> bool:
    if sys.platform == "win32":
        import msvcrt  # the one byte at offset 0 stands for the whole file

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _holder(fd: int) -> str:
    """" (pid 123 on host)" from the lock file, or "" when it cannot be read."""
    with contextlib.suppress(OSError):  # Windows: the locked byte cannot be read
        os.lseek(fd, 0, os.SEEK_SET)
        text = os.read(fd, 200).decode("utf-8", "replace").split()
        if len(text) >= 2 and text[0].isascii() and text[0].isdigit():
            return f" (pid {text[0]} on {text[1][:64]})"
    return ""
