"""Benchmark: what the outbox costs per turn post — the dispatcher's reads and writes of the
deliveries a move owes, without Discord and without pictures.

    .venv/bin/python bench/bench_outbox.py [--games 100] [--rounds 6] [--seed 1]

`--games` tables of two people on one SQLite file; in each round every game makes one move
(through the service, as a command would; not measured), then the real dispatcher
(bot_app/delivery/dispatcher.py) delivers what the moves owe to a Discord that answers at once and keeps
nothing (`NullClient`), with stub pictures, one game at a time. It prints, per turn post:

- the outbox's CPU: the process's CPU time (every thread: the event loop, SQLite's reader and
  the writer) inside the service calls the dispatcher makes (what is due, what a post or DM
  needs, settling what was sent), outermost calls only;
- the whole delivery's CPU (the outbox, plus building the messages and the null Discord);
- the store calls (each a thread hop on SQLite) and the transactions;

and the transactions per move (the move's own, plus its deliveries'). One game at a time, so
that CPU time inside a call is that call's alone. `--json` prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord  # noqa: E402

from ai.levels import make_ai  # noqa: E402
from app import Actor, GameService, Limits  # noqa: E402
from bot_app.delivery.dispatcher import Dispatcher  # noqa: E402
from tests.fake_discord.renderer import StubRenderer  # noqa: E402

# The service calls the dispatcher makes (those of any version of it that exist).
OUTBOX_CALLS = ("due_deliveries", "next_delivery_due", "outbox_data", "post_data", "hand_data", "settle", "posted",
                "delivered", "dm_channels", "retry_later", "dm_refused", "taken_back_data", "digest_data",
                "digest_news", "dms_known_closed", "delivery_refused", "game")
_ids = itertools.count(10**17)


class NullChannel:
    """A channel that takes every message at once."""

    def __init__(self, client: NullClient, channel_id: int, kind: str) -> None:
        self.client, self.id, self.kind = client, channel_id, kind

    async def send(self, content: str | None = None, **_: Any) -> Any:
        self.client.requests[self.kind] += 1
        return SimpleNamespace(id=next(_ids), content=content, edit=self._edit)

    async def _edit(self, **_: Any) -> None:
        self.client.requests["edit"] += 1

    def get_partial_message(self, message_id: int) -> Any:
        return SimpleNamespace(id=message_id, edit=self._edit)


class NullClient:
    """As much of discord.py's client as the dispatcher uses, answering at once."""

    def __init__(self) -> None:
        self.requests = {"post": 0, "dm": 0, "edit": 0, "open": 0}
        self.http = SimpleNamespace(start_private_message=self._open)

    def get_partial_messageable(self, channel_id: int, *, type: discord.ChannelType | None = None,
                                **_: Any) -> NullChannel:
        return NullChannel(self, channel_id, "dm" if type == discord.ChannelType.private else "post")

    async def create_dm(self, user: Any) -> NullChannel:
        self.requests["open"] += 1
        return NullChannel(self, 10**16 + user.id, "dm")

    async def _open(self, user_id: int) -> dict[str, Any]:
        self.requests["open"] += 1
        return {"id": str(10**16 + user_id)}


class Meter:
    """CPU time of the process inside the outermost of the wrapped calls, and how many."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.calls = 0
        self.active = False  # only while the dispatcher delivers (the bench's moves call the service too)
        self._depth = 0

    def wrap(self, call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def timed(*args: Any, **kwargs: Any) -> Any:
            outer = self._depth == 0
            self._depth += 1
            started = time.process_time()
            try:
                return await call(*args, **kwargs)
            finally:
                self._depth -= 1
                if outer and self.active:
                    self.cpu += time.process_time() - started
                    self.calls += 1

        return timed


class Counter:
    """How many store reads (calls of `reader.fetch` and `reader.fetch_many`: one thread hop each on SQLite)."""

    def __init__(self, store: Any) -> None:
        self.reads = 0
        for name in ("fetch", "fetch_many"):
            setattr(store.reader, name, self._counted(getattr(store.reader, name)))

    def _counted(self, call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.reads += 1
            return await call(*args, **kwargs)

        return counted


async def _table(service: GameService, g: int) -> int:
    host, other = 1000 + 2 * g, 1001 + 2 * g
    lobby = await service.tables.create_lobby(1, 1, host, f"A{g}", "europe", seats_wanted=2)
    await service.tables.join(lobby.game_id, other, f"B{g}")
    await service.tables.start(lobby.game_id, host)
    await service.tables.set_thread(lobby.game_id, 5 * 10**15 + lobby.game_id)
    return lobby.game_id


async def _move(service: GameService, game_id: int, rng: random.Random) -> bool:
    """The waiting player makes a move; False when the game is over."""
    summary = await service.reads.game(game_id)
    if summary.status not in ("setup", "playing") or not summary.waiting_for:
        return False
    user = summary.seats[summary.waiting_for[0]].user_id
    assert user is not None
    legal = await service.reads.legal_actions(game_id, user)
    action = make_ai("random", rng.randrange(10**6)).choose(await service.reads.view(game_id, user), legal)
    await service.moves.submit(game_id, Actor.user(user), action, summary.seq)
    return True


async def run(games: int, rounds: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    service = await GameService.open(Path(tempfile.mkdtemp()) / "outbox.sqlite3", limits=Limits.unlimited())
    client = NullClient()
    desk = SimpleNamespace(service=service, client=client, renderer=StubRenderer())
    dispatcher = Dispatcher(desk, max_sleep=0.01)  # type: ignore[arg-type]
    dispatcher._games = asyncio.Semaphore(1)  # one game at a time: a call's CPU is its own
    meter = Meter()
    for name in OUTBOX_CALLS:
        part = service.reads if name == "game" else service.outbox
        if hasattr(part, name):
            setattr(part, name, meter.wrap(getattr(part, name)))
    try:
        ids = [await _table(service, g) for g in range(games)]
        await dispatcher.run_once()  # the opening posts and hands: not measured
        counter = Counter(service.store)
        moves = drain_cpu = 0.0
        move_tx = drain_tx = reads = 0
        posts0 = client.requests["post"] + client.requests["edit"]
        cpu0, calls0 = meter.cpu, meter.calls
        for _ in range(rounds):
            tx0 = service.store.writer_stats[0]
            for g in ids:
                moves += await _move(service, g, rng)
            tx1 = service.store.writer_stats[0]
            r0, started = counter.reads, time.process_time()
            meter.active = True
            await dispatcher.run_once()
            meter.active = False
            drain_cpu += time.process_time() - started
            reads += counter.reads - r0
            move_tx += tx1 - tx0
            drain_tx += service.store.writer_stats[0] - tx1
        posts = client.requests["post"] + client.requests["edit"] - posts0
    finally:
        await service.close()
    return {
        "games": games, "moves": int(moves), "posts": posts,
        "outbox_cpu_ms_per_post": round(1000 * (meter.cpu - cpu0) / posts, 3),
        "delivery_cpu_ms_per_post": round(1000 * drain_cpu / posts, 3),
        "outbox_calls_per_post": round((meter.calls - calls0) / posts, 2),
        "store_reads_per_post": round(reads / posts, 2),
        "transactions_per_post": round(drain_tx / posts, 2),
        "transactions_per_move": round((move_tx + drain_tx) / moves, 2),
        "requests": dict(client.requests),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    r = asyncio.run(run(args.games, args.rounds, args.seed))
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['games']} games, {r['moves']} moves, {r['posts']} turn posts: the outbox's CPU "
          f"{r['outbox_cpu_ms_per_post']:.2f} ms per post ({r['outbox_calls_per_post']:.1f} service calls, "
          f"{r['store_reads_per_post']:.1f} store reads, {r['transactions_per_post']:.2f} transactions); the whole "
          f"delivery {r['delivery_cpu_ms_per_post']:.2f} ms; {r['transactions_per_move']:.2f} transactions per move "
          f"with its deliveries")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
