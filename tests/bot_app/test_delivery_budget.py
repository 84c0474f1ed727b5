"""What delivering a move costs: Discord's rate limit and the database's commits — the real
client against the fake, on SQLite and on PostgreSQL.

- A player's DM channel is stored when the bot first opens it; later DMs go straight to it,
  also after a restart, when discord.py remembers no DM channel (it keeps only 128): no request
  opens it again.
- A stored DM channel that Discord says is gone (10003) is opened again, the DM goes to the new
  one, and the new id is stored in place of the old.
- A move costs two transactions: the move with what it owes, and its turn post settled together
  with its DMs.
"""

from __future__ import annotations

from tests.fake_discord import FakeDiscord, User
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer

OPENS = r"/users/@me/channels"


async def _setup(database):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, database.target, renderer=StubRenderer())
    table = await Table.open(fake, running.service, alice, [bob])
    table.desk = running.bot.desk
    await _idle(fake, running)
    return fake, running, table, alice, bob


async def _idle(fake: FakeDiscord, running) -> None:
    await fake.wait_until(lambda: running.bot.desk.busy == 0)


async def _until_dmed(fake: FakeDiscord, running, table: Table, users: list[User], user: User) -> None:
    """Play until `user` gets one more DM."""
    before = len(fake.dms_to(user))
    for _ in range(12):
        await table.play_one(users)
        await _idle(fake, running)
        if len(fake.dms_to(user)) > before:
            return
    raise AssertionError(f"{user.name} got no DM in twelve moves")


async def test_dms_go_to_the_stored_channel_without_opening_it_again(database):
    fake, running, table, alice, bob = await _setup(database)
    try:
        await table.play_one([alice, bob])
        await table.play_one([alice, bob])  # both kept their tickets: each was sent a hand
        await _idle(fake, running)
        channels = {u.id: fake.dm_channel(u) for u in (alice, bob)}
        assert None not in channels.values()
        assert await running.service.outbox.dm_channels([alice.id, bob.id]) == channels
        opened = fake.count("POST", OPENS)
        assert opened == 2  # one per player
    finally:
        await running.stop()
    # A new bot on the same database: discord.py knows no DM channel, the store does.
    running = await start_bot(fake, database.target, renderer=StubRenderer())
    try:
        table.service = running.service
        table.desk = running.bot.desk
        for user in (alice, bob):
            await _until_dmed(fake, running, table, [alice, bob], user)
        assert fake.count("POST", OPENS) == opened
        for user in (alice, bob):
            assert {int(m["channel_id"]) for m in fake.dms_to(user)} == {channels[user.id]}
    finally:
        await running.stop()
        await fake.stop()
    assert not fake.errors


async def test_a_dm_channel_discord_says_is_gone_is_opened_again(database):
    fake, running, table, alice, bob = await _setup(database)
    try:
        await table.play_one([alice, bob])
        await table.play_one([alice, bob])
        await _idle(fake, running)
        old = fake.dm_channel(bob)
        assert old is not None and (await running.service.outbox.dm_channels([bob.id])) == {bob.id: old}
        await fake.delete_channel(old)
        dms_before, sent_before = len(fake.dms_to(bob)), fake.count("POST", rf"/channels/{old}/messages")

        await _until_dmed(fake, running, table, [alice, bob], bob)
        new = fake.dm_channel(bob)
        assert new is not None and new != old
        # Told once that it is gone.
        assert fake.count("POST", rf"/channels/{old}/messages", status=404) == 1
        assert fake.count("POST", rf"/channels/{old}/messages") == sent_before + 1
        assert [int(m["channel_id"]) for m in fake.dms_to(bob)[dms_before:]] == [new]
        assert await running.service.outbox.dm_channels([bob.id]) == {bob.id: new}
        pending = [d for d in await running.service.store.deliveries.of_game(table.game_id) if d.status == "pending"]
        assert pending == []

        await _until_dmed(fake, running, table, [alice, bob], bob)  # and the next goes to the new one at once
        assert fake.count("POST", rf"/channels/{old}/messages") == sent_before + 1
        assert {int(m["channel_id"]) for m in fake.dms_to(bob)[dms_before:]} == {new}
    finally:
        await running.stop()
        await fake.stop()
    assert not fake.errors


async def test_a_move_costs_two_transactions_its_own_and_its_deliveries(database):
    fake, running, table, alice, bob = await _setup(database)
    try:
        await table.play_one([alice, bob])
        await table.play_one([alice, bob])
        await _idle(fake, running)
        summary = await table.summary()
        mover = table.user_of([alice, bob], summary.waiting_for[0], summary)
        other = bob if mover is alice else alice
        dms = {u.id: len(fake.dms_to(u)) for u in (alice, bob)}
        posts = fake.count("*", rf"/channels/{table.thread_id}/messages(/\d+)?")
        transactions, _ = running.service.store.writer_stats

        # Two cards from the deck: the first owes the turn post (an edit) and the mover's DM
        # with the card; the second ends the turn: a new turn post, the mover's card and the
        # next player's hand.
        for _ in range(2):
            await fake.answered(await fake.slash(mover, "draw", channel_id=table.thread_id, card="deck"))
            await _idle(fake, running)

        assert running.service.store.writer_stats[0] - transactions == 4
        assert fake.count("*", rf"/channels/{table.thread_id}/messages(/\d+)?") - posts == 2
        assert (len(fake.dms_to(mover)) - dms[mover.id], len(fake.dms_to(other)) - dms[other.id]) == (2, 1)
        rows = await running.service.store.deliveries.of_game(table.game_id)
        assert {d.status for d in rows} == {"sent"}
    finally:
        await running.stop()
        await fake.stop()
    assert not fake.errors
