"""A throwaway PostgreSQL server for the tests and benchmarks: initdb in a temporary folder,
started on a Unix socket there (no TCP port), trust authentication, stopped and deleted
afterwards. Nothing outside that folder is touched. If the process that started it dies first
(a test run killed from outside), tests/pg_watchdog.py stops the server and deletes the folder.

    cluster = Cluster.start()            # or Cluster.start(durable=True) for benchmarks
    url = cluster.url("postgres")        # postgresql://postgres@/postgres?host=/tmp/ttr-pg-…
    cluster.stop()

The server binaries are found in $TTR_PG_BIN (only there, when it is set), else the newest /usr/lib/postgresql/*/bin
(Debian and Ubuntu: `apt install postgresql-15`), else on PATH. `initdb` refuses to run as
root, so as root the server runs as the `postgres` user (the package creates it).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.pg_watchdog import stop_server

INSTALL_HINT = "apt install postgresql-15 (or set TTR_PG_BIN to a folder holding initdb and pg_ctl)"


class NoServer(Exception):
    """PostgreSQL's server binaries are not here (or cannot be run)."""


def find_bin() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    named = os.environ.get("TTR_PG_BIN")
    if named:  # only there
        folder = Path(named)
        return folder if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file() else None
    candidates: list[Path] = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                         key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0, reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    for folder in candidates:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder
    return None


@dataclass
class Cluster:
    """A running throwaway server."""

    folder: Path
    bin: Path
    user: str | None  # the system user it runs as when we are root
    options: str = ""  # the server's options (`pg_ctl -o`), for a start after a stop
    watchdog: subprocess.Popen[str] | None = None  # stops the server if this process dies first

    @classmethod
    def start(cls, *, durable: bool = False) -> Cluster:
        """initdb and start a server. `durable`: fsync and synchronous commits on, as a real
        server (for benchmarks); the tests switch them off (a killed client never needs them:
        the server keeps what it acknowledged)."""
        bin_ = find_bin()
        if bin_ is None:
            raise NoServer(f"PostgreSQL's server binaries (initdb, pg_ctl) were not found: {INSTALL_HINT}")
        user = None
        if os.geteuid() == 0:
            user = "postgres"
            try:
                pwd.getpwnam(user)
            except KeyError:
                raise NoServer(f"running as root needs the system user 'postgres' to run the server: {INSTALL_HINT}"
                               ) from None
        folder = Path(tempfile.mkdtemp(prefix="ttr-pg-"))
        cluster = cls(folder, bin_, user)
        try:
            if user is not None:
                shutil.chown(folder, user)
            cluster._run("initdb", "-D", str(folder / "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                         "--locale=C", "--no-sync")
            options = [f"-k {folder}", "-c listen_addresses=''", "-c max_connections=200",
                       "-c shared_buffers=128MB"]
            if not durable:
                options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
            cluster.options = " ".join(options)
            cluster.start_server()
            cluster.watchdog = subprocess.Popen(
                [sys.executable, str(Path(__file__).with_name("pg_watchdog.py")), str(bin_), str(folder),
                 *([user] if user else [])],
                stdin=subprocess.PIPE, text=True, start_new_session=True)
        except BaseException:
            cluster.stop()
            raise
        return cluster

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, cwd=self.folder)
        if done.returncode != 0:
            log = self.folder / "server.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            raise NoServer(f"{program} failed ({done.returncode}): {done.stderr.strip()[-1000:]} {tail}")

    def start_server(self) -> None:
        """Start the server (again, after `stop_server`), waiting until it takes connections."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "server.log"), "-w", "-t", "60",
                  "-o", self.options, "start")

    def stop_server(self) -> None:
        """Stop the server, keeping its data (a database outage: `start_server` ends it). Fast
        mode: every connection is ended at once, as at a server's shutdown."""
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        """A URL for `database` on this server, through its Unix socket."""
        return f"postgresql://postgres@/{database}?host={self.folder}"

    def stop(self) -> None:
        """Stop the server (at once: it holds only test data) and delete its folder."""
        stop_server(self.bin, self.folder, self.user)
        if self.watchdog is not None:
            with contextlib.suppress(Exception):
                self.watchdog.communicate("stopped\n", timeout=10)
            self.watchdog = None

    def _remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def wait_until_gone(path: Path, seconds: float = 10.0) -> None:
    """Wait for a file to disappear (a socket after a stop)."""
    end = time.monotonic() + seconds
    while path.exists() and time.monotonic() < end:
        time.sleep(0.05)
