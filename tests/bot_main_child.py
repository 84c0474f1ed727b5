"""bot.py itself in a child process — its shard coordination, its exit statuses, its clean stop
on SIGTERM — logged in to a fake Discord that the parent (a test) runs; the parent may SIGKILL
it at any time (tests/fake_discord/child.py `ChildBot.start_main` starts it).

    python tests/bot_main_child.py --base URL --gateway URL [--seed N]
        [--crash-after module:qualname:N]... [--crash-before module:qualname:N]... [--count-from-ready]
    python tests/bot_main_child.py --fork-server FD       (tests/fork_server.py: ForkServer)

Everything else is bot.py's own configuration, from the environment: TTR_DATABASE,
TTR_SHARD_COUNT, TTR_SHARD_IDS, DISCORD_TOKEN... Only what cannot be configured is changed
here: discord.py is pointed at the fake, boards are stub PNGs, the deals come from `--seed`, and
discord.py waits 0.2 s (not 2 s) after the last GUILD_CREATE.

Status lines on stdout, one each, flushed at once:

    armed <before|after> <point>    a crash point is in place
    ready <shards>                  the bot is ready on these shards ("0,1"), again after each reconnect
    crash <before|after> <point>    the point was reached: SIGKILL follows at once
    exit <status>                   bot.py's main() returned (0 after a clean stop)

The bot's log (and bot.py's words when it refuses to start) go to stderr. The child stops
(SIGTERM to itself) when its parent is gone, so that a test killed halfway leaves no bot behind.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import app.service  # noqa: E402
import bot  # noqa: E402
import bot_app.adapter.client  # noqa: E402
from tests.bot_child import die, preload, say  # noqa: E402
from tests.fake_discord.child import CrashPoint, arm  # noqa: E402
from tests.fake_discord.renderer import StubRenderer  # noqa: E402
from tests.fake_discord.server import install_urls  # noqa: E402


def watch_parent(parent: int) -> None:
    """A daemon thread: SIGTERM ourselves once the parent is gone (bot.py stops cleanly)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGTERM)


def patch(args: argparse.Namespace, ready: list[bool]) -> None:
    make_bot = bot_app.adapter.client.make_bot

    def made(*a: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("renderer", StubRenderer())
        kwargs.setdefault("guild_ready_timeout", 0.2)
        the_bot = make_bot(*a, **kwargs)

        async def announce() -> None:
            while not the_bot.is_ready():
                if the_bot.is_closed():
                    return
                await asyncio.sleep(0.01)
            ready[0] = True
            shards = getattr(the_bot, "shard_ids", None) or [0]  # a plain commands.Bot: the whole bot
            say("ready " + ",".join(map(str, shards)))

        tasks.add(asyncio.get_running_loop().create_task(announce()))
        return the_bot

    tasks: set[asyncio.Task[None]] = set()
    bot_app.adapter.client.make_bot = made  # bot.py imports it when it starts the bot
    if args.seed is not None:  # the same deals at every run
        bits = random.Random(args.seed).getrandbits
        init = app.service.GameService.__init__

        def seeded(self: Any, *a: Any, **kwargs: Any) -> None:
            kwargs.setdefault("random_bits", bits)
            init(self, *a, **kwargs)

        app.service.GameService.__init__ = seeded  # type: ignore[method-assign]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the fake's REST base URL (…/api/v10)")
    parser.add_argument("--gateway", required=True, help="the fake's gateway URL (ws://…/gateway)")
    parser.add_argument("--seed", type=int, help="deal from this seed instead of from secrets")
    parser.add_argument("--crash-after", action="append", default=[], metavar="MODULE:QUALNAME:N")
    parser.add_argument("--crash-before", action="append", default=[], metavar="MODULE:QUALNAME:N")
    parser.add_argument("--count-from-ready", action="store_true",
                        help="count calls for crash points only once the bot is ready")
    args = parser.parse_args(argv)
    install_urls(args.base, args.gateway)
    ready = [False]
    for when, specs in (("before", args.crash_before), ("after", args.crash_after)):
        for spec in specs:
            point = CrashPoint.parse(spec)
            arm(point, when, lambda when=when, point=point: die(when, point),
                counting=(lambda: ready[0]) if args.count_from_ready else (lambda: True))
            say(f"armed {when} {point}")
    patch(args, ready)
    threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True).start()
    code = bot.main([])
    say(f"exit {code}")
    return code


def run(argv: list[str]) -> None:
    """One bot.py child, with these command-line arguments (the fork server's children too)."""
    raise SystemExit(main(argv))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--fork-server"]:  # children forked ready-imported (tests/bot_child.py, preload)
        from tests.fork_server import serve

        preload()
        serve(int(sys.argv[2]), run)
    else:
        run(sys.argv[1:])
