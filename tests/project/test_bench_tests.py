"""bench/bench_tests.py counts the whole process tree of the test command: a grandchild that
detaches from pytest (as `pg_ctl` leaves the PostgreSQL server) is sampled for memory and its
CPU time counted, and a process left running after pytest's exit is named (and stopped)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

# A test that starts a daemon (double fork: its parent exits at once) which takes 120 MB,
# spins for 0.4 s of CPU, and then lives on after pytest unless told to stop.
DETACHING = '''
import os, subprocess, sys, time

DAEMON = """
import os, sys, time
block = bytearray(120 * 1024 * 1024)
for i in range(0, len(block), 4096):
    block[i] = 1
end = time.process_time() + 0.4
while time.process_time() < end:
    pass
open(sys.argv[1], "w").close()
time.sleep(float(sys.argv[2]))
"""

def test_a_daemon(tmp_path):
    flag = tmp_path / "ready"
    linger = os.environ["LINGER"]
    starter = "import subprocess, sys; subprocess.Popen([sys.executable, '-c', *sys.argv[1:]])"
    subprocess.run([sys.executable, "-c", starter, DAEMON, str(flag), linger], check=True)
    while not flag.exists():
        time.sleep(0.01)
    time.sleep(0.5)  # sampled while it holds its memory
'''


def run_bench(tmp_path: Path, linger: str) -> dict[str, Any]:
    test = tmp_path / "test_detaching.py"
    test.write_text(DETACHING)
    bench = [sys.executable, "bench/bench_tests.py", "--json", "--interval", "0.05", "--grace", "0.3"]
    done = subprocess.run([*bench, "--", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(test)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, env={"LINGER": linger, "PATH": ""})
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_detached_grandchild_is_measured_and_named_when_left_behind(tmp_path: Path) -> None:
    figures = run_bench(tmp_path, linger="60")
    assert figures["exit_code"] == 0 and figures["subreaper"] is True
    assert figures["peak_pss_mb"] >= 120 and figures["peak_rss_mb"] >= figures["peak_pss_mb"]
    assert figures["cpu_s"] >= 0.4  # the daemon's CPU time is counted, though pytest never waited for it
    # pytest and the daemon's short-lived parent ended on their own: only the daemon is named.
    assert len(figures["left_behind"]) == 1 and "bytearray" in figures["left_behind"][0]
