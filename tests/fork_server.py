"""Child processes started in milliseconds: a server process imports a child script's modules
once, then forks one child per request, so that a test that starts and kills a child again and
again (tests/store/test_store_crash.py: 120 children; the bot's failover tests: bot processes
that import discord.py, the engine and the store, 2–3 s of CPU each) does not pay Python's start
and the imports each time. Each child is a real process of its own, as one started with
`subprocess`: its own memory, its stdout a pipe to the test (or a file), its stderr a file,
killed with a real SIGKILL and reaped by the server, which reports how it ended. Several
children may run at once (two bot processes on one database).

    with ForkServer(Path("tests/store_child.py")) as server:    # runs `store_child.py --fork-server FD`
        child = server.start(["db.sqlite3", "7"], stderr=err_file)
        child.stdout.readline(); child.kill(); child.wait()      # -9

The script's `--fork-server FD` mode calls `serve(FD, run)` after its imports; `run(args)`
is what the child does (as `main` with those command-line arguments).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import select
import signal
import socket
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
PR_SET_PDEATHSIG = 1
REAP_SECONDS = 0.02  # how often the server looks for ended children while any runs


class ForkServer:
    """The test's side: starts the server and asks it for children."""

    def __init__(self, script: Path) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._socket = ours
        self._process = subprocess.Popen([sys.executable, str(script), "--fork-server", str(theirs.fileno())],
                                         cwd=ROOT, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        theirs.close()
        self._ended: dict[int, int] = {}  # pid -> exit code, as the server reported them
        self._running: set[int] = set()

    @property
    def alive(self) -> bool:
        """Whether the server still runs (a test may start children from it)."""
        return self._process.poll() is None and self._socket.fileno() >= 0

    def start(self, args: list[str], *, stderr: IO[str] | IO[bytes], stdout: IO[str] | IO[bytes] | None = None,
              env: Mapping[str, str] | None = None) -> Forked:
        """A new child doing `run(args)`, its stderr written to `stderr` (a file), its stdout to
        `stdout` (a file) or else to a pipe (`Forked.stdout`); `env`: its whole environment
        (else the server's)."""
        read_end: int | None = None
        if stdout is None:
            read_end, out = os.pipe()
        else:
            out = stdout.fileno()
        request = json.dumps({"args": args, "env": None if env is None else dict(env)}).encode()
        try:
            socket.send_fds(self._socket, [request], [out, stderr.fileno()])
        finally:
            if read_end is not None:
                os.close(out)
        try:
            pid = self._next_start()
        except BaseException:
            if read_end is not None:
                os.close(read_end)
            raise
        self._running.add(pid)
        return Forked(pid, None if read_end is None else os.fdopen(read_end, "r", encoding="utf-8"), self)

    def _receive(self, timeout: float | None) -> str | None:
        """Read one report of the server: "started PID" (returned), or "ended PID CODE" (kept
        in `_ended`, and returned); None when none came within `timeout` (0: do not wait)."""
        self._socket.settimeout(timeout)
        try:
            message = self._socket.recv(4096).decode()
        except (TimeoutError, BlockingIOError):
            return None
        finally:
            self._socket.settimeout(None)
        if not message:
            raise RuntimeError(f"the fork server ended (exit code {self._process.wait()})")
        kind, *values = message.split()
        if kind == "ended":
            pid, code = int(values[0]), int(values[1])
            self._ended[pid] = code
            self._running.discard(pid)
        return message

    def _next_start(self) -> int:
        """The pid of the child the server just started (children that ended meanwhile are kept)."""
        while True:
            message = self._receive(30.0)
            if message is None:
                raise RuntimeError("the fork server did not start a child in 30 s")
            if message.startswith("started "):
                return int(message.split()[1])

    def poll(self, pid: int) -> int | None:
        """The child's exit code once the server reaped it, else None (never waits)."""
        while pid not in self._ended and self._receive(0) is not None:
            pass
        return self._ended.get(pid)

    def wait(self, pid: int, timeout: float = 30.0) -> int:
        """Wait until the child has ended (the server reaped it); its exit code."""
        deadline = time.monotonic() + timeout
        while pid not in self._ended:
            left = deadline - time.monotonic()
            if left <= 0 or self._receive(left) is None:
                raise TimeoutError(f"child {pid} of the fork server still runs after {timeout} s")
        return self._ended[pid]

    def close(self) -> None:
        """Kill every child still running, stop the server and wait for it."""
        for pid in list(self._running):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(OSError, RuntimeError, TimeoutError):
                self.wait(pid, 10)
        self._socket.close()  # the server's next read sees the end
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()

    def __enter__(self) -> ForkServer:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


class Forked:
    """One child: its pid, its stdout (None when it writes to a file), and (after `wait`, or
    once `poll` saw it end) its exit code, -N for signal N."""

    def __init__(self, pid: int, stdout: IO[str] | None, server: ForkServer) -> None:
        self.pid = pid
        self._stdout = stdout
        self.returncode: int | None = None
        self._server = server

    @property
    def stdout(self) -> IO[str]:
        if self._stdout is None:
            raise ValueError("this child writes its stdout to a file")
        return self._stdout

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)

    def poll(self) -> int | None:
        """Its exit code if it has ended, else None, as `subprocess.Popen.poll`."""
        if self.returncode is None and (code := self._server.poll(self.pid)) is not None:
            self._ended(code)
        return self.returncode

    def wait(self, timeout: float = 30.0) -> int:
        """Wait until the child has ended (the server reaped it); its exit code."""
        if self.returncode is None:
            self._ended(self._server.wait(self.pid, timeout))
        assert self.returncode is not None
        return self.returncode

    def _ended(self, code: int) -> None:
        self.returncode = code
        if self._stdout is not None:
            self._stdout.close()


def die_with_parent() -> None:
    """Be killed when the parent process dies, however it died (Linux; elsewhere nothing): a
    test killed halfway leaves neither the server nor a child playing on behind it."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def serve(fd: int, run: Callable[[list[str]], None]) -> None:
    """The server's side: for each request on the socket `fd`, fork a child that runs
    `run(args)` with the request's stdout, stderr and environment, answer "started PID", and
    "ended PID CODE" once it reaped it. Returns when the test closes its end."""
    die_with_parent()
    server = socket.socket(fileno=fd)
    sys.stdout.flush()
    sys.stderr.flush()
    children: set[int] = set()
    while True:
        readable, _, _ = select.select([server], [], [], REAP_SECONDS if children else None)
        for pid in list(children):
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                children.discard(pid)
                with contextlib.suppress(OSError):
                    server.send(f"ended {pid} {os.waitstatus_to_exitcode(status)}".encode())
        if not readable:
            continue
        try:
            message, fds, _, _ = socket.recv_fds(server, 65536, 2)
        except OSError:
            break
        if not message:
            break
        request = json.loads(message)
        pid = os.fork()
        if pid == 0:  # the child
            code = 0
            try:
                die_with_parent()
                server.close()
                os.dup2(fds[0], 1)
                os.dup2(fds[1], 2)
                for extra in fds:
                    os.close(extra)
                if request["env"] is not None:
                    os.environ.clear()
                    os.environ.update(request["env"])
                run(request["args"])
            except SystemExit as stop:
                code = stop.code if isinstance(stop.code, int) else 1
            except BaseException:
                traceback.print_exc()
                code = 1
            finally:
                with contextlib.suppress(Exception):
                    sys.stdout.flush()
                    sys.stderr.flush()
                os._exit(code)
        for extra in fds:
            os.close(extra)
        children.add(pid)
        server.send(f"started {pid}".encode())
    for pid in children:  # the test has gone: no child outlives the server
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
