"""Which Discord shards this process runs, when several processes share a PostgreSQL database.

Each shard is held by exactly one live process: a lock per shard on the process's presence
connection (store/presence.py), which PostgreSQL drops the moment the process dies.

- TTR_SHARD_IDS named: this process takes exactly those. One held by another live process is
  waited for (up to SHARD_WAIT seconds: a restarted process's old self may still be dying),
  then refused in words — two processes on one shard would both answer every click.
- TTR_SHARD_IDS unset, TTR_SHARD_COUNT set: the process takes every shard no live process
  holds (the pool). With none free it waits, as a stand-by. While it runs, it looks every
  second for shards that became free (a process died or stopped) and takes them: the bot then
  reconnects with its larger set (bot.py), within seconds of the death.

One process on SQLite holds every shard it names (there is no one else).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine, Sequence
from typing import Any

from store import Store

log = logging.getLogger(__name__)

SHARD_WAIT = 15.0  # seconds a named shard held by another process is waited for
LOOK_EVERY = 1.0  # seconds between looks for free shards


class ShardsRefused(Exception):
    """A named shard is held by another live process (the message says which, and by whom)."""


async def take_named(store: Store, shard_ids: Sequence[int], *, wait: float = SHARD_WAIT,
                     every: float = LOOK_EVERY) -> list[int]:
    """Take every shard in `shard_ids`, waiting up to `wait` seconds for those another process
    holds; raises ShardsRefused naming them (nothing is kept: the shards taken are let go with
    the store)."""
    missing = list(shard_ids)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while True:
        missing = [s for s in missing if not await store.take_shard(s)]
        if not missing:
            log.info("this process (%s) runs shards %s", store.owner, ", ".join(map(str, shard_ids)))
            return list(shard_ids)
        if loop.time() >= deadline:
            raise ShardsRefused(
                f"Shard {', '.join(map(str, missing))} is already run by another bot process "
                f"({await _who(store, missing)}); two processes on one shard would both answer every click. "
                "Give this process other shards (TTR_SHARD_IDS), stop the other one, or leave TTR_SHARD_IDS "
                "unset to take free shards.")
        log.warning("shard %s is held by another process; waiting for it (up to %.0f s)",
                    ", ".join(map(str, missing)), deadline - loop.time())
        await asyncio.sleep(every)


async def take_free(store: Store, shard_count: int, held: Sequence[int] = ()) -> list[int]:
    """Take every shard of `shard_count` no live process holds; returns all this process holds
    now (with `held`)."""
    mine = set(held)
    for shard in range(shard_count):
        if shard not in mine and await store.take_shard(shard):
            mine.add(shard)
    return sorted(mine)


async def wait_for_free(store: Store, shard_count: int, held: Sequence[int] = (), *,
                        every: float = LOOK_EVERY) -> list[int]:
    """Look every `every` seconds until a shard beyond `held` is free and taken; returns every
    shard this process holds then. With nothing held, this is a stand-by process."""
    said = False
    while True:
        mine = await take_free(store, shard_count, held)
        if len(mine) > len(held):
            log.info("this process (%s) now runs shards %s", store.owner, ", ".join(map(str, mine)))
            return mine
        if not held and not said:
            log.info("every shard is run by another process: this one stands by to take over")
            said = True
        await asyncio.sleep(every)


async def take(store: Store, shard_ids: Sequence[int] | None, shard_count: int | None, *,
               wait: float = SHARD_WAIT) -> tuple[list[int] | None, int | None]:
    """The shards this process starts with, and the pool's size when it takes free shards
    (None: the shards are fixed). Waits while none is free; raises ShardsRefused."""
    if shard_count is None:
        return None, None
    if shard_ids is not None:
        return await take_named(store, shard_ids, wait=wait), None
    if not store.shared:  # one process: every shard
        return list(range(shard_count)), None
    mine = await take_free(store, shard_count)
    if mine:
        log.info("this process (%s) runs shards %s", store.owner, ", ".join(map(str, mine)))
    return mine or await wait_for_free(store, shard_count), shard_count


async def run_until_more(run: Coroutine[Any, Any, None], store: Store, shard_count: int,
                         held: Sequence[int]) -> list[int] | None:
    """Run the bot (`run`) until it stops (None) or more shards were taken (returned: the bot
    is then to reconnect with them). A stop or crash of either side stops both."""
    bot = asyncio.ensure_future(run)
    more = asyncio.ensure_future(wait_for_free(store, shard_count, held))
    try:
        done, _ = await asyncio.wait({bot, more}, return_when=asyncio.FIRST_COMPLETED)
        if bot in done:
            bot.result()
            return None
        return more.result()
    finally:
        for task in (bot, more):
            task.cancel()
        with contextlib.suppress(BaseException):
            await asyncio.gather(bot, more, return_exceptions=True)


async def _who(store: Store, shards: Sequence[int]) -> str:
    try:
        holders = await store.holders()
    except Exception:  # the words matter more than the names
        return "a process still alive"
    names = [h.owner for h in holders if set(h.shards) & set(shards)]
    return ", ".join(names) or "a process still alive"


async def status_lines(store: Store) -> list[str]:
    """`bot.py --status`: each live process on the database and the shards it holds."""
    holders = [h for h in await store.holders() if h.owner != store.owner]
    if not holders:
        return ["No bot process is running on this database."]
    return [f"{h.owner}: {'shards ' + ', '.join(map(str, h.shards)) if h.shards else 'no shard (stand-by)'}"
            f", since {h.since}" for h in holders]
