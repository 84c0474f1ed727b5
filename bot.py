"""Ticket to Ride for Discord: the entry point.

    python bot.py

runs the bot. Configuration comes from the environment (a `.env` file beside this one is read
too): DISCORD_TOKEN (required), TTR_DATABASE (default data/ttr.sqlite3; or a postgresql://
URL), GUILD_ID (optional: sync the commands to that one server instantly while developing),
LOG_LEVEL (default INFO), TTR_TURN_HOURS (default turn limit, 48), TTR_SHARD_IDS and
TTR_SHARD_COUNT (several processes on one PostgreSQL database: docs/scaling.md). Without a
token it explains how to get one.

    python bot.py --demo [--variant V] [--dice] [--players N] [--seed S] [--out DIR]

plays a whole game between computer players (with --dice, on the Dice Expansion) through the
same service, store (a temporary SQLite file) and renderer, and writes into DIR (default
demo-out/) the game's thread as players read it (log.txt), each player's private messages
(dm-<player>.txt) and hand pictures, the board after every turn, the final score picture and
the move log. No token needed. A second demo into the same DIR replaces the first; a DIR
holding files no demo wrote is refused.

A mistaken flag (a player count the rule set does not seat, an unknown AI level, more levels
than players, an --out that cannot be written, a demo flag without --demo) gets one sentence
and exit status 2, before anything is played or written.

    python bot.py --sync

runs the bot and sends its slash commands to Discord even if they did not change (they are
otherwise sent only when their digest differs from the last sync's).

    python bot.py --backup PATH

copies the live game database to PATH with SQLite's online backup (safe while the bot runs).
A PostgreSQL database is backed up with pg_dump instead (docs/scaling.md).

    python bot.py --copy-db TARGET

copies every game of the current database (TTR_DATABASE) into TARGET — a postgresql:// URL or
an SQLite file, which must be empty — and checks each game by replaying it on both sides.
Stop the bot first.

    python bot.py --status

prints each bot process running on a PostgreSQL database and the Discord shards it holds
(docs/scaling.md).

    python bot.py --init

makes a new, empty game database at TTR_DATABASE (or data/ttr.sqlite3) when there is none or
the file there is empty, and exits. The bot itself makes one on its first start only where
there is no file at all; an empty file is refused, since it is more likely a failed copy.

When the database cannot be used the bot prints one message saying what is wrong, with which
file, and what to do (docs/operations.md lists them), and exits with status 3
(EXIT_DATABASE), so that a service manager can tell it from a crash. A PostgreSQL server that
is out of reach (down, restarting) is waited for instead, with words in the log.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

from ai.levels import AI_LEVELS
from bot_app.config import DEFAULT_DATABASE, NO_TOKEN_HELP, ROOT, Config, load_dotenv
from bot_app.lang import codes
from engine.rulesets import available_variants
from store.opening import open_store

T = TypeVar("T")
# The exit status when the game database cannot be used (it was left as it was).
EXIT_DATABASE = 3
# The exit status when a shard it was told to run is run by another live process.
EXIT_SHARDS = 4


def run_demo(variant: str, players: int, seed: int, out: Path, levels: list[str], dice: bool = False,
             language: str = "en") -> int:
    """Play one all-AI game through the service, store and renderer; write pictures and logs
    (`language`: the table's, which its thread and DMs are written in)."""
    from bot_app.adapter.shutdown import run_stopping_on_sigterm
    from bot_app.demo import play_demo

    options = {"language": language} if language != "en" else {}
    summary = run_stopping_on_sigterm(play_demo(variant, players, seed, out, levels, dice=dice, options=options))
    if summary is None:  # SIGTERM: stopped cleanly, as after Ctrl-C
        print(f"The demo was stopped; {out} holds what it wrote so far.", file=sys.stderr)
        return 0
    return 0 if summary["ended"] else 1


# The flags that only mean something with --demo, and their defaults.
DEMO_DEFAULTS = {"variant": "europe", "players": 3, "seed": 1, "dice": False, "out": Path("demo-out"),
                 "ai": "greedy", "language": "en"}


def demo_refusal(args: argparse.Namespace) -> str | None:
    """Why the demo cannot be played as asked (one sentence), or None; a demo flag without
    --demo is a mistake too. An --out that is usable is made ready (an earlier demo's files
    removed) here, before anything is played."""
    given = [name for name in DEMO_DEFAULTS if getattr(args, name) is not None]
    if not args.demo:
        if given:
            return f"--{given[0]} only means something with --demo (python bot.py --demo --{given[0]} …)."
        return None
    for name, default in DEMO_DEFAULTS.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    from bot_app.demo import DemoRefused, check_table, prepare_out

    try:
        check_table(args.variant, args.players, demo_levels(args.ai), args.dice)
        prepare_out(args.out)
    except DemoRefused as exc:
        return str(exc)
    return None


def demo_levels(text: str) -> list[str]:
    """--ai's comma-separated levels, as written ("easy, hard" too)."""
    return [level.strip() for level in text.split(",")]


def run_backup(dest: Path) -> int:
    """Copy the game database with SQLite's online backup; safe while the bot is running."""
    from store import StoreError, backup_database, default_path, default_target

    if isinstance(default_target(), str):
        print("backup failed: TTR_DATABASE is a PostgreSQL database; back it up with pg_dump, for example "
              "pg_dump -Fc -f backups/ttr-$(date +%F).dump \"$TTR_DATABASE\" (docs/scaling.md)", file=sys.stderr)
        return 1
    source = default_path()
    try:
        written = asyncio.run(backup_database(source, dest))
    except (StoreError, OSError) as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    print(f"backed up {source} to {written}")
    return 0


def run_copy(target: str) -> int:
    """Copy every game of the current database to `target` (empty), checking each by replay."""
    from app.copying import copy_database
    from store import DatabaseUnusable, StoreError, default_target, is_database_url

    destination: str | Path = target if is_database_url(target) else Path(target)
    try:
        report = asyncio.run(copy_database(default_target(), destination, progress=print))
    except DatabaseUnusable as exc:
        print(f"--copy-db refused: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    except StoreError as exc:
        print(f"--copy-db refused: {exc}", file=sys.stderr)
        return 1
    print(report.summary())
    return 0


def run_status() -> int:
    """Print each live bot process on the database and the shards it holds."""
    from bot_app.adapter.shards import status_lines
    from store import StoreError, default_target

    target = default_target()
    if not str(target).startswith(("postgresql://", "postgres://")):
        print(f"The database is an SQLite file ({target}): one bot process at most, running every shard.")
        return 0

    async def status() -> int:
        try:
            store = await open_store(target)
        except StoreError as exc:
            print(f"Could not read the status. {exc}", file=sys.stderr)
            return EXIT_DATABASE
        try:
            print("\n".join(await status_lines(store)))
            return 0
        finally:
            await store.close()

    return asyncio.run(status())


def run_init(path: Path | str) -> int:
    """Make a new, empty game database at `path` if there is none or the file is empty (for
    PostgreSQL: the game tables in an empty database)."""
    from store import StoreError

    async def init() -> tuple[bool, int, str]:
        store = await open_store(path, allow_init=True, create_folder=True)
        try:
            games = await store.games.ids(("lobby", "cancelled", "setup", "playing", "over", "broken"))
            return store.created, len(games), store.label  # a URL without its password
        finally:
            await store.close()

    try:
        created, games, label = asyncio.run(init())
    except StoreError as exc:
        print(f"--init refused: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    if created:
        print(f"created a new, empty game database at {label}")
    else:
        print(f"{label} is already a game database ({games} games); --init left it as it was")
    return 0


def run_bot(config: Config, force_sync: bool = False) -> int:
    """Log in and serve until stopped (Ctrl-C or SIGTERM)."""
    import aiohttp
    import discord

    from app import GameService
    from app.collector import tune_collector
    from bot_app.adapter import shards
    from bot_app.adapter.client import make_bot
    from bot_app.adapter.shutdown import run_stopping_on_sigterm
    from bot_app.logs import configure_logging
    from store import StoreError

    async def serve() -> int:
        # data/ beside the bot may be made on a first start; a folder named in TTR_DATABASE
        # must exist, so that a typo there does not quietly start an empty database elsewhere.
        try:
            store = await open_waiting(lambda: open_store(config.database,
                                                          create_folder=is_default_database(config.database)))
        except StoreError as exc:
            print(f"The bot did not start. {exc}", file=sys.stderr)
            return EXIT_DATABASE
        service = GameService(store, limits=config.limits, cache_size=config.cache_games)
        try:
            try:
                shard_ids, pool = await shards.take(store, config.shard_ids, config.shard_count,
                                                    wait=config.shard_wait)
            except shards.ShardsRefused as exc:
                print(f"The bot did not start. {exc}", file=sys.stderr)
                return EXIT_SHARDS
            while True:  # in the pool, again with more shards when some became free
                bot = make_bot(service, shard_ids=shard_ids, shard_count=config.shard_count,
                               guild_id=config.guild_id, default_turn_hours=config.default_turn_hours,
                               force_sync=force_sync)
                async with bot:
                    if pool is None:
                        await bot.start(config.token or "")
                        return 0
                    more = await shards.run_until_more(bot.start(config.token or ""), store, pool, shard_ids or [])
                if more is None:
                    return 0
                logging.getLogger("bot").info("reconnecting to Discord with shards %s", more)
                shard_ids = more
        finally:
            await service.close()

    configure_logging(getattr(logging, config.log_level))
    # The cycle collector set for a process holding thousands of games (app/collector.py).
    tune_collector()
    try:
        return run_stopping_on_sigterm(serve()) or 0  # SIGTERM stops it as Ctrl-C does: exit 0
    except KeyboardInterrupt:
        pass
    except discord.LoginFailure:
        print("Discord refused the token (DISCORD_TOKEN): reset it in the Developer Portal and try again.",
              file=sys.stderr)
        return 1
    except (aiohttp.ClientConnectionError, TimeoutError, discord.GatewayNotFound) as exc:
        # Logging in is the one step discord.py does not retry; once connected it reconnects itself.
        why = str(exc) or type(exc).__name__
        print(f"The bot could not reach Discord ({why}): check this machine's connection to discord.com, "
              "then start it again.", file=sys.stderr)
        return 1
    return 0


async def open_waiting(open_store: Callable[[], Awaitable[T]], *, most: float = 5.0,
                       sleep: Callable[[float], Awaitable[None]] = asyncio.sleep) -> T:
    """Open the store; while its server is out of reach (down, restarting), say so in the log
    and try again, waiting longer each time up to `most` seconds. Any other refusal is raised."""
    from store import DatabaseUnreachable

    wait = 0.5
    while True:
        try:
            return await open_store()
        except DatabaseUnreachable as exc:
            logging.getLogger("bot").warning("%s Waiting for it: trying again in %.1f s.", exc, wait)
            await sleep(wait)
            wait = min(wait * 2, most)


def is_default_database(path: Path | str) -> bool:
    """Whether `path` is data/ttr.sqlite3 beside the bot (however it is spelled)."""
    return isinstance(path, Path) and os.path.abspath(path) == os.path.abspath(DEFAULT_DATABASE)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Ticket to Ride for Discord")
    parser.add_argument("--demo", action="store_true", help="play an offline all-AI game (no token needed)")
    parser.add_argument("--variant", choices=available_variants(), help="with --demo: the rule set (default europe)")
    parser.add_argument("--players", type=int, help="with --demo: how many seats (default 3)")
    parser.add_argument("--seed", type=int, help="with --demo: the deal and the AIs' choices (default 1)")
    parser.add_argument("--dice", action="store_const", const=True, help="with --demo: play with the Dice Expansion")
    parser.add_argument("--out", type=Path, help="with --demo: the folder it writes (default demo-out; an earlier "
                                                 "demo's files there are replaced)")
    parser.add_argument("--language", choices=codes(),
                        help="with --demo: the table's language, for the thread and the DMs (default en)")
    parser.add_argument("--ai", help=f"with --demo: the AI level of every seat, or one per seat, comma-separated "
                                     f"({', '.join(AI_LEVELS)}; default greedy)")
    parser.add_argument("--backup", type=Path, metavar="PATH",
                        help="copy the live game database ($TTR_DATABASE or data/ttr.sqlite3) to PATH and exit")
    parser.add_argument("--init", action="store_true",
                        help="make a new, empty game database ($TTR_DATABASE or data/ttr.sqlite3) if there is none "
                             "or the file is empty, and exit")
    parser.add_argument("--copy-db", metavar="TARGET",
                        help="copy every game of the current database ($TTR_DATABASE) into TARGET (a postgresql:// "
                             "URL or an SQLite file; it must be empty), check each by replay, and exit")
    parser.add_argument("--status", action="store_true",
                        help="show the bot processes running on the database ($TTR_DATABASE) and their shards")
    parser.add_argument("--sync", action="store_true",
                        help="send the slash commands to Discord at start-up even if they did not change")
    args = parser.parse_args(argv)
    refusal = demo_refusal(args)
    if refusal is not None:
        parser.error(refusal)  # one sentence (after the usage line), exit status 2
    load_dotenv(ROOT / ".env")
    if args.backup is not None:
        return run_backup(args.backup)
    if args.copy_db is not None:
        return run_copy(args.copy_db)
    if args.status:
        return run_status()
    if args.init:
        from store import default_target

        return run_init(default_target())
    if args.demo:
        return run_demo(args.variant, args.players, args.seed, args.out, demo_levels(args.ai), args.dice,
                        args.language)
    try:
        config = Config.from_env()
    except ValueError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    if not config.token:
        print(NO_TOKEN_HELP, file=sys.stderr)
        return 2
    return run_bot(config, force_sync=args.sync)


if __name__ == "__main__":
    raise SystemExit(main())
