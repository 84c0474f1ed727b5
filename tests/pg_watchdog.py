"""Stops a throwaway PostgreSQL server (tests/pg_cluster.py) when the process that started it
dies without stopping it — a test run killed from outside never runs its fixtures' teardown,
and `pg_ctl` has detached the server, so nothing else would.

    python tests/pg_watchdog.py BIN FOLDER [USER]

It waits on its standard input, a pipe from the starting process: a line "stopped" means that
process stopped the server itself (nothing to do); end of file without it means the process
died, so the server is stopped at once and its folder deleted. SIGTERM does the same. It runs in
a session of its own, so a signal to the test run's process group leaves it to do its work.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
from pathlib import Path
from types import FrameType


def stop_server(bin_: Path, folder: Path, user: str | None) -> None:
    """Stop the server at once and delete its folder (also `Cluster.stop`'s way)."""
    command = [str(bin_ / "pg_ctl"), "-D", str(folder / "data"), "-m", "immediate", "-w", "stop"]
    if user:
        command = ["runuser", "-u", user, "--", *command]
    subprocess.run(command, capture_output=True, timeout=60, cwd=folder, check=False)
    shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str]) -> int:
    bin_, folder = Path(argv[0]), Path(argv[1])
    user = argv[2] if len(argv) > 2 else None

    def on_term(signum: int, frame: FrameType | None) -> None:
        stop_server(bin_, folder, user)
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C is for the test run; its end of file reaches us
    said = sys.stdin.readline().strip()
    if said != "stopped":
        stop_server(bin_, folder, user)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
