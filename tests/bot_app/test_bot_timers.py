"""Turn timers through the real client and the fake: a reminder at half time, the AI playing
the turn at the limit, the AI keeping the seat after 3 such turns in a row (until the player
uses a game command), /ttr pause and /ttr resume — all stored, so a restart (a new bot on the
same database) neither loses nor repeats a timer. The clock is injected and moved by hand. On
SQLite and on PostgreSQL (where the timer loop claims its timers)."""

from __future__ import annotations

from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import Clock, start_bot
from tests.fake_discord.renderer import StubRenderer

HOUR = 3600.0


def _thread_texts(fake: FakeDiscord, table: Table) -> list[str]:
    return [m["content"] for m in fake.thread_messages(table.thread_id)]


async def test_reminder_limit_restart_absent_pause_resume(database):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    clock = Clock(1_700_000_000.0)
    db = database.target
    running = await start_bot(fake, db, renderer=StubRenderer(), clock=clock)
    try:
        it = await fake.answered(await fake.slash(alice, "new", variant="usa", seats=2, turn_hours=2.0))
        lobby = it.original_id
        await fake.wait_until(lambda: "thread" in fake.messages[lobby]["content"])
        table = Table(fake, running.service, 1, lobby, lobby)
        table.desk = running.bot.desk
        from tests.fake_discord.driver import _cid

        await fake.answered(await fake.click(bob, lobby, _cid(fake.messages[lobby], ":join")))
        await fake.answered(await fake.click(alice, lobby, _cid(fake.messages[lobby], ":start")))
        await table.wait_posted()
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        # Both choose their opening tickets themselves.
        await table.play_one([alice, bob])
        await table.play_one([alice, bob])
        summary = await table.summary()
        assert summary.status == "playing"
        first = summary.seats[summary.waiting_for[0]]

        # Half time: one reminder, mentioning the player whose turn it is.
        clock.advance(1.01 * HOUR)
        await running.bot.timer_loop.run_once()
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        reminders = [t for t in _thread_texts(fake, table) if t.startswith("⏰") and "waiting for you" in t]
        assert len(reminders) == 1 and f"<@{first.user_id}>" in reminders[0]

        # A restart: the reminder does not come again; the limit is still pending.
        await running.stop()
        running = await start_bot(fake, db, renderer=StubRenderer(), clock=clock)
        table.service = running.service
        table.desk = running.bot.desk
        await running.bot.timer_loop.run_once()
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        assert len([t for t in _thread_texts(fake, table) if "waiting for you" in t]) == 1

        # The limit: the AI plays that turn, the thread says so, the next player is up.
        clock.advance(1.0 * HOUR)
        await running.bot.timer_loop.run_once()
        await fake.wait_until(lambda: any("Time ran out" in t for t in _thread_texts(fake, table)))
        after = await table.summary()
        assert after.seq > summary.seq and first.seat not in after.waiting_for
        await running.bot.timer_loop.run_once()  # nothing twice
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        assert len([t for t in _thread_texts(fake, table) if "Time ran out" in t]) == 1

        # Bob lets three turns in a row run out (Alice plays hers): the AI keeps his seat and
        # from then on plays his turns at once, until he comes back with any game command.
        bob_seat = next(s.seat for s in summary.seats if s.user_id == bob.id)
        for _ in range(12):
            if (await running.service.reads.game(1)).seats[bob_seat].absent_turns >= 3:
                break
            now = await table.summary()
            if now.waiting_for[0] == bob_seat:
                clock.advance(2.01 * HOUR)
                await running.bot.timer_loop.run_once()
                await fake.wait_until(lambda: running.bot.desk.busy == 0)
            else:
                await table.play_one([alice, bob])
        assert any("keeps the seat" in t for t in _thread_texts(fake, table))
        seats = (await running.service.reads.game(1)).seats
        assert seats[bob_seat].absent_turns == 3 and seats[bob_seat].stand_in is not None
        before = await table.summary()
        await table.play_one([alice, bob]) if before.waiting_for[0] != bob_seat else None
        after = await table.summary()
        assert after.waiting_for[0] != bob_seat or after.status == "over"  # Bob's turn was played at once

        # Coming back with any game command resets it.
        await fake.answered(await fake.slash(bob, "hand", channel_id=table.thread_id))
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        seats = (await running.service.reads.game(1)).seats
        assert seats[bob_seat].absent_turns == 0 and seats[bob_seat].stand_in is None

        # Pause: no clocks; resume: a fresh clock for the current turn.
        await fake.answered(await fake.slash(alice, "admin pause", channel_id=table.thread_id))
        pending = [t.kind for t in await running.service.clocks.pending_timers(1)]
        assert "limit" not in pending and "reminder" not in pending
        assert (await running.service.reads.game(1)).paused_reason == "paused by the host"
        # A non-host without Manage Server may not resume.
        it = await fake.answered(await fake.slash(bob, "admin resume", channel_id=table.thread_id))
        assert "host" in fake.reply_messages(it)[-1]["content"]
        await fake.answered(await fake.slash(alice, "admin resume", channel_id=table.thread_id))
        pending = [t.kind for t in await running.service.clocks.pending_timers(1)]
        assert (await running.service.reads.game(1)).paused_reason is None
        if (await table.summary()).status == "playing":
            assert "limit" in pending
    finally:
        await running.stop()
        await fake.stop()
