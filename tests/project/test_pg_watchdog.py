"""The throwaway PostgreSQL server of a test run is stopped even when the run is killed from
outside (tests/pg_watchdog.py): the watchdog reads a pipe from the process that started the
server, and its end without a word means that process died. A stand-in `pg_ctl` records how it
was called, so no server is needed here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

WATCHDOG = Path(__file__).resolve().parents[1] / "pg_watchdog.py"


def fake_bin(tmp_path: Path) -> tuple[Path, Path]:
    """A folder holding a `pg_ctl` that writes its arguments to a file, and that file."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    calls = tmp_path / "calls.txt"
    pg_ctl = bin_ / "pg_ctl"
    pg_ctl.write_text(f'#!/bin/sh\necho "$@" >> {calls}\n')
    pg_ctl.chmod(0o755)
    return bin_, calls


def server_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "ttr-pg-x"
    (folder / "data").mkdir(parents=True)
    return folder


def wait_for(path: Path, present: bool, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while path.exists() != present and time.monotonic() < end:
        time.sleep(0.02)
    return path.exists() == present


def catches_sigterm(pid: int, seconds: float = 10.0) -> bool:
    """Wait until the process has installed its SIGTERM handler (Linux: /proc's caught-signals mask)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        status = Path(f"/proc/{pid}/status").read_text()
        caught = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), 16)
        if caught & (1 << (signal.SIGTERM - 1)):
            return True
        time.sleep(0.02)
    return False


def test_a_starter_killed_outright_gets_its_server_stopped_and_its_folder_deleted(tmp_path: Path) -> None:
    bin_, calls = fake_bin(tmp_path)
    folder = server_folder(tmp_path)
    # The starter holds the watchdog's pipe and is killed with SIGKILL: no teardown of its own runs.
    starter = subprocess.Popen([sys.executable, "-c", (
        "import subprocess, sys, time\n"
        f"subprocess.Popen([sys.executable, {str(WATCHDOG)!r}, {str(bin_)!r}, {str(folder)!r}],"
        " stdin=subprocess.PIPE, start_new_session=True)\n"
        "print('ready', flush=True)\n"
        "time.sleep(60)\n")], stdout=subprocess.PIPE, text=True)
    assert starter.stdout is not None and starter.stdout.readline().strip() == "ready"
    os.kill(starter.pid, signal.SIGKILL)
    starter.wait()
    assert wait_for(folder, present=False)
    assert calls.read_text().split() == ["-D", str(folder / "data"), "-m", "immediate", "-w", "stop"]


def test_a_server_its_starter_stopped_is_left_alone(tmp_path: Path) -> None:
    bin_, calls = fake_bin(tmp_path)
    folder = server_folder(tmp_path)
    watchdog = subprocess.Popen([sys.executable, str(WATCHDOG), str(bin_), str(folder)],
                                stdin=subprocess.PIPE, text=True, start_new_session=True)
    watchdog.communicate("stopped\n", timeout=10)
    assert watchdog.returncode == 0
    assert folder.exists() and not calls.exists()


def test_sigterm_stops_the_server_and_ends_the_watchdog(tmp_path: Path) -> None:
    bin_, calls = fake_bin(tmp_path)
    folder = server_folder(tmp_path)
    watchdog = subprocess.Popen([sys.executable, str(WATCHDOG), str(bin_), str(folder)],
                                stdin=subprocess.PIPE, text=True, start_new_session=True)
    assert catches_sigterm(watchdog.pid)
    watchdog.terminate()
    assert watchdog.wait(timeout=10) == 0
    assert not folder.exists() and "stop" in calls.read_text()
