"""The real bot in a child process, against the fake Discord running in the test's process, so
that a test can SIGKILL it at any moment — or at a chosen point in the code — and start a new
one on the same database.

    async with await ChildBot.start(fake, db, crash_after=["store.writer:GroupCommitWriter.run:1"]) as bot:
        ...
        assert await bot.wait_exit() == -signal.SIGKILL

The child is tests/bot_child.py (or tests/bot_main_child.py, bot.py itself: `start_main`),
forked from a server that imported the bot once (tests/fork_server.py; one server per script,
started by the first child and stopped by `close_fork_servers`, which tests/bot_app/conftest.py
calls after each test file): a child is ready in about a second. Its stdout (status lines:
armed, ready, crash, stopped) and stderr (the bot's log) go to files beside the database,
bot-child-<n>.out/.err, kept for the test to read (`output()`) when something went wrong.

Crash points need no hooks in the bot's code: `module:qualname:N` names a function, method,
staticmethod or classmethod (sync or async); the child wraps it so that right before
(`crash_before`) or right after (`crash_after`: returned or raised) its N-th call, the child
SIGKILLs itself. Calls are counted from the child's start, or only once the bot is ready with
`count_from_ready=True`. The wrapper replaces the attribute where it is defined, so a name
imported elsewhere with `from module import function` keeps the original: pick methods, or
functions that are looked up through their module.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import importlib
import inspect
import os
import signal
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any

from tests.fork_server import Forked, ForkServer

from .server import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "tests" / "bot_child.py"
MAIN_RUNNER = ROOT / "tests" / "bot_main_child.py"  # bot.py itself, configured by its environment


@dataclass(frozen=True)
class CrashPoint:
    """`module:qualname:N`: the N-th call (from 1) of that function or method."""

    module: str
    qualname: str
    n: int

    @classmethod
    def parse(cls, spec: str) -> CrashPoint:
        parts = spec.split(":")
        if len(parts) != 3 or not all(parts) or not parts[2].isdigit() or int(parts[2]) < 1:
            raise ValueError(f"a crash point is module:qualname:N with N >= 1, not {spec!r}")
        return cls(parts[0], parts[1], int(parts[2]))

    def __str__(self) -> str:
        return f"{self.module}:{self.qualname}:{self.n}"


def arm(point: CrashPoint, when: str, action: Callable[[], None],
        counting: Callable[[], bool] = lambda: True) -> Callable[[], None]:
    """Wrap the function `point` names so that `action()` runs right before (`when` "before")
    or right after ("after") its `point.n`-th call; calls made while `counting()` is false do
    not count. Returns a function that puts the original back."""
    if when not in ("before", "after"):
        raise ValueError(f"when is 'before' or 'after', not {when!r}")
    owner: Any = importlib.import_module(point.module)
    *path, name = point.qualname.split(".")
    for part in path:
        owner = getattr(owner, part)
    raw = inspect.getattr_static(owner, name)  # the staticmethod/classmethod object itself, not a bound method
    wrapper_kind: Callable[[Any], Any] | None = type(raw) if isinstance(raw, staticmethod | classmethod) else None
    func = raw.__func__ if wrapper_kind is not None else raw
    if not callable(func):
        raise TypeError(f"{point.module}:{point.qualname} is not a function")
    if inspect.isasyncgenfunction(func) or inspect.isgeneratorfunction(func):
        raise TypeError(f"{point.module}:{point.qualname} is a generator; crash points take plain functions")
    calls = 0

    def this_call_is_it() -> bool:
        nonlocal calls
        if not counting():
            return False
        calls += 1
        return calls == point.n

    wrapped: Callable[..., Any]
    if inspect.iscoroutinefunction(func):
        @functools.wraps(func)
        async def wrapped_async(*args: Any, **kwargs: Any) -> Any:
            hit = this_call_is_it()
            if hit and when == "before":
                action()
            try:
                return await func(*args, **kwargs)
            finally:
                if hit and when == "after":
                    action()

        wrapped = wrapped_async
    else:
        @functools.wraps(func)
        def wrapped_sync(*args: Any, **kwargs: Any) -> Any:
            hit = this_call_is_it()
            if hit and when == "before":
                action()
            try:
                return func(*args, **kwargs)
            finally:
                if hit and when == "after":
                    action()

        wrapped = wrapped_sync
    setattr(owner, name, wrapper_kind(wrapped) if wrapper_kind is not None else wrapped)
    return lambda: setattr(owner, name, raw)


_servers: dict[Path, ForkServer] = {}


def fork_server(script: Path) -> ForkServer:
    """The fork server of `script` (tests/bot_child.py, tests/bot_main_child.py), started at
    the first call after `close_fork_servers`."""
    server = _servers.get(script)
    if server is None or not server.alive:
        server = _servers[script] = ForkServer(script)
    return server


@atexit.register  # a server holds a bot process's memory: never left behind
def close_fork_servers() -> None:
    """Stop every fork server (each holds a bot process's memory) and any child still running."""
    while _servers:
        _servers.popitem()[1].close()


class ChildBot:
    """One child process running the bot; see the module's docstring."""

    def __init__(self, proc: Forked, stdout: Path, stderr: Path) -> None:
        self.proc = proc
        self.stdout_path = stdout
        self.stderr_path = stderr

    @classmethod
    async def start(cls, fake: FakeDiscord, db: Path | str, *, renderer: str = "stub", guild_id: int | None = None,
                    crash_after: Iterable[str] = (), crash_before: Iterable[str] = (),
                    count_from_ready: bool = False, run_timers: bool = False, sync_commands: bool = True,
                    turn_hours: float | None = None, seed: int | None = None, logs: Path | None = None,
                    extra_args: Sequence[str] = (), timeout: float = 60.0, ready: bool = True) -> ChildBot:
        """Start the bot in a child process on `db`, logged in to `fake`, and return once it is
        ready (it printed "ready": identified, READY and GUILD_CREATEs handled; `ready=False`:
        at once, e.g. for a crash point it may reach first). `renderer` is
        "stub" (tiny PNGs) or "real"; `seed` makes its deals the same at every run. Raises
        RuntimeError, with the child's output, when it exits or is not ready within `timeout`
        seconds."""
        args = ["--db", str(db), "--base", fake.base, "--gateway", fake.gateway_url, "--renderer", renderer]
        if guild_id is not None:
            args += ["--guild-id", str(guild_id)]
        for spec in crash_after:
            args += ["--crash-after", str(CrashPoint.parse(spec))]
        for spec in crash_before:
            args += ["--crash-before", str(CrashPoint.parse(spec))]
        if count_from_ready:
            args.append("--count-from-ready")
        if run_timers:
            args.append("--timers")
        if not sync_commands:
            args.append("--no-sync")
        if turn_hours is not None:
            args += ["--turn-hours", str(turn_hours)]
        if seed is not None:
            args += ["--seed", str(seed)]
        args += list(extra_args)
        child = cls._spawn(RUNNER, args, logs or Path(db).parent)
        if ready:
            await child.wait_line("ready", timeout)
        return child

    @classmethod
    async def start_main(cls, fake: FakeDiscord, env: dict[str, str], logs: Path, *,
                         crash_after: Iterable[str] = (), crash_before: Iterable[str] = (),
                         count_from_ready: bool = False, seed: int | None = None, ready: bool = True,
                         timeout: float = 60.0) -> ChildBot:
        """Start bot.py itself (tests/bot_main_child.py) logged in to `fake`, configured by `env`
        (TTR_DATABASE, TTR_SHARD_COUNT, TTR_SHARD_IDS…; added to this process's environment),
        and return once it is ready on its shards (`ready`; else at once: it may stand by, or
        refuse to start). Raises RuntimeError as `start`."""
        args = ["--base", fake.base, "--gateway", fake.gateway_url]
        for spec in crash_after:
            args += ["--crash-after", str(CrashPoint.parse(spec))]
        for spec in crash_before:
            args += ["--crash-before", str(CrashPoint.parse(spec))]
        if count_from_ready:
            args.append("--count-from-ready")
        if seed is not None:
            args += ["--seed", str(seed)]
        child = cls._spawn(MAIN_RUNNER, args, logs, {"DISCORD_TOKEN": "fake-token", "LOG_LEVEL": "INFO", **env})
        if ready:
            await child.wait_line("ready", timeout)
        return child

    @classmethod
    def _spawn(cls, script: Path, args: list[str], logs: Path, env: dict[str, str] | None = None) -> ChildBot:
        """`script` with `args`, forked from its fork server; `env` is added to this process's
        environment, as for a child started anew."""
        n = 1 + len(list(logs.glob("bot-child-*.out")))
        stdout, stderr = logs / f"bot-child-{n}.out", logs / f"bot-child-{n}.err"
        with stdout.open("wb") as out, stderr.open("wb") as err:
            proc = fork_server(script).start(args, stdout=out, stderr=err, env={**os.environ, **(env or {})})
        return cls(proc, stdout, stderr)

    def ready_lines(self) -> list[str]:
        """Its "ready <shards>" lines so far (bot_main_child.py), one per (re)connection."""
        return [line for line in self.lines() if line.startswith("ready")]

    async def wait_line(self, first_word: str, timeout: float = 60.0, *, count: int = 1) -> str:
        """Wait until the child has printed `count` status lines starting with `first_word`
        ("ready"); the last of them. Raises RuntimeError, with the child's output, when it exits
        first or the time is up (the child is then killed)."""
        deadline = time.monotonic() + timeout
        while len(seen := [line for line in self.lines() if line.split(" ", 1)[0] == first_word]) < count:
            if not self.alive:
                raise RuntimeError(f"the bot's child process exited ({self.proc.poll()}) before it was "
                                   f"{first_word}:\n" + self.output())
            if time.monotonic() > deadline:
                await self.kill()
                raise RuntimeError(f"the bot's child process was not {first_word} in {timeout} s:\n"
                                   + self.output())
            await asyncio.sleep(0.02)  # the fake runs on this loop: never block it
        return seen[-1]

    @property
    def pid(self) -> int:
        return self.proc.pid

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    @property
    def returncode(self) -> int | None:
        """None while it runs; -9 after SIGKILL; 0 after a graceful stop."""
        return self.proc.poll()

    def lines(self) -> list[str]:
        """The child's status lines so far (its stdout)."""
        return self.stdout_path.read_text(errors="replace").splitlines()

    def output(self) -> str:
        """Its stdout and stderr, for an assertion message."""
        return (f"--- {self.stdout_path.name}\n{self.stdout_path.read_text(errors='replace')}"
                f"--- {self.stderr_path.name}\n{self.stderr_path.read_text(errors='replace')[-20000:]}")

    async def wait_exit(self, timeout: float = 30.0) -> int:
        """Wait until the child has exited (e.g. at a crash point); its return code."""
        deadline = time.monotonic() + timeout
        while (code := self.proc.poll()) is None:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot's child process is still running after {timeout} s:\n" + self.output())
            await asyncio.sleep(0.02)
        return code

    async def kill(self) -> int:
        """SIGKILL: no clean-up of any kind, as a power cut or the OOM killer."""
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGKILL)
        return await self.wait_exit()

    async def stop(self, timeout: float = 20.0) -> int:
        """Graceful: SIGTERM, on which the child closes the bot and the service and exits 0.
        Killed if it takes longer than `timeout`."""
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGTERM)
            try:
                return await self.wait_exit(timeout)
            except TimeoutError:
                return await self.kill()
        return await self.wait_exit()

    async def __aenter__(self) -> ChildBot:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.kill()
