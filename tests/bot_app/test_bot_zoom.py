"""Zoom for phones (issue 27): `/ttr board zoom:` answers in the channel with the part of the
board around a city (autocomplete over the map's cities; a misspelt name is one sentence with a
guess), and every turn post that marks a move has a Zoom button showing that move's area to
whoever presses it — a spectator too: it is public information only."""

from __future__ import annotations

import io

from PIL import Image

from bot_app.presentation.render_hooks import Renderer
from bot_app.presentation.text import ticket_label
from bot_app.presentation.zoom import ZOOM_FILE
from engine.maps import load_map
from render.pool import RenderPool
from render.zoom import WIDTH, render_zoom
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.leaks import public_leaks
from tests.fake_discord.renderer import StubRenderer
from tests.fake_discord.server import custom_ids


def _files(message):
    return [a["filename"] for a in message.get("attachments", [])]


async def _reply(fake, running, it):
    """The answer to an interaction once the bot is done with it (a picture follows a defer)."""
    await fake.answered(it)
    await fake.wait_until(lambda: running.bot.desk.busy == 0, timeout=20)
    return fake.reply_messages(it)[-1]


async def test_board_zoom_shows_the_part_around_a_city_in_the_channel(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    pool = RenderPool(1, processes=False, prepare=())
    running = await start_bot(fake, tmp_path / "zoom.sqlite3", renderer=Renderer(pool), seed=5)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="europe")
        # autocomplete: the map's cities, for anyone in the server
        it = await fake.autocomplete(carol, "board", "zoom", channel_id=table.thread_id, zoom="berl")
        await fake.answered(it)
        choices = it.callback["data"]["choices"]
        assert {"name": "Berlin", "value": "berlin"} in choices
        # the zoom itself: public, a picture of the board's part around Berlin
        answer = await _reply(fake, running, await fake.slash(carol, "board", channel_id=table.thread_id,
                                                              zoom="Berlin"))
        assert not answer["flags"] & 64 and _files(answer) == [ZOOM_FILE]
        assert "around Berlin" in answer["content"]
        assert "around Berlin" in answer["attachments"][0]["description"]  # for a screen reader
        (name, png), = fake.files[int(answer["id"])]
        public = (await running.service.reads.panel(table.game_id, None)).public
        assert png == render_zoom(public, city="berlin").png
        picture = Image.open(io.BytesIO(png))
        assert max(picture.size) == WIDTH
        # a misspelt city: one private sentence with a guess, nothing posted
        posted = len(fake.public)
        refusal = await _reply(fake, running, await fake.slash(carol, "board", channel_id=table.thread_id,
                                                               zoom="Berlni"))
        assert refusal["flags"] & 64 and "There is no city called" in refusal["content"]
        assert "Berlin" in refusal["content"] and not _files(refusal)
        assert len(fake.public) == posted
        # without zoom:, the whole board as before
        whole = await _reply(fake, running, await fake.slash(carol, "board", channel_id=table.thread_id))
        assert _files(whole) == ["board.png"]
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
        pool.close()


async def test_the_turn_post_offers_the_last_moves_area_as_a_zoom(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    stub = StubRenderer()
    running = await start_bot(fake, tmp_path / "button.sqlite3", renderer=stub, seed=8)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="usa")
        table.desk = running.bot.desk
        users = [alice, bob]
        secrets: set[str] = set()
        gmap = load_map("usa")
        post = None
        for _ in range(40):  # until a post marks a claimed route
            for u in users:
                seen = await running.service.reads.view(table.game_id, u.id)
                secrets.update(ticket_label(gmap, t) for t in list(seen.me.tickets or ())
                               + seen.pending.offer_of(seen.you))
            post = table.latest_post()
            zooms = [(label, c) for label, c in custom_ids(post) if ":zoom:" in c] if post else []
            if zooms:
                break
            await table.play_one(users)
        else:
            raise AssertionError("no turn post marked a move")
        (label, cid), = zooms
        public = (await running.service.reads.panel(table.game_id, None)).public
        route = cid.rsplit(":r.", 1)[1]
        assert route in public.route_owner  # the route just claimed
        assert label == f"Zoom: {gmap.route_label(route)}"
        # a spectator presses it: the area, privately to her, from the public board
        answer = await _reply(fake, running, await fake.click(carol, int(post["id"]), cid))
        assert answer["flags"] & 64 and _files(answer) == [ZOOM_FILE]
        assert stub.zoomed[-1] == route and stub.asked[-1].kind == "zoom" and stub.asked[-1].seat is None
        assert public_leaks(fake, secrets, pictures=False) == []
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
