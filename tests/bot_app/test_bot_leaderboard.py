"""Leaderboards through the real client and the fake Discord: /ttr results leaderboard shows the
server's ratings; /ttr admin season and /ttr admin ratings are for server managers; a
server sees only its own results."""

from __future__ import annotations

from store.records import ResultRow
from tests.fake_discord import FakeDiscord
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer


def _reply(fake: FakeDiscord, it) -> dict:
    msgs = fake.reply_messages(it)
    assert msgs, "no answer"
    return msgs[-1]


async def _results(service, guild_id: int, finished_at: float, places: dict[tuple[int | None, str], int]) -> None:
    lobby = await service.tables.create_lobby(guild_id=guild_id, channel_id=int(finished_at), host_user_id=1,
                                       host_name="x", variant="europe", seats_wanted=len(places))
    tx = service.store.tx()
    tx.results.add([ResultRow(game_id=lobby.game_id, seat=seat, user_id=who, is_ai=who is None,
                              ai_level=None if who else "greedy", name=name, guild_id=guild_id, variant="europe",
                              score=120 - 10 * place, place=place, won=place == 1, tickets_completed=3,
                              tickets_failed=1, finished_at=finished_at)
                    for seat, ((who, name), place) in enumerate(places.items())])
    await service.store.write(tx)


async def test_leaderboard_seasons_and_who_may_change_them(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob", manager=True)
    running = await start_bot(fake, tmp_path / "board.sqlite3", renderer=StubRenderer())
    try:
        guild = fake.guild_id
        other_guild, other_channel = await fake.add_guild("Elsewhere")
        empty = _reply(fake, await fake.answered(await fake.slash(alice, "results leaderboard")))
        assert "No rated games yet" in empty["content"] and not empty["flags"] & 64

        await _results(running.service, guild, 1_000.0, {(alice.id, "Alice"): 1, (bob.id, "Bob"): 2})
        await _results(running.service, guild, 2_000.0, {(alice.id, "Alice"): 1, (None, "AI"): 2})
        await _results(running.service, other_guild, 3_000.0, {(bob.id, "Bob"): 1, (alice.id, "Alice"): 2})
        board = _reply(fake, await fake.answered(await fake.slash(alice, "results leaderboard")))["content"]
        lines = board.splitlines()
        assert "season 1" in lines[0] and "every variant" in lines[0]
        assert lines[1].startswith("🥇") and "Alice" in lines[1] and "2 games, 2 wins" in lines[1]
        assert "🤖 AI (greedy)" in board and "2 rated games" in board
        europe = _reply(fake, await fake.answered(await fake.slash(alice, "results leaderboard", variant="europe")))
        assert "Europe" in europe["content"].splitlines()[0]
        there = _reply(fake, await fake.answered(await fake.slash(alice, "results leaderboard",
                                                                  channel_id=other_channel)))
        assert there["content"].splitlines()[1].startswith("🥇") and "Bob" in there["content"].splitlines()[1]

        # Only a server manager changes the leaderboard's rules.
        refused = _reply(fake, await fake.answered(await fake.slash(alice, "admin ratings", ai_games=False)))
        assert refused["flags"] & 64 and "Only someone who can manage this server" in refused["content"]
        done = _reply(fake, await fake.answered(await fake.slash(bob, "admin ratings", ai_games=False)))
        assert "no longer count" in done["content"]
        board = _reply(fake, await fake.answered(await fake.slash(alice, "results leaderboard")))["content"]
        assert "AI (greedy)" not in board and "1 rated game;" in board

        refused = _reply(fake, await fake.answered(await fake.slash(alice, "admin season")))
        assert refused["flags"] & 64 and "Only someone who can manage this server" in refused["content"]
        started = _reply(fake, await fake.answered(await fake.slash(bob, "admin season")))
        assert "Season 2 has begun" in started["content"]
        fresh = _reply(fake, await fake.answered(await fake.slash(alice, "results leaderboard")))["content"]
        assert "season 2" in fresh and "No rated games yet" in fresh
        old = _reply(fake, await fake.answered(await fake.slash(alice, "results leaderboard", season=1)))["content"]
        assert "season 1 (ended)" in old and "Alice" in old
        missing = _reply(fake, await fake.answered(await fake.slash(alice, "results leaderboard", season=3)))
        assert missing["flags"] & 64 and "there is no season 3" in missing["content"]
    finally:
        await running.stop()
        await fake.stop()
