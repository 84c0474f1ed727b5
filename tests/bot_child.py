"""The bot in a child process, logged in to a fake Discord that the parent (a test) runs; the
parent may SIGKILL it at any time (tests/fake_discord/child.py `ChildBot` starts it).

    python tests/bot_child.py --db PATH|URL --base URL --gateway URL [--renderer stub|real]
        [--guild-id ID] [--timers] [--no-sync] [--turn-hours H] [--guild-ready-timeout S] [--seed N]
        [--crash-after module:qualname:N]... [--crash-before module:qualname:N]... [--count-from-ready]
    python tests/bot_child.py --fork-server FD       (tests/fork_server.py: ForkServer)

The second form imports what a bot process needs once, then forks one such child per request
(`ChildBot` starts its children so: a bot ready in about a second, not after 2–3 s of CPU spent
importing discord.py, the engine and the store each time).

Status lines on stdout, one each, flushed at once:

    armed <before|after> <point>    a crash point is in place
    ready                           the bot is logged in to the fake and ready
    crash <before|after> <point>    the point was reached: SIGKILL follows at once
    stopped                         a graceful stop (SIGTERM) finished: bot and service closed

The bot's log goes to stderr. The child also stops when its parent is gone, so that a test
killed halfway leaves no bot behind.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import secrets
import signal
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import GameService, Limits  # noqa: E402
from bot_app.adapter.client import TtrBot  # noqa: E402
from bot_app.logs import configure_logging  # noqa: E402
from tests.fake_discord.child import CrashPoint, arm  # noqa: E402
from tests.fake_discord.renderer import StubRenderer  # noqa: E402
from tests.fake_discord.server import install_urls  # noqa: E402

log = logging.getLogger("bot_child")


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def die(when: str, point: CrashPoint) -> None:
    """SIGKILL ourselves: nothing after this line runs, no finally, no flush of anything else."""
    say(f"crash {when} {point}")
    sys.stderr.write(f"bot_child: crash point reached: {when} {point}\n")
    sys.stderr.flush()
    os.kill(os.getpid(), signal.SIGKILL)


async def first(*aws: asyncio.Future[object] | asyncio.Task[object]) -> None:
    await asyncio.wait(aws, return_when=asyncio.FIRST_COMPLETED)


async def watch_parent(parent: int, stopping: asyncio.Event) -> None:
    while os.getppid() == parent:
        await asyncio.sleep(0.5)
    log.warning("the parent process is gone: stopping")
    stopping.set()


async def main(args: argparse.Namespace) -> int:
    configure_logging(getattr(logging, args.log_level))
    install_urls(args.base, args.gateway)
    ready = False
    for when, specs in (("before", args.crash_before), ("after", args.crash_after)):
        for spec in specs:
            point = CrashPoint.parse(spec)
            arm(point, when, lambda when=when, point=point: die(when, point),
                counting=(lambda: ready) if args.count_from_ready else (lambda: True))
            say(f"armed {when} {point}")

    # A seed makes the deals (and the AI's choices) the same at every run: a test can then
    # rely on the game it plays.
    bits = secrets.randbits if args.seed is None else random.Random(args.seed).getrandbits
    db = args.db if args.db.startswith(("postgresql://", "postgres://")) else Path(args.db)
    service = await GameService.open(db, limits=Limits.unlimited(), random_bits=bits)
    bot = TtrBot(service, guild_id=args.guild_id, renderer=StubRenderer() if args.renderer == "stub" else None,
                 run_timers=args.timers, sync_commands=not args.no_sync, default_turn_hours=args.turn_hours,
                 guild_ready_timeout=args.guild_ready_timeout)
    stopping = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stopping.set)
    stop_wait = asyncio.ensure_future(stopping.wait())
    watcher = asyncio.create_task(watch_parent(os.getppid(), stopping))
    running = asyncio.create_task(bot.start("fake-token"))
    try:
        while not bot.is_ready() and not running.done() and not stopping.is_set():
            await asyncio.sleep(0.01)
        if bot.is_ready():
            ready = True
            say("ready")
            await first(running, stop_wait)
    finally:
        watcher.cancel()
        stop_wait.cancel()
        await bot.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(running, 10)
        await service.close()
    if running.done() and not running.cancelled() and running.exception() is not None:
        log.error("the bot stopped with an error", exc_info=running.exception())
        return 1
    say("stopped")
    return 0


def preload() -> None:
    """What a bot process imports and loads as it starts, done once in the fork server so that
    each child forked from it starts with it done (bot.py, every cog, both store back ends,
    the board the tests play on)."""
    import importlib

    import aiosqlite  # noqa: F401
    import asyncpg  # noqa: F401

    import bot  # noqa: F401
    import store.postgres  # noqa: F401
    import store.sqlite_store  # noqa: F401
    from bot_app.adapter.client import cog_modules
    from engine.maps import load_map

    for module in cog_modules():
        importlib.import_module(module)
    load_map("europe")


def run(argv: list[str]) -> None:
    """One bot child, with these command-line arguments (the fork server's children too)."""
    raise SystemExit(asyncio.run(main(parse(argv))))


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", required=True, help="an SQLite file or a postgresql:// URL")
    parser.add_argument("--base", required=True, help="the fake's REST base URL (…/api/v10)")
    parser.add_argument("--gateway", required=True, help="the fake's gateway URL (ws://…/gateway)")
    parser.add_argument("--renderer", choices=("stub", "real"), default="stub")
    parser.add_argument("--guild-id", type=int)
    parser.add_argument("--timers", action="store_true", help="run the turn-timer loop")
    parser.add_argument("--no-sync", action="store_true", help="do not sync the command tree")
    parser.add_argument("--turn-hours", type=float, default=48.0)
    parser.add_argument("--seed", type=int, help="deal from this seed instead of from secrets")
    parser.add_argument("--crash-after", action="append", default=[], metavar="MODULE:QUALNAME:N")
    parser.add_argument("--crash-before", action="append", default=[], metavar="MODULE:QUALNAME:N")
    parser.add_argument("--count-from-ready", action="store_true",
                        help="count calls for crash points only once the bot is ready")
    # discord.py waits this long after the last GUILD_CREATE before it is ready (2 s by
    # default, for live Discord); the fake sends them all at once.
    parser.add_argument("--guild-ready-timeout", type=float, default=0.2)
    parser.add_argument("--log-level", default="INFO", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    return parser.parse_args(argv)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fork-server"]:
        from tests.fork_server import serve

        preload()
        serve(int(sys.argv[2]), run)
    else:
        run(sys.argv[1:])
