"""End to end, through the loopback fake Discord: the final post carries the replay and every
ticket revealed; `/ttr results replay game:` rebuilds the replay of a finished game from its stored
seed and moves — after a restart too — for anyone in the game's server, and for nobody
elsewhere; bad input and a game still being played get one private sentence."""

from __future__ import annotations

import asyncio
import io
import re

from PIL import Image, ImageSequence

from ai.levels import make_ai
from app import Actor
from render.replay import MAX_BYTES
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import DEADLINE, Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.leaks import public_leaks
from tests.fake_discord.renderer import StubRenderer


async def _finish(service, game_id: int) -> None:
    """Both players play the greedy AI's moves to the end (through the service: this file is
    about what comes after the game)."""
    ai = make_ai("greedy", 3)
    while (summary := await service.reads.game(game_id)).status != "over":
        seat = summary.waiting_for[0]
        user = summary.seats[seat].user_id
        view = await service.reads.view(game_id, user)
        legal = await service.reads.legal_actions(game_id, user)
        await service.moves.submit(game_id, Actor.user(user), ai.choose(view, legal), summary.seq)


def _private(fake: FakeDiscord, it) -> str:
    msgs = fake.reply_messages(it)
    assert msgs and msgs[-1]["flags"] & 64, "a refusal is private"
    return msgs[-1]["content"]


async def test_replay_in_the_final_post_and_on_demand(tmp_path) -> None:
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    carol = fake.add_user("Carol")  # in the server, never plays
    db = tmp_path / "ttr.sqlite3"
    stub = StubRenderer()
    running = await start_bot(fake, db, renderer=stub, seed=3)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="usa")
        g = table.game_id
        # A game still being played has no replay yet.
        it = await fake.answered(await fake.slash(carol, "results replay", game=f"#{g}"))
        assert f"Game #{g} is not over yet" in _private(fake, it)
        await _finish(running.service, g)
        final = await fake.wait_until(lambda: [m for m in fake.thread_messages(table.thread_id)
                                               if "Final scores" in m["content"]])
        names = sorted(a["filename"] for a in final[0]["attachments"])
        assert names == ["board.png", "replay.gif", "scores.png", "tickets.png"]
        assert "every ticket revealed" in "\n".join(m["content"] for m in fake.thread_messages(table.thread_id))
        assert f"/ttr results replay game:{g}" in "\n".join(m["content"] for m in fake.thread_messages(table.thread_id))
        claims = len((await running.service.reads.view(g, None)).route_owner)
        assert stub.replayed == [claims + 2]  # the empty board, each claim, the final board
        await running.stop()

        # After a restart, with the real pictures: rebuilt from the stored seed and moves.
        running = await start_bot(fake, db)
        it = await fake.answered(await fake.slash(carol, "results replay", game=f"#{g}"), timeout=30)
        await fake.wait_until(lambda: running.bot.desk.busy == 0, timeout=30)
        answer = fake.reply_messages(it)[-1]
        assert not answer["flags"] & 64, "the replay is public"
        assert [a["filename"] for a in answer["attachments"]] == ["replay.gif"]
        assert re.search(rf"Game #{g} · .*the replay: {claims} claims", answer["content"]), answer["content"]
        gif = next(data for name, data in fake.files[int(answer["id"])] if name == "replay.gif")
        assert len(gif) <= MAX_BYTES
        frames = list(ImageSequence.Iterator(Image.open(io.BytesIO(gif))))
        assert len(frames) >= claims + 2
        # In the thread, without naming the game: that thread's game.
        it = await fake.answered(await fake.slash(alice, "results replay", channel_id=table.thread_id), timeout=30)
        await fake.wait_until(lambda: running.bot.desk.busy == 0, timeout=30)
        assert [a["filename"] for a in fake.reply_messages(it)[-1]["attachments"]] == ["replay.gif"]

        # Elsewhere: nothing, in words.
        other_guild, other_channel = await fake.add_guild()
        mallory = fake.add_user("Mallory")
        it = await fake.answered(await fake.slash(mallory, "results replay", channel_id=other_channel, game=f"#{g}"))
        assert f"There is no game #{g} here." in _private(fake, it)
        it = await fake.answered(await fake.slash(mallory, "results replay", channel_id=fake._dm_channel(mallory.id),
                                                  game=f"#{g}"))
        assert f"There is no game #{g} here." in _private(fake, it)
        assert not [m for m in fake.messages.values() if int(m["channel_id"]) == other_channel
                    and m["attachments"]]
        # Bad input: one sentence each.
        it = await fake.answered(await fake.slash(carol, "results replay"))
        assert "Which game?" in _private(fake, it)
        it = await fake.answered(await fake.slash(carol, "results replay", game="abc"))
        assert "Pick a game from the list" in _private(fake, it)
        it = await fake.answered(await fake.slash(carol, "results replay", game="#999999"))
        assert "There is no game #999999 here." in _private(fake, it)
        # the replay is a public picture (the stub drew the first half: its pictures are all alike)
        assert public_leaks(fake, (), revealed_in=[final[0]["id"]], pictures=False) == []
        assert not fake.errors
        for interaction in fake.interactions.values():  # each answered (or deferred) within Discord's 3 s
            assert interaction.latency is not None and interaction.latency < DEADLINE
    finally:
        await running.stop()
        await fake.stop()


class _SlowStub(StubRenderer):
    """The stub renderer, with a replay that takes a moment (as a real one takes seconds)."""

    async def replay(self, steps):  # type: ignore[no-untyped-def]
        await asyncio.sleep(0.3)
        return await super().replay(steps)


async def test_thirty_people_asking_for_one_replay_at_once_get_one_drawing(tmp_path) -> None:
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    crowd = [fake.add_user(f"Watcher {n}") for n in range(30)]
    stub = _SlowStub()
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=stub, seed=3)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="usa")
        g = table.game_id
        await _finish(running.service, g)
        await fake.wait_until(lambda: stub.replayed and running.bot.desk.busy == 0, timeout=30)
        drawn = len(stub.replayed)  # the final post's
        asked = await asyncio.gather(*(fake.slash(u, "results replay", game=f"#{g}") for u in crowd))
        for it in asked:
            await fake.answered(it, timeout=30)

        def answers() -> list[dict]:
            return [fake.reply_messages(it)[-1] for it in asked
                    if fake.reply_messages(it) and fake.reply_messages(it)[-1]["content"]]

        await fake.wait_until(lambda: running.bot.desk.busy == 0 and len(answers()) == len(asked), timeout=30)
        assert len(stub.replayed) == drawn + 1  # one drawing for all thirty
        # … and one post of it in the channel; everyone else is pointed to that post, privately.
        posts = [m for m in answers() if any(a["filename"] == "replay.gif" for a in m["attachments"])]
        assert len(posts) == 1 and not posts[0]["flags"] & 64
        link = f"https://discord.com/channels/{fake.guild_id}/{fake.channel_id}/{posts[0]['id']}"
        pointers = [m for m in answers() if m is not posts[0]]
        assert len(pointers) == 29
        assert all(m["flags"] & 64 and m["content"] == f"🎞️ The replay of game #{g} was just posted here: {link}"
                   for m in pointers), (pointers[0]["flags"], pointers[0]["content"], link)
        # In the game's thread, another channel, it is posted again (from the replays kept).
        it = await fake.answered(await fake.slash(alice, "results replay", channel_id=table.thread_id), timeout=30)
        await fake.wait_until(lambda: any(a["filename"] == "replay.gif" for m in fake.reply_messages(it)
                                          for a in m["attachments"]), timeout=30)
        assert len(stub.replayed) == drawn + 1
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
