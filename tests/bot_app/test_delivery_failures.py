"""When Discord refuses or fails, nothing a move owes is lost, nothing is sent twice, and
somebody is told — the real client against the fake, one scenario per failure, on SQLite and
on PostgreSQL (where the dispatcher claims what it sends):

- a locked thread and a missing permission: refusals for good — the game pauses with the
  reason, its other deliveries wait, the host is told in the channel; `/ttr admin resume`
  (once fixed) sends what waited, once;
- two minutes of 5xx: retried with growing waits, delivered once when Discord is back, the game
  never paused;
- an archived thread: the turn post is sent anew (which reopens the thread) instead of edited,
  and the mover's DM still goes out;
- a thread that cannot be made: the table is closed and the host told which permission;
- commands synced only when they changed, and with GUILD_ID the global copies cleared;
- DMs: no user fetched before a DM; a player with closed DMs is not DMed every turn;
- turn posts show the deadline as a Discord timestamp.
"""

from __future__ import annotations

import re

from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import Clock, start_bot
from tests.fake_discord.renderer import StubRenderer


async def _setup(database, *, clock: Clock | None = None, dms_closed: bool = False):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob", dms_closed=dms_closed)
    running = await start_bot(fake, database.target, renderer=StubRenderer(), clock=clock)
    table = await Table.open(fake, running.service, alice, [bob])
    table.desk = running.bot.desk
    await fake.wait_until(lambda: running.bot.desk.busy == 0)
    return fake, running, table, alice, bob


async def _idle(fake: FakeDiscord, running) -> None:
    await fake.wait_until(lambda: running.bot.desk.busy == 0)


def _posts(fake: FakeDiscord, table: Table, seq: int) -> list[dict]:
    return [m for m in fake.thread_messages(table.thread_id) if re.search(rf"· move {seq}\b", m["content"])]


def _public(fake: FakeDiscord, table: Table) -> list[dict]:
    return [m for m in fake.thread_messages(table.thread_id) if not m["flags"] & 64]


async def _statuses(running, game_id: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for d in await running.service.store.deliveries.of_game(game_id):
        out[d.status] = out.get(d.status, 0) + 1
    return out


async def _refusal_for_good(database, break_it, fix_it, words: str) -> None:
    fake, running, table, alice, bob = await _setup(database)
    try:
        await table.play_one([alice, bob])
        await table.play_one([alice, bob])  # both kept their tickets: the game is on
        await break_it(fake, table)
        summary = await table.summary()
        mover = table.user_of([alice, bob], summary.waiting_for[0], summary)
        for _ in range(2):  # two blind cards: the turn ends, a new turn post is owed
            it = await fake.answered(await fake.slash(mover, "draw", channel_id=table.thread_id, card="deck"))
            assert "✅ You drew a" in fake.reply_messages(it)[-1]["content"]
            await _idle(fake, running)
        after = await table.summary()
        assert after.paused_reason and words in after.paused_reason, after.paused_reason
        assert not _posts(fake, table, after.seq)
        notices = [m for m in fake.thread_messages(fake.channel_id) if "is paused" in m["content"]]
        assert len(notices) == 1 and f"<@{alice.id}>" in notices[0]["content"] and words in notices[0]["content"]
        statuses = await _statuses(running, table.game_id)
        assert statuses.get("failed") == 1 and statuses.get("pending", 0) >= 1  # the rest waits
        assert not [t for t in await running.service.clocks.pending_timers(table.game_id) if t.kind == "limit"]
        # Fixed, then resumed by the host: everything that waited goes out, once.
        await fix_it(fake, table)
        await fake.answered(await fake.slash(alice, "admin resume", channel_id=fake.channel_id,
                                             game=f"#{table.game_id}"))
        await _idle(fake, running)
        assert len(_posts(fake, table, after.seq)) == 1
        statuses = await _statuses(running, table.game_id)
        assert set(statuses) <= {"sent", "dropped"}, statuses
        assert (await table.summary()).paused_reason is None
        await table.play_one([alice, bob])  # and the game goes on
    finally:
        await running.stop()
        await fake.stop()


async def test_a_locked_thread_pauses_the_game_until_the_host_resumes(database):
    async def lock(fake: FakeDiscord, table: Table) -> None:
        await fake.lock(table.thread_id)

    async def unlock(fake: FakeDiscord, table: Table) -> None:
        await fake.unarchive(table.thread_id)

    await _refusal_for_good(database, lock, unlock, "locked")


async def test_a_missing_permission_pauses_the_game_and_names_what_is_needed(database):
    async def deny(fake: FakeDiscord, table: Table) -> None:
        await fake.deny(fake.channel_id, "SEND_MESSAGES_IN_THREADS")

    async def allow(fake: FakeDiscord, table: Table) -> None:
        await fake.allow(fake.channel_id)

    await _refusal_for_good(database, deny, allow, "Send Messages in Threads")


async def test_two_minutes_of_server_errors_delay_the_post_but_lose_nothing(database):
    clock = Clock(1_700_000_000.0)
    fake, running, table, alice, bob = await _setup(database, clock=clock)
    try:
        await table.play_one([alice, bob])
        await table.play_one([alice, bob])
        outage = fake.fail("*", r"/channels/.*", 503)
        summary = await table.summary()
        mover = table.user_of([alice, bob], summary.waiting_for[0], summary)
        view = await running.service.reads.view(table.game_id, mover.id)
        legal = await running.service.reads.legal_actions(table.game_id, mover.id)
        await table.perform(mover, table.ai.choose(view, legal), legal, summary.seq)
        await _idle(fake, running)
        seq = (await table.summary()).seq
        for _ in range(12):  # two minutes of the bot's clock, Discord failing all along
            clock.advance(10)
            await running.bot.dispatcher.run_once()
        pending = await running.service.store.deliveries.of_game(table.game_id, "pending")
        assert pending and max(d.attempts for d in pending) >= 4  # tried, with growing waits
        assert not _posts(fake, table, seq) and (await table.summary()).paused_reason is None
        outage.clear()
        clock.advance(300)
        await running.bot.dispatcher.run_once()
        await _idle(fake, running)
        assert len(_posts(fake, table, seq)) == 1
        assert set(await _statuses(running, table.game_id)) <= {"sent", "dropped"}
    finally:
        await running.stop()
        await fake.stop()


async def test_an_archived_thread_gets_a_new_post_and_the_mover_still_gets_the_dm(database):
    fake, running, table, alice, bob = await _setup(database)
    try:
        await table.play_one([alice, bob])
        await table.play_one([alice, bob])
        summary = await table.summary()
        mover = table.user_of([alice, bob], summary.waiting_for[0], summary)
        await fake.archive(table.thread_id)
        dms_before = len(fake.dms_to(mover))
        posts_before = len(_public(fake, table))
        # A blind first card: within the same turn, so the post would be edited …
        it = await fake.answered(await fake.slash(mover, "draw", channel_id=table.thread_id, card="deck"))
        assert "✅ You drew a" in fake.reply_messages(it)[-1]["content"]
        await _idle(fake, running)
        seq = (await table.summary()).seq
        # … but an archived thread cannot be edited: a new post reopens it.
        assert len(_posts(fake, table, seq)) == 1 and len(_public(fake, table)) == posts_before + 1
        assert fake.channels[table.thread_id]["thread_metadata"]["archived"] is False
        assert len(fake.dms_to(mover)) == dms_before + 1  # what they drew, by DM
        assert set(await _statuses(running, table.game_id)) <= {"sent", "dropped"}
    finally:
        await running.stop()
        await fake.stop()


async def test_a_table_without_a_thread_is_closed_and_the_host_told_why(database):
    fake = FakeDiscord()
    await fake.start()
    alice = fake.add_user("Alice")
    running = await start_bot(fake, database.target, renderer=StubRenderer())
    try:
        await fake.deny(fake.channel_id, "CREATE_PUBLIC_THREADS")
        it = await fake.answered(await fake.slash(alice, "new", variant="usa", seats=2))
        await _idle(fake, running)
        lobby = fake.messages[it.original_id]
        assert "This table was closed." in lobby["content"] and not lobby["components"]
        told = [m["content"] for m in fake.reply_messages(it) if m["flags"] & 64]
        assert told and "Create Public Threads" in told[-1]
        game = await running.service.reads.game(1)
        assert game.status == "cancelled" and game.thread_id is None
    finally:
        await running.stop()
        await fake.stop()


async def test_commands_are_synced_only_when_they_change(database):
    fake = FakeDiscord()
    await fake.start()
    db = database.target
    try:
        for _ in range(2):
            running = await start_bot(fake, db)
            await running.stop()
        assert fake.syncs[None] == 1  # the second start found them unchanged
        running = await start_bot(fake, db, guild_id=fake.guild_id)
        await running.stop()
        assert fake.syncs[fake.guild_id] == 1 and fake.syncs[None] == 2
        assert fake.global_commands == []  # a server does not see every command twice
        assert [c["name"] for c in fake.guild_commands[fake.guild_id]] == ["ttr"]
    finally:
        await fake.stop()


async def test_dms_need_no_user_lookup_and_closed_dms_are_not_retried_every_turn(database):
    fake, running, table, alice, bob = await _setup(database, dms_closed=True)
    try:
        for _ in range(10):
            await table.play_one([alice, bob])
        await _idle(fake, running)
        assert fake.count("GET", r"/users/\d+") == 0
        bob_dm = fake.dm_channel(bob)
        assert bob_dm is not None
        assert fake.count("POST", rf"/channels/{bob_dm}/messages") == 1  # refused once, then never again
        notices = [m for m in fake.thread_messages(table.thread_id) if "can't send you direct messages" in m["content"]]
        assert len(notices) == 1
        assert fake.count("POST", r"/users/@me/channels") <= 2  # one DM channel per player, then cached
        assert any(a["filename"] == "hand.png" for m in fake.dms_to(alice) for a in m["attachments"])
    finally:
        await running.stop()
        await fake.stop()


async def test_turn_posts_show_the_deadline_as_a_discord_timestamp(database):
    fake, running, table, alice, bob = await _setup(database)
    try:
        await table.play_one([alice, bob])
        await table.play_one([alice, bob])
        await _idle(fake, running)
        post = table.latest_post()
        assert post is not None
        limit = next(t.due_at for t in await running.service.clocks.pending_timers(table.game_id) if t.kind == "limit")
        assert f"<t:{int(limit)}:R>" in post["content"]
    finally:
        await running.stop()
        await fake.stop()
