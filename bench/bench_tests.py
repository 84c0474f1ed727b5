"""The test command's cost: wall time, CPU time and peak memory of the whole process tree.

    python bench/bench_tests.py [--interval 0.2] [--grace 5] [--json] [-- PYTEST ARGS...]

Runs `python -m pytest` (the README's test command; anything after `--` replaces its
arguments, e.g. `-- -q tests/render/test_replay.py`) with this interpreter, in its own process group,
and while it runs samples every process descended from it — pytest, the bot and render
workers it starts, the throwaway PostgreSQL server and its backends — every `--interval`
seconds. This process makes itself a "child subreaper" (Linux), so a daemon that detaches
(`pg_ctl` starting `postgres`) stays below it: its memory is sampled and its CPU time counted.

Prints:

- wall: from start to pytest's exit;
- CPU: user + system time of the whole tree (every descendant, waited for), and the share of
  one core that is (CPU / wall; 2.0 = both cores of a 2-core machine all along);
- peak memory of the tree: the largest sum over all its processes, sampled, of
  - PSS (proportional set size: a page shared by n processes counts 1/n in each — what the
    tree really holds; PostgreSQL's shared buffers are counted once), and
  - RSS (shared pages counted in every process: an upper bound);
- the peak of the largest single process, and what was running at each of the tree's peaks;
- any process still alive `--grace` seconds after pytest's exit (a leak; killed then);
- pytest's exit code (this script exits with it).

Targets (issue 24): the README's test command ≤ 10 minutes wall when the 2-core machine is
idle, peak memory ≤ 2 GB. Wall time is noisy when other work shares the cores: compare CPU time.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PR_SET_CHILD_SUBREAPER = 36
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def become_subreaper() -> bool:
    """Orphaned descendants are re-parented to this process instead of init (Linux only)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def children_of(pid: int) -> list[int]:
    """Direct children of `pid` (from /proc/PID/task/*/children)."""
    found: list[int] = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", encoding="ascii") as listing:
                found.extend(int(child) for child in listing.read().split())
        except OSError:
            continue
    return found


def descendants(root: int) -> list[int]:
    """Every process below `root` (not `root` itself)."""
    seen: list[int] = []
    todo = children_of(root)
    while todo:
        pid = todo.pop()
        seen.append(pid)
        todo.extend(children_of(pid))
    return seen


def memory_kb(pid: int) -> tuple[int, int]:
    """(RSS, PSS) of one process in KB; (0, 0) once it is gone."""
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
            for line in rollup:
                if line.startswith("Rss:"):
                    rss = int(line.split()[1])
                elif line.startswith("Pss:"):
                    pss = int(line.split()[1])
                    break
    except (OSError, ValueError):
        try:  # no smaps_rollup (old kernel): RSS only, PSS taken as RSS
            with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
                rss = pss = int(statm.read().split()[1]) * PAGE_KB
        except (OSError, ValueError, IndexError):
            return 0, 0
    return rss, pss


def command_of(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            words = cmdline.read().split(b"\0")
    except OSError:
        return "?"
    text = " ".join(w.decode(errors="replace") for w in words if w)
    return text[:100]


@dataclass
class Peaks:
    """What the sampler saw."""

    samples: int = 0
    pss_kb: int = 0
    rss_kb: int = 0
    single_kb: int = 0
    single_command: str = ""
    processes: int = 0
    at_pss_peak: list[tuple[int, str]] = field(default_factory=list)
    at_rss_peak: list[tuple[int, str]] = field(default_factory=list)

    def take(self, root: int) -> None:
        pids = descendants(root)
        sizes = [(pid, *memory_kb(pid)) for pid in pids]
        pss = sum(p for _, _, p in sizes)
        rss = sum(r for _, r, _ in sizes)
        self.samples += 1
        self.processes = max(self.processes, len(pids))
        if rss > self.rss_kb:
            self.rss_kb = rss
            top = sorted(sizes, key=lambda s: -s[1])[:5]
            self.at_rss_peak = [(r // 1024, command_of(pid)) for pid, r, _ in top]
        for pid, r, _ in sizes:
            if r > self.single_kb:
                self.single_kb, self.single_command = r, command_of(pid)
        if pss > self.pss_kb:
            self.pss_kb = pss
            top = sorted(sizes, key=lambda s: -s[2])[:5]
            self.at_pss_peak = [(p // 1024, command_of(pid)) for pid, _, p in top]


def run(args: list[str], interval: float, grace: float = 5.0) -> dict[str, object]:
    """Run pytest with `args` below this process, sampling its tree; the figures."""
    subreaper = become_subreaper()
    peaks = Peaks()
    me = os.getpid()
    start = time.monotonic()
    child = subprocess.Popen([sys.executable, "-m", "pytest", *args], cwd=ROOT, start_new_session=True)
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peaks.take(me)
            stop.wait(interval)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu = 0.0
    code: int | None = None
    wall = 0.0
    leftovers: list[str] = []
    grace_end = None
    try:
        # Reap pytest and, as subreaper, every orphan below it. A process still alive
        # `grace` seconds after pytest's exit is a leak: it is named in the figures, then killed.
        while True:
            try:
                pid, status, usage = os.wait4(-1, os.WNOHANG if code is not None else 0)
            except ChildProcessError:
                break
            if pid == 0:
                if grace_end is not None and time.monotonic() > grace_end:
                    for stray in descendants(me):
                        leftovers.append(command_of(stray))
                        with contextlib.suppress(OSError):
                            os.kill(stray, signal.SIGKILL)
                    grace_end = float("inf")
                time.sleep(0.05)
                continue
            cpu += usage.ru_utime + usage.ru_stime
            if pid == child.pid:
                code = os.waitstatus_to_exitcode(status)
                child.returncode = code
                wall = time.monotonic() - start
                grace_end = time.monotonic() + grace
    except KeyboardInterrupt:
        os.killpg(child.pid, signal.SIGINT)
        raise
    stop.set()
    sampler.join()
    return {
        "command": " ".join(["python", "-m", "pytest", *args]),
        "exit_code": code,
        "wall_s": round(wall, 1),
        "cpu_s": round(cpu, 1),
        "cores_busy": round(cpu / wall, 2) if wall else 0.0,
        "peak_pss_mb": peaks.pss_kb // 1024,
        "peak_rss_mb": peaks.rss_kb // 1024,
        "peak_single_process_mb": peaks.single_kb // 1024,
        "peak_single_process": peaks.single_command,
        "most_processes": peaks.processes,
        "samples": peaks.samples,
        "at_pss_peak": peaks.at_pss_peak,
        "at_rss_peak": peaks.at_rss_peak,
        "subreaper": subreaper,
        "left_behind": leftovers,
        "load_average_at_end": os.getloadavg(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between memory samples")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    parser.add_argument("--grace", type=float, default=5.0,
                        help="seconds a process may outlive pytest before it is named as left behind and killed")
    parser.add_argument("pytest_args", nargs="*", help="after --: pytest's arguments (default: none)")
    options = parser.parse_args()
    figures = run(options.pytest_args, options.interval, options.grace)
    if options.json:
        print(json.dumps(figures))
    else:
        print(f"\n{figures['command']}  (exit {figures['exit_code']})")
        print(f"wall {figures['wall_s']} s   CPU {figures['cpu_s']} s (user + system, whole tree; "
              f"{figures['cores_busy']} cores busy on average)")
        print(f"peak memory of the tree: PSS {figures['peak_pss_mb']} MB, RSS {figures['peak_rss_mb']} MB "
              f"(largest single process {figures['peak_single_process_mb']} MB: {figures['peak_single_process']})")
        print(f"at most {figures['most_processes']} processes; {figures['samples']} samples; "
              f"load average at the end {figures['load_average_at_end']}")
        if figures["left_behind"]:
            print(f"LEFT BEHIND after pytest's exit (killed): {figures['left_behind']}")
        for peak in ("pss", "rss"):
            top = figures[f"at_{peak}_peak"]
            print(f"at the {peak.upper()} peak: " + "; ".join(f"{mb} MB {cmd}" for mb, cmd in top))  # type: ignore[attr-defined]
    code = figures["exit_code"]
    return code if isinstance(code, int) else 1


if __name__ == "__main__":
    sys.exit(main())
