"""Owed reminders are checked again as they are sent, end to end (issue 30): the real bot in a
child process on PostgreSQL against the loopback fake Discord. Reminders left owed while no
process ran (a dead process, an outage) reach a process only after the game moved on: the one
whose player has moved meanwhile is dropped, unsent; the one still true is posted, once."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ai.levels import make_ai
from app import Actor, GameService, Limits
from app.owed import REMINDER
from engine.state import canonical_json
from store.deliveries import DROPPED, SENT
from tests.bot_app.test_delivery_crash import check_outbox, ids, posted_in
from tests.bot_app.test_failover import _settled, _start
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table


async def test_a_reminder_owed_before_the_player_moved_is_dropped_and_a_true_one_posted(
        fake: FakeDiscord, other_database: Any, tmp_path: Path) -> None:  # noqa: F811
    url = str(other_database("postgres").target)
    referee = await GameService.open(url, limits=Limits.unlimited())
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    players = [alice, bob]
    try:
        async with await _start(fake, url, tmp_path) as first:
            table = await Table.open(fake, referee, alice, [bob])
            g = table.game_id
            while (s := await table.summary()).status != "playing" or len(s.waiting_for) != 1:
                await table.play_one(players)
            await _settled(referee, g, first, time.monotonic() + 20)
            assert await first.stop() == 0
        # While no process runs: both players' reminders are owed, then the one to move moves.
        mover_seat = s.waiting_for[0]
        other_seat = 1 - mover_seat
        tx = referee.store.tx()
        for seat in (mover_seat, other_seat):
            tx.deliveries.owe(g, s.seq, REMINDER, f"{REMINDER}:test{seat}", user_id=s.seats[seat].user_id,
                              payload_json=canonical_json({"seat": seat, "due_at": None}))
        await referee.store.write(tx)
        mover = s.seats[mover_seat].user_id
        assert mover is not None
        now = s
        while tuple(now.waiting_for) == (mover_seat,):  # their whole turn (a draw may take two moves)
            legal = await referee.reads.legal_actions(g, mover)
            action = make_ai("random", now.seq).choose(await referee.reads.view(g, mover), legal)
            await referee.moves.submit(g, Actor.user(mover), action, now.seq)
            now = await referee.reads.game(g)
        assert tuple(now.waiting_for) == (other_seat,)

        async with await _start(fake, url, tmp_path) as second:
            rows = await _settled(referee, g, second, time.monotonic() + 20)
        reminders = {int(d.key.removeprefix(f"{REMINDER}:test")): d for d in rows if d.kind == REMINDER}
        assert reminders[mover_seat].status == DROPPED and reminders[mover_seat].message_id is None
        assert reminders[other_seat].status == SENT and reminders[other_seat].message_id is not None
        # In the thread: the true reminder, once; nothing for the player who had moved.
        assert ids(posted_in(fake, table.thread_id)).count(reminders[other_seat].message_id) == 1
        check_outbox(fake, table, [d for d in rows if d.kind != REMINDER], players)  # the move's, once each
    finally:
        await referee.close()
    assert not fake.errors
