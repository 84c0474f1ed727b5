"""Spectators, end to end through the loopback fake Discord: anyone in the game's server (here
Carol, who never sits down) sees only public information. `/ttr board`, `/ttr status` and
`/ttr log` work for her, in the thread and by game number, drawn from the public view; the
players' buttons, their hands and their moves are refused to her in one private sentence and
change nothing. The leak scan: no held ticket (offered or kept) in any public text, and no
private picture in public, until the final post reveals the tickets on purpose."""

from __future__ import annotations

from bot_app.presentation.text import ticket_label
from engine.maps import load_map
from render.board import render_board
from render.encode import png_bytes
from tests.fake_discord import FakeDiscord, custom_ids
from tests.fake_discord.driver import DEADLINE, Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.leaks import public_leaks

MOVES = 12


def _private(fake: FakeDiscord, it) -> str:
    msgs = fake.reply_messages(it)
    assert msgs and msgs[-1]["flags"] & 64, "a refusal is private"
    return msgs[-1]["content"]


def _public(fake: FakeDiscord, it) -> dict:
    msgs = fake.reply_messages(it)
    assert msgs and not msgs[-1]["flags"] & 64, f"an answer for everyone: {msgs[-1:]}"
    return msgs[-1]


async def test_a_spectator_sees_the_public_game_and_nothing_else(tmp_path) -> None:
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    carol = fake.add_user("Carol")
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", seed=9)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="europe")
        table.desk = running.bot.desk
        g = table.game_id
        service = running.service
        gmap = load_map((await service.reads.view(g, None)).map_id)
        secrets: set[str] = set()
        for moves in range(MOVES):
            for u in (alice, bob):
                v = await service.reads.view(g, u.id)
                secrets.update(ticket_label(gmap, t) for t in list(v.me.tickets or ()) + v.pending.offer_of(v.you))
            if moves in (0, MOVES - 1):
                seq = (await table.summary()).seq
                # /ttr board in the thread: the public board, for everyone.
                it = await fake.answered(await fake.slash(carol, "board", channel_id=table.thread_id), timeout=20)
                await fake.wait_until(lambda: running.bot.desk.busy == 0, timeout=20)
                board = _public(fake, it)
                assert f"**Game #{g}**" in board["content"]
                png = dict(fake.files[int(board["id"])])["board.png"]
                public = await service.reads.view(g, None)
                assert png == png_bytes(render_board(public).image, render_board(public).base.palette)
                # /ttr status by number, from the channel: scores and whose turn it is.
                it = await fake.answered(await fake.slash(carol, "status", game=f"#{g}"))
                status = _public(fake, it)["content"]
                assert f"Game #{g}" in status and "waiting for" in status and "Alice" in status and "Bob" in status
                it = await fake.answered(await fake.slash(carol, "log", channel_id=table.thread_id))
                assert "recent moves" in _public(fake, it)["content"]
                # What only players may do is refused to her, in words, and changes nothing.
                post = table.latest_post()
                hand = next(c for _, c in custom_ids(post) if c.endswith(":hand"))
                assert "not playing" in _private(fake, await fake.answered(
                    await fake.click(carol, int(post["id"]), hand)))
                for sub, opts in (("hand", {}), ("draw", {"card": "deck"}), ("tickets", {})):
                    it = await fake.answered(await fake.slash(carol, sub, channel_id=table.thread_id, **opts))
                    assert "not playing" in _private(fake, it), sub
                buttons = [c for _, c in custom_ids(post) if c.endswith(":draw") or c.endswith(":claim")]
                for cid in buttons[:1]:
                    it = await fake.answered(await fake.click(carol, int(post["id"]), cid))
                    assert "not playing" in _private(fake, it)
                assert (await table.summary()).seq == seq
            await table.play_one([alice, bob])

        # The leak scan over everything public (Carol's answers included), pictures too.
        assert secrets
        assert public_leaks(fake, secrets) == []
        for interaction in fake.interactions.values():
            assert interaction.latency is not None and interaction.latency < DEADLINE
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
