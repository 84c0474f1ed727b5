"""What asynchronous players asked for (issue 19), end to end through the real client and the
fake Discord, with a clock the test moves and restarts of the bot (a new bot on the same
database): quiet hours in a player's time zone across midnight and the night the clocks go
back, a vacation, the daily digest, a substitute (and the leak scan of everything public), and
the vote to skip. On SQLite and on PostgreSQL. The rules themselves: tests/app/test_player_clock.py
and tests/app/test_player_wishes_service.py."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from bot_app.presentation.text import ticket_label
from engine.maps import load_map
from tests.clock import BERLIN, at, berlin
from tests.fake_discord import FakeDiscord, User, custom_ids
from tests.fake_discord.driver import Table, _cid
from tests.fake_discord.harness import Clock, RunningBot, start_bot
from tests.fake_discord.leaks import public_leaks
from tests.fake_discord.renderer import StubRenderer

HOUR = 3600.0
DAY = 86400.0


async def _idle(fake: FakeDiscord, running: RunningBot) -> None:
    running.service.deliveries_waiting.set()  # the dispatcher sleeps by the real clock: wake it
    await fake.wait_until(lambda: running.bot.desk.busy == 0)


def _said(fake: FakeDiscord, it: Any) -> str:
    msg = fake.reply_messages(it)[-1]
    assert msg["flags"] & 64, "answered privately"
    return msg["content"]


async def _table(fake: FakeDiscord, running: RunningBot, host: User, others: list[User], **options: Any) -> Table:
    """A USA table opened with `/ttr new` and these options, joined and started through the
    lobby's buttons, its opening tickets chosen by everyone."""
    it = await fake.answered(await fake.slash(host, "new", variant="usa", seats=1 + len(others), **options))
    lobby = it.original_id
    assert lobby is not None, fake.reply_messages(it)
    await fake.wait_until(lambda: "thread" in fake.messages[lobby]["content"])
    game_id = int(re.search(r"#(\d+)", fake.messages[lobby]["content"]).group(1))
    for u in others:
        await fake.answered(await fake.click(u, lobby, _cid(fake.messages[lobby], ":join")))
    await fake.answered(await fake.click(host, lobby, _cid(fake.messages[lobby], ":start")))
    table = Table(fake, running.service, game_id, lobby, lobby)
    table.desk = running.bot.desk
    await table.wait_posted()
    await _idle(fake, running)
    while (await table.summary()).status == "setup":
        await table.play_one([host, *others])
    return table


def _texts(fake: FakeDiscord, table: Table) -> list[str]:
    return [m["content"] for m in fake.thread_messages(table.thread_id)]


def _deadline(post: dict[str, Any]) -> float:
    """The deadline a turn post shows (a Discord timestamp)."""
    m = re.search(r"<t:(\d+):R>", post["content"])
    assert m, post["content"]
    return float(m.group(1))


def _pings(fake: FakeDiscord, message: dict[str, Any]) -> set[int]:
    return {int(u) for u in fake.allowed_mentions.get(int(message["id"]), {}).get("users", [])}


async def _restart(fake: FakeDiscord, running: RunningBot, database: Any, clock: Clock, table: Table,
                   **kwargs: Any) -> RunningBot:
    await running.stop()
    running = await start_bot(fake, database.target, clock=clock, **kwargs)
    table.service = running.service
    table.desk = running.bot.desk
    return running


async def test_quiet_hours_across_midnight_and_the_clock_change_survive_a_restart(database):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    clock = Clock(at(2024, 10, 26, 21, 0))  # Saturday; that night Berlin puts its clocks back
    running = await start_bot(fake, database.target, renderer=StubRenderer(), clock=clock)
    try:
        it = await fake.answered(await fake.autocomplete(bob, "settings", "timezone", timezone="berl"))
        assert "Europe/Berlin" in [c["value"] for c in it.callback["data"]["choices"]]
        said = _said(fake, await fake.answered(await fake.slash(bob, "settings", timezone=BERLIN,
                                                                quiet_hours="23:00-08:00")))
        assert "Quiet hours 23:00–08:00 (Europe/Berlin)" in said and "Time zone (`timezone`): Europe/Berlin" in said
        table = await _table(fake, running, alice, [bob], turn_hours=4.0, first="2")
        summary = await table.summary()
        assert summary.waiting_for == (1,)  # Bob's turn, from 21:00
        post = table.latest_post()
        assert post is not None and bob.id in _pings(fake, post)  # not quiet yet: pinged
        # The deadline shown is the real one: 21:00–23:00, a 10-hour night, 08:00–10:00.
        assert berlin(_deadline(post)) == dt.datetime(2024, 10, 27, 10, 0)

        # A restart at 23:30: the reminder (due at 23:00, when his quiet hours begin) is not
        # sent at night; it waits until 08:00.
        clock.now = at(2024, 10, 26, 23, 30)
        running = await _restart(fake, running, database, clock, table, renderer=StubRenderer())
        await running.bot.timer_loop.run_once()
        await _idle(fake, running)
        assert not [t for t in _texts(fake, table) if "waiting for you" in t]
        clock.now = at(2024, 10, 27, 8, 0)
        await running.bot.timer_loop.run_once()
        await _idle(fake, running)
        reminders = [t for t in _texts(fake, table) if "waiting for you" in t]
        assert len(reminders) == 1 and f"<@{bob.id}>" in reminders[0]
        clock.now = at(2024, 10, 27, 9, 59)
        await running.bot.timer_loop.run_once()
        await _idle(fake, running)
        assert not [t for t in _texts(fake, table) if "Time ran out" in t]
        clock.now = at(2024, 10, 27, 10, 0)
        await running.bot.timer_loop.run_once()
        await fake.wait_until(lambda: any("Time ran out" in t for t in _texts(fake, table)))
        assert 1 not in (await table.summary()).waiting_for
    finally:
        await running.stop()
        await fake.stop()


async def test_a_vacation_stops_the_clock_the_others_see_it_and_a_game_command_ends_it(database):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    clock = Clock(at(2024, 6, 3, 12, 0))
    running = await start_bot(fake, database.target, renderer=StubRenderer(), clock=clock)
    try:
        table = await _table(fake, running, alice, [bob], turn_hours=4.0, first="2", away_days=2)
        assert "vacations up to 2 days" in fake.messages[table.lobby_message]["content"]
        start = clock.now
        clock.now = start + HOUR
        said = _said(fake, await fake.answered(await fake.slash(bob, "settings", vacation_days=5)))
        assert "Away until" in said and f"#{table.game_id} (2 days)" in said
        await _idle(fake, running)
        post = table.latest_post()
        until = int(start + HOUR + 2 * DAY)  # this table counts two days
        assert f"**user{bob.id}** is away until" not in post["content"]  # (names are Discord's)
        assert f"is away until <t:{until}:f>" in post["content"]
        assert _deadline(post) == int(start + HOUR + 2 * DAY + 3 * HOUR)
        it = await fake.answered(await fake.slash(alice, "status", channel_id=table.thread_id))
        assert f"is away until <t:{until}:f>" in fake.reply_messages(it)[-1]["content"]

        # A restart, past where his turn would have ended: the AI leaves his seat alone.
        clock.now = start + 5 * HOUR
        running = await _restart(fake, running, database, clock, table, renderer=StubRenderer())
        await running.bot.timer_loop.run_once()
        await _idle(fake, running)
        assert not [t for t in _texts(fake, table) if "Time ran out" in t or "waiting for you" in t]
        assert (await table.summary()).waiting_for == (1,)

        # Bob uses a game command: he is back; his three hours left run from now.
        await fake.answered(await fake.slash(bob, "hand", channel_id=table.thread_id))
        await _idle(fake, running)
        post = table.latest_post()
        assert "is away until" not in post["content"]
        assert _deadline(post) == int(clock.now + 3 * HOUR)
        assert (await running.service.settings.settings(bob.id)).away_until is None
    finally:
        await running.stop()
        await fake.stop()


async def test_the_daily_digest_replaces_the_pings_and_comes_once_after_restarts(database):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    clock = Clock(at(2024, 6, 3, 12, 0))
    running = await start_bot(fake, database.target, renderer=StubRenderer(), clock=clock)
    try:
        said = _said(fake, await fake.answered(await fake.slash(bob, "settings", timezone=BERLIN, digest="9")))
        assert "One DM a day at 09:00 (Europe/Berlin)" in said
        table = await _table(fake, running, alice, [bob], turn_hours=48.0, first="2")
        assert (await table.summary()).waiting_for == (1,)
        post = table.latest_post()
        assert post is not None and f"<@{bob.id}>" in post["content"] and bob.id not in _pings(fake, post)
        assert not fake.dms_to(bob)  # no turn DMs either: the digest lists his games

        clock.now = at(2024, 6, 4, 8, 59)
        running = await _restart(fake, running, database, clock, table, renderer=StubRenderer())
        await running.bot.timer_loop.run_once()
        await _idle(fake, running)
        assert not fake.dms_to(bob)
        clock.now = at(2024, 6, 4, 9, 0)
        await running.bot.timer_loop.run_once()
        await fake.wait_until(lambda: fake.dms_to(bob))
        await _idle(fake, running)
        digest = fake.dms_to(bob)
        assert len(digest) == 1 and "daily digest" in digest[0]["content"]
        link = f"https://discord.com/channels/{fake.guild_id}/{table.thread_id}"
        assert f"Game #{table.game_id}" in digest[0]["content"] and link in digest[0]["content"]
        await running.bot.timer_loop.run_once()
        running = await _restart(fake, running, database, clock, table, renderer=StubRenderer())
        await running.bot.timer_loop.run_once()
        await _idle(fake, running)
        assert len(fake.dms_to(bob)) == 1  # once, whatever restarts
    finally:
        await running.stop()
        await fake.stop()


async def test_a_substitute_gets_the_hand_privately_and_nothing_leaks(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob, carol, dave = (fake.add_user(n) for n in ("Alice", "Bob", "Carol", "Dave"))
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", seed=11)  # the real renderer: pictures too
    try:
        table = await _table(fake, running, alice, [bob])
        g = table.game_id
        gmap = load_map((await running.service.reads.view(g, None)).map_id)
        secrets: set[str] = set()

        async def collect(users: list[User]) -> None:
            for u in users:
                v = await running.service.reads.view(g, u.id)
                if v.me is not None:
                    secrets.update(ticket_label(gmap, t) for t in [*(v.me.tickets or ()), *v.pending.offer_of(v.you)])

        for _ in range(4):
            await collect([alice, bob])
            await table.play_one([alice, bob])
        await collect([alice, bob])

        # Only the host (or a manager) may, and not to someone already seated.
        it = await fake.answered(await fake.autocomplete(alice, "admin replace", "player", channel_id=table.thread_id,
                                                         player=""))
        assert [c["value"] for c in it.callback["data"]["choices"]] == ["1", "2"]
        it = await fake.answered(await fake.slash(bob, "admin replace", channel_id=table.thread_id, player="1",
                                                  new=dave))
        assert "host" in _said(fake, it)
        it = await fake.answered(await fake.slash(alice, "admin replace", channel_id=table.thread_id, player="2",
                                                  new=alice))
        assert "already has a seat" in _said(fake, it)
        # Carol takes Bob's seat: she gets its hand privately, the thread is told who plays it.
        it = await fake.answered(await fake.slash(alice, "admin replace", channel_id=table.thread_id, player="2",
                                                  new=carol))
        assert "Carol now plays" in _said(fake, it)
        await _idle(fake, running)
        dm = [m for m in fake.dms_to(carol) if "You now play seat 2" in m["content"]]
        assert len(dm) == 1 and "Your hand" in dm[0]["content"]
        assert [a["filename"] for a in dm[0]["attachments"]] == ["hand.png"]
        notice = [t for t in _texts(fake, table) if f"<@{carol.id}> now plays seat 2" in t]
        assert len(notice) == 1
        assert (await table.summary()).seats[1].user_id == carol.id
        it = await fake.answered(await fake.slash(bob, "hand", channel_id=table.thread_id))
        await _idle(fake, running)
        assert "not playing" in _said(fake, it)
        for _ in range(4):
            await collect([alice, carol])
            await table.play_one([alice, carol])

        # A seat the AI plays goes to Dave.
        other = await Table.open(fake, running.service, alice, [], variant="usa", ai_seats=1)
        other.desk = running.bot.desk
        await _idle(fake, running)
        it = await fake.answered(await fake.slash(alice, "admin replace", channel_id=other.thread_id, player="2",
                                                  new=dave))
        assert "the AI's seat" in _said(fake, it)
        await _idle(fake, running)
        assert [m for m in fake.dms_to(dave) if "You now play seat 2" in m["content"]]
        assert any("now plays the AI's seat" in t for t in _texts(fake, other))
        gmap2 = load_map((await running.service.reads.view(other.game_id, None)).map_id)
        for u in (alice, dave):
            v = await running.service.reads.view(other.game_id, u.id)
            if v.me is not None:
                secrets.update(ticket_label(gmap2, t) for t in [*(v.me.tickets or ()), *v.pending.offer_of(v.you)])

        # The leak scan: nothing secret in anything public.
        assert secrets
        assert public_leaks(fake, secrets) == []
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


async def test_the_others_vote_a_slow_turn_to_the_ai(database):
    fake = FakeDiscord()
    await fake.start()
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    clock = Clock(at(2024, 6, 3, 12, 0))
    running = await start_bot(fake, database.target, renderer=StubRenderer(), clock=clock)
    try:
        table = await _table(fake, running, alice, [bob, carol], turn_hours=48.0, first="2")
        assert (await table.summary()).waiting_for == (1,)
        said = _said(fake, await fake.answered(await fake.slash(alice, "turn vote", channel_id=table.thread_id)))
        assert "1 of 2" in said
        await _idle(fake, running)
        notice = [m for m in fake.thread_messages(table.thread_id) if "A vote to hand" in m["content"]]
        assert len(notice) == 1 and "1 of 2 votes" in notice[0]["content"]
        button = next(c for label, c in custom_ids(notice[0]) if label == "Vote to skip")
        it = await fake.answered(await fake.click(bob, int(notice[0]["id"]), button))
        assert "your own turn" in _said(fake, it)
        it = await fake.answered(await fake.click(carol, int(notice[0]["id"]), button))
        assert "Everyone else voted" in _said(fake, it)
        await _idle(fake, running)
        assert any("Everyone else voted: the AI played" in t for t in _texts(fake, table))
        summary = await table.summary()
        assert 1 not in summary.waiting_for and summary.seats[1].absent_turns == 1
        # The button belongs to that turn only.
        it = await fake.answered(await fake.click(carol, int(notice[0]["id"]), button))
        assert "already happened" in _said(fake, it)
    finally:
        await running.stop()
        await fake.stop()
