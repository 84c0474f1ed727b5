"""The bot dies between a move and its last delivery: after the restart, every delivery the
move owed happens exactly once, and the game goes on.

The real bot runs in a child process (tests/fake_discord/child.py) against the loopback fake
Discord, which deduplicates a message by its nonce as Discord does. A move is stored with what
it owes in one transaction (app/core.py `commit`); the dispatcher (bot_app/delivery/dispatcher.py) then
sends the turn post, then the direct messages, each settled in the database after Discord took
it. The dispatcher reads what the post and the DMs of the turn need at once, sends the post, then
the DMs, and settles them all in one transaction. The child is SIGKILLed at each point of that
path:

- (a) right after the commit, before anything was sent;
- (b) after Discord took the new turn post, before the first DM (nothing recorded yet);
- (c) after Discord took the first DM too, before the second;
- (d) after Discord took every message the move owed, before the database heard of them;
- (e) right after the post and the DMs were recorded, in one transaction (the move's turn timers
  were stored with the move).

The move: the player whose turn it is (Alice, in the seeded game) takes her second card from the
deck, which ends her turn. It owes a new turn post (`post:<seq>`), the next player's hand at
their new turn (`turn:<seq>:<seat>`) and the mover's own DM with the card she drew
(`dm:<seq>:<seat>`), delivered in that order, and the next player's reminder and turn limit.
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot_app.delivery.discord_refusals import nonce as _nonce
from store.deliveries import PENDING, SENT
from store.records import DeliveryRow
from tests.fake_discord import FakeDiscord, User
from tests.fake_discord.child import ChildBot
from tests.fake_discord.driver import Table
from tests.fake_discord.referee import Referee

DELIVERY_OPS = "app.delivery_ops:DeliveryOps"
SEED = 13


@dataclass(frozen=True)
class Crash:
    """Where the bot is killed, and how many times Discord is then asked for each message of
    the move: the turn post, the next player's hand, the mover's DM (a message Discord took
    but the database never heard of is asked for again, and the nonce gives it back)."""

    point: str
    when: str  # "before" or "after" the point's first call once the bot is ready
    post_requests: int = 1
    hand_requests: int = 1
    mover_dm_requests: int = 1


DMS = "bot_app.delivery.direct_messages:DirectMessages"
CRASHES = {
    "a_after_the_commit": Crash("app.core:ServiceCore.commit:1", "after"),
    "b_post_taken_not_recorded": Crash(f"{DMS}.channel:1", "before", post_requests=2),
    "c_first_dm_taken_not_recorded": Crash(f"{DMS}.send:1", "after", post_requests=2, hand_requests=2),
    "d_all_taken_not_recorded": Crash(f"{DELIVERY_OPS}.settle:1", "before", post_requests=2, hand_requests=2,
                                      mover_dm_requests=2),
    "e_everything_recorded": Crash(f"{DELIVERY_OPS}.settle:1", "after"),
}


async def start(fake: FakeDiscord, db: Path, **crash: Any) -> ChildBot:
    """The bot in a child process, as it runs for real (the timer loop on, 48-hour turns), with
    a seeded deal so that every run plays the same game."""
    return await ChildBot.start(fake, db, run_timers=True, turn_hours=48, seed=SEED, **crash)


async def settled(referee: Referee, game_id: int, bot: ChildBot, timeout: float = 20.0) -> list[DeliveryRow]:
    """Wait until none of the game's deliveries is pending any more; they all."""
    deadline = time.monotonic() + timeout
    while True:
        rows = referee.deliveries(game_id)
        if not any(d.status == PENDING for d in rows):
            return rows
        if time.monotonic() > deadline:
            raise AssertionError(f"still pending: {[d.key for d in rows if d.status == PENDING]}\n{bot.output()}")
        await asyncio.sleep(0.02)


def thread_posts(thread_id: int) -> str:
    return rf"/channels/{thread_id}/messages"


def dm_posts(fake: FakeDiscord, user: User) -> str:
    return rf"/channels/{fake.dm_channel(user)}/messages"


def posted_in(fake: FakeDiscord, thread_id: int) -> list[dict[str, Any]]:
    """The messages the bot posted in the thread itself (not its answers to interactions there,
    which only the one who asked sees)."""
    return [m for m in fake.thread_messages(thread_id) if m["type"] == 0]


def ids(messages: list[dict[str, Any]]) -> list[int]:
    return [int(m["id"]) for m in messages]


def check_outbox(fake: FakeDiscord, table: Table, rows: list[DeliveryRow], users: list[User],
                 more_dms: Sequence[DeliveryRow] = ()) -> None:
    """Every delivery of the game was sent, and each made exactly one message: the thread holds
    exactly the turn posts the outbox recorded, and each player's DMs exactly theirs (with the
    DMs of `more_dms`: deliveries of other kinds, a daily digest)."""
    assert [(d.key, d.status) for d in rows if d.status != SENT] == []
    posts = sorted({d.message_id for d in rows if d.kind == "post"})
    assert sorted(ids([m for m in posted_in(fake, table.thread_id) if "· move " in m["content"]])) == posts
    for user in users:
        owed = [d.message_id for d in rows if d.kind in ("turn", "dm") and d.user_id == user.id]
        owed += [d.message_id for d in more_dms if d.user_id == user.id]
        assert sorted(ids(fake.dms_to(user))) == sorted(owed), user.name
        assert len(set(owed)) == len(owed), f"two deliveries to {user.name} share a message"


@pytest.mark.parametrize("crash", list(CRASHES.values()), ids=list(CRASHES))
async def test_a_crash_between_a_move_and_its_deliveries(fake: FakeDiscord, tmp_path: Path, crash: Crash) -> None:
    db = tmp_path / "ttr.sqlite3"
    referee = Referee(db)
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    players = [alice, bob]

    # A game of Europe, through its tickets, to the first turn; the player whose turn it is
    # takes one card from the deck, and everything so far is delivered.
    async with await start(fake, db) as first:
        table = await Table.open(fake, referee, alice, [bob])
        g = table.game_id
        while (s := await table.summary()).status != "playing" or len(s.waiting_for) != 1:
            await table.play_one(players)
        mover = table.user_of(players, s.waiting_for[0], s)
        await fake.answered(await fake.slash(mover, "draw", channel_id=table.thread_id, card="deck"))
        await table.wait_posted()
        check_outbox(fake, table, await settled(referee, g, first), players)
    before = await table.summary()
    mover_seat, next_seat = before.waiting_for[0], 1 - before.waiting_for[0]
    nxt = players[1 - players.index(mover)]
    seq = before.seq + 1  # the move that ends the turn

    # A bot armed to die at the crash point; the mover takes their second card.
    thread_before, requests_before = ids(posted_in(fake, table.thread_id)), {
        "post": fake.count("POST", thread_posts(table.thread_id)),
        "hand": fake.count("POST", dm_posts(fake, nxt)), "dm": fake.count("POST", dm_posts(fake, mover))}
    dms_before = {u.id: ids(fake.dms_to(u)) for u in players}
    previous_post = fake.messages[before.turn_post_id]["content"]
    crashing = await start(fake, db, count_from_ready=True, **{f"crash_{crash.when}": [crash.point]})
    async with crashing:
        await fake.slash(mover, "draw", channel_id=table.thread_id, card="deck")
        assert await crashing.wait_exit() == -signal.SIGKILL, crashing.output()
        assert f"crash {crash.when} {crash.point}" in crashing.lines()
    assert (await table.summary()).seq == seq, "the move was stored before the bot died"

    # A new bot on the same database delivers what was left, once.
    async with await start(fake, db) as restarted:
        rows = await settled(referee, g, restarted)
        owed = [d for d in rows if d.seq == seq]
        assert [(d.kind, d.key, d.status) for d in owed] == [
            ("post", f"post:{seq}", SENT), ("turn", f"turn:{seq}:{next_seat}", SENT),
            ("dm", f"dm:{seq}:{mover_seat}", SENT)]
        post, hand, dm = (d.message_id for d in owed)

        # The thread got one new message, the new turn post, now the one the game shows; the
        # previous turn's post is left as it was.
        new = [m for m in posted_in(fake, table.thread_id) if int(m["id"]) not in thread_before]
        assert ids(new) == [post] and re.search(rf"· move {seq}\b", new[0]["content"])
        assert [m for m in posted_in(fake, table.thread_id) if re.search(rf"· move {seq}\b", m["content"])] == new
        now = await table.summary()
        assert (now.turn_post_id, now.turn_post_seq) == (post, seq)
        assert fake.messages[before.turn_post_id]["content"] == previous_post
        # The next player got their hand once, the mover the card they drew once.
        new_dms = {u.id: [m for m in fake.dms_to(u) if int(m["id"]) not in dms_before[u.id]] for u in players}
        assert ids(new_dms[nxt.id]) == [hand] and "It's your turn" in new_dms[nxt.id][0]["content"]
        assert ids(new_dms[mover.id]) == [dm] and "You drew a" in new_dms[mover.id][0]["content"]
        # Each was sent with its delivery's nonce, the same before and after the crash.
        assert [fake.messages[m]["nonce"] for m in (post, hand, dm)] == [_nonce(d.id) for d in owed]
        # What Discord was asked: a message it took before the crash was asked for again and
        # came back by its nonce; nothing else twice.
        assert {"post": fake.count("POST", thread_posts(table.thread_id)) - requests_before["post"],
                "hand": fake.count("POST", dm_posts(fake, nxt)) - requests_before["hand"],
                "dm": fake.count("POST", dm_posts(fake, mover)) - requests_before["dm"]} == {
            "post": crash.post_requests, "hand": crash.hand_requests, "dm": crash.mover_dm_requests}
        # The next player's clocks were stored with the move, once: a reminder and a limit.
        move_time = referee.action_time(g, seq)
        assert [(t.kind, t.seat, t.created_at) for t in referee.timers(g) if t.pending] == [
            ("reminder", next_seat, move_time), ("limit", next_seat, move_time)]
        check_outbox(fake, table, rows, players)

        # The game goes on: three more moves, each shown in the thread.
        for _ in range(3):
            await table.play_one(players)
        check_outbox(fake, table, await settled(referee, g, restarted), players)
    assert not fake.errors


def test_a_delivery_has_one_nonce_within_discords_limit() -> None:
    # A retry after a crash must carry the nonce of the first try (so it depends on the
    # delivery alone: no clock, no randomness), no two deliveries may share one, and Discord
    # refuses a nonce over 25 characters; SQLite's ids go up to 2**63 - 1.
    for delivery_id in (1, 42, 10**9, 2**63 - 1):
        assert _nonce(delivery_id) == _nonce(delivery_id)
        assert len(_nonce(delivery_id)) <= 25
    assert len({_nonce(i) for i in (1, 10, 11, 2**63 - 1, 2**63 - 2)}) == 5
