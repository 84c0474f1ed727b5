"""What is owed is checked again as it is sent, end to end (issue 30): the real bot in child
processes on PostgreSQL against the loopback fake Discord. Reminders and daily digests that a
process claimed and then died on (SIGKILLed right before it looked at the first of them), or
that were owed while no process ran, reach the next process only after the game moved on:

- the player to move moved meanwhile: their reminder and their digest are dropped, unsent; the
  other player's, still true, are sent, once each;
- the game ended meanwhile: the reminder and the digest of the player it waited for are
  dropped; after the final results nothing reaches the thread, and each player's DMs get only
  the news that the game ended."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from ai.levels import make_ai
from app import Actor, GameService, Limits
from app.owed import DIGEST, FINAL, GAME_OVER, REMINDER
from engine.state import canonical_json
from store.deliveries import DROPPED, PENDING, SENT
from store.records import DeliveryRow
from tests.bot_app.test_delivery_crash import check_outbox, ids, posted_in
from tests.bot_app.test_failover import TAKEOVER_SECONDS, _settled, _start
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table

# Right before a process looks at the first reminder it is to send: killed there, it leaves
# every delivery of the game it claimed (the reminders, the digests) claimed by a dead process.
BEFORE_THE_CHECK = "app.models:GameSummary.still_waits_for:1"


async def _owe(referee: GameService, game_id: int, seq: int, owed: dict[str, tuple[str, int, int | None]]) -> None:
    """Owe, as the timer loop would have: `owed` maps a key to (kind, user id, seat)."""
    tx = referee.store.tx()
    for key, (kind, user_id, seat) in owed.items():
        payload = {"seat": seat, "due_at": None} if kind == REMINDER else {"day": key.rsplit(":", 1)[1]}
        tx.deliveries.owe(game_id, seq, kind, key, user_id=user_id, payload_json=canonical_json(payload))
    await referee.store.write(tx)


async def _claimed_by_the_dead(referee: GameService, game_id: int, keys: list[str]) -> list[str]:
    rows = await referee.store.reader.fetch(
        "SELECT key FROM deliveries WHERE game_id = ? AND status = ? AND claimed_until > ? ORDER BY key",
        (game_id, PENDING, time.time() + 60))
    return [k for (k,) in rows if k in keys]


async def _play(referee: GameService, game_id: int, *, until: Any) -> None:
    """The players make the greedy AI's moves through the service (no bot process runs) until
    `until(summary)` holds."""
    ai = make_ai("greedy", 5)
    while not until(summary := await referee.reads.game(game_id)):
        user = summary.seats[summary.waiting_for[0]].user_id
        legal = await referee.reads.legal_actions(game_id, user)
        action = ai.choose(await referee.reads.view(game_id, user), legal)
        await referee.moves.submit(game_id, Actor.user(user), action, summary.seq)


def _by_key(rows: list[DeliveryRow]) -> dict[str, DeliveryRow]:
    return {d.key: d for d in rows}


async def test_reminders_and_digests_owed_before_a_move_or_the_end_are_dropped_and_true_ones_sent(
        fake: FakeDiscord, other_database: Any, tmp_path: Path) -> None:  # noqa: F811
    url = str(other_database("postgres").target)
    referee = await GameService.open(url, limits=Limits.unlimited())  # reads only: claims nothing
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
        mover_seat = s.waiting_for[0]
        other_seat = 1 - mover_seat
        mover, other = (s.seats[seat].user_id for seat in (mover_seat, other_seat))
        assert mover is not None and other is not None

        # Both players' reminders and daily digests are owed; a process claims them all and is
        # killed right before it looks at the first.
        moved = {f"{REMINDER}:moved": (REMINDER, mover, mover_seat), f"{REMINDER}:waits": (REMINDER, other, other_seat),
                 f"{DIGEST}:{mover}:2026-12-04": (DIGEST, mover, None),
                 f"{DIGEST}:{other}:2026-12-04": (DIGEST, other, None)}
        await _owe(referee, g, s.seq, moved)
        async with await _start(fake, url, tmp_path, crash_before=[BEFORE_THE_CHECK],
                                ready=False) as crashing:
            assert await crashing.wait_exit() < 0, crashing.output()
        assert await _claimed_by_the_dead(referee, g, list(moved)) == sorted(moved)

        # While no process runs, the player to move makes their whole turn (a draw may take two).
        await _play(referee, g, until=lambda now: tuple(now.waiting_for) != (mover_seat,))
        assert tuple((await table.summary()).waiting_for) == (other_seat,)

        async with await _start(fake, url, tmp_path) as second:
            rows = _by_key(await _settled(referee, g, second, time.monotonic() + TAKEOVER_SECONDS))
            assert await second.stop() == 0
        # Nothing for the player who had moved; the other's reminder in the thread, their
        # digest by DM, once each.
        gone = (f"{REMINDER}:moved", f"{DIGEST}:{mover}:2026-12-04")
        assert [(rows[k].status, rows[k].message_id) for k in gone] == [(DROPPED, None)] * 2
        waits, digest = rows[f"{REMINDER}:waits"], rows[f"{DIGEST}:{other}:2026-12-04"]
        assert waits.status == SENT and ids(posted_in(fake, table.thread_id)).count(waits.message_id) == 1
        other_user = next(u for u in players if u.id == other)
        assert digest.status == SENT and ids(fake.dms_to(other_user)).count(digest.message_id) == 1
        check_outbox(fake, table, [d for d in rows.values() if d.kind not in (REMINDER, DIGEST)], players,
                     more_dms=[digest])  # the move's deliveries, once each; and the digest

        # The player the game waits for is owed a reminder and a digest; a process claims them
        # and is killed; the game is played to its end while no process runs.
        ended = {f"{REMINDER}:ended": (REMINDER, other, other_seat),
                 f"{DIGEST}:{other}:2026-12-05": (DIGEST, other, None)}
        await _owe(referee, g, (await table.summary()).seq, ended)
        async with await _start(fake, url, tmp_path, crash_before=[BEFORE_THE_CHECK],
                                ready=False) as crashing:
            assert await crashing.wait_exit() < 0, crashing.output()
        assert await _claimed_by_the_dead(referee, g, list(ended)) == sorted(ended)
        await _play(referee, g, until=lambda now: now.status == "over")

        before = {int(m["id"]) for m in fake.messages.values()}
        async with await _start(fake, url, tmp_path) as third:
            rows = _by_key(await _settled(referee, g, third, time.monotonic() + TAKEOVER_SECONDS))
        assert [(rows[k].status, rows[k].message_id) for k in ended] == [(DROPPED, None)] * 2
        final = next(d for d in rows.values() if d.kind == FINAL)
        assert final.status == SENT
        # After the final results: nothing in the thread; by DM only the news of the end.
        new = [m for m in fake.messages.values() if int(m["id"]) not in before]
        assert set(ids([m for m in new if int(m["channel_id"]) == table.thread_id])) <= {final.message_id}
        for user in players:
            news = [d.message_id for d in rows.values() if d.kind == GAME_OVER and d.user_id == user.id]
            assert len(news) == 1 and sorted(ids([m for m in fake.dms_to(user) if int(m["id"]) not in before])) == news
    finally:
        await referee.close()
    assert not fake.errors
