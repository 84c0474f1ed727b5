"""Child processes started in milliseconds: a server process imports a child script's modules
once, then forks one child per request, so that a test that starts and kills a child again and
again (tests/store/test_store_crash.py: 120 children) does not pay Python's start and the imports
(0.4 s) each time. Each child is a real process of its own, as one started with `subprocess`:
its own memory, its stdout a pipe to the test, its stderr a file, killed with a real SIGKILL
and reaped by the server, which reports how it ended.

    with ForkServer(Path("tests/store_child.py")) as server:    # runs `store_child.py --fork-server FD`
        child = server.start(["db.sqlite3", "7"], stderr=err_file)
        child.stdout.readline(); child.kill(); child.wait()      # -9

The script's `--fork-server FD` mode calls `serve(FD, run)` after its imports; `run(args)`
is what the child does (as `main` with those command-line arguments). One child at a time.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import socket
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
PR_SET_PDEATHSIG = 1


class ForkServer:
    """The test's side: starts the server and asks it for children."""

    def __init__(self, script: Path) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self._socket = ours
        self._process = subprocess.Popen([sys.executable, str(script), "--fork-server", str(theirs.fileno())],
                                         cwd=ROOT, pass_fds=(theirs.fileno(),), stdin=subprocess.DEVNULL)
        theirs.close()
        self._child: Forked | None = None

    def start(self, args: list[str], *, stderr: IO[str]) -> Forked:
        """A new child doing `run(args)`, its stderr written to `stderr` (a file)."""
        if self._child is not None and self._child.returncode is None:
            raise RuntimeError("one child at a time: wait for the last one first")
        read_end, write_end = os.pipe()
        try:
            socket.send_fds(self._socket, [json.dumps(args).encode()], [write_end, stderr.fileno()])
        finally:
            os.close(write_end)
        reply = self._socket.recv(4096)
        if not reply:
            os.close(read_end)
            raise RuntimeError(f"the fork server ended (exit code {self._process.wait()})")
        self._child = Forked(int(reply), os.fdopen(read_end, "r", encoding="utf-8"), self._socket)
        return self._child

    def close(self) -> None:
        """Kill a child still running, stop the server and wait for it."""
        if self._child is not None and self._child.returncode is None:
            self._child.kill()
            with contextlib.suppress(OSError, ValueError):
                self._child.wait()
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
    """One child: its pid, its stdout, and (after `wait`) its exit code, -N for signal N."""

    def __init__(self, pid: int, stdout: IO[str], server: socket.socket) -> None:
        self.pid = pid
        self.stdout = stdout
        self.returncode: int | None = None
        self._server = server

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)

    def wait(self, timeout: float = 30.0) -> int:
        """Wait until the child has ended (the server reaped it); its exit code."""
        if self.returncode is None:
            self._server.settimeout(timeout)
            try:
                reply = self._server.recv(4096)
            finally:
                self._server.settimeout(None)
            if not reply:
                raise RuntimeError("the fork server ended before its child")
            self.returncode = int(reply)
            self.stdout.close()
        return self.returncode


def die_with_parent() -> None:
    """Be killed when the parent process dies, however it died (Linux; elsewhere nothing): a
    test killed halfway leaves neither the server nor a child playing on behind it."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def serve(fd: int, run: Callable[[list[str]], None]) -> None:
    """The server's side: for each request on the socket `fd`, fork a child that runs
    `run(args)` with the request's stdout and stderr, answer its pid, reap it and answer how it
    ended. Returns when the test closes its end."""
    die_with_parent()
    server = socket.socket(fileno=fd)
    sys.stdout.flush()
    sys.stderr.flush()
    while True:
        try:
            message, fds, _, _ = socket.recv_fds(server, 65536, 2)
        except OSError:
            break
        if not message:
            break
        args = json.loads(message)
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
                run(args)
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
        server.send(str(pid).encode())
        _, status = os.waitpid(pid, 0)
        with contextlib.suppress(OSError):
            server.send(str(os.waitstatus_to_exitcode(status)).encode())
