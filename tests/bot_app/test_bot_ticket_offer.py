"""The ticket offer on the map (issue 27): every offer of tickets — the opening deal and every
later draw, in every variant, with and without dice (Germany's mix of short and long tickets
chosen first) — comes with a private picture of the offered tickets, and the choice menu names
each card by the letter the picture gives it. The menu answers at once and the picture is added to
its message when drawn. The picture goes to the chooser only: the leak scan finds it in nothing
public."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from PIL import Image

from bot_app.presentation.panels import OFFER_FILE
from bot_app.presentation.render_hooks import Renderer
from bot_app.presentation.text import ticket_label
from engine.actions import DrawTickets, KeepTickets
from engine.maps import load_map
from engine.rulesets import available_variants
from render.pool import RenderPool
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.leaks import public_leaks
from tests.fake_discord.renderer import StubRenderer
from tests.fake_discord.server import Interaction, User, custom_ids, select_options


def _files(message: dict[str, Any]) -> list[str]:
    return [a["filename"] for a in message.get("attachments", [])]


def _cid(message: dict[str, Any], fragment: str) -> str:
    return next(c for _, c in custom_ids(message) if fragment in c)


async def _answer(fake: FakeDiscord, it: Interaction) -> dict[str, Any]:
    await fake.answered(it)
    return fake.reply_messages(it)[-1]


async def _to_the_keep_menu(fake: FakeDiscord, running: Any, table: Table, user: User,
                            panel: dict[str, Any]) -> dict[str, Any]:
    """From a panel opened by Choose tickets, through what the rules ask before the keep (a
    mix to draw in Germany, a Lucky Devil in Alsace: the first choice), to the keep menu."""
    for _ in range(3):
        if any("keeppick" in c for _, c in custom_ids(panel)):
            return panel
        if select_options(panel):
            sel, value, _ = select_options(panel)[0]
            panel = await _answer(fake, await fake.click(user, int(panel["id"]), sel, [value]))
        panel = await _answer(fake, await fake.click(user, int(panel["id"]), _cid(panel, ":do:")))
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        if not any("keeppick" in c for _, c in custom_ids(panel)):  # "Now choose what to keep": press it
            panel = await _answer(fake, await fake.click(user, int(panel["id"]), _cid(panel, ":kt")))
    raise AssertionError(f"no keep menu: {panel['content']!r}")


def _menu_marks(panel: dict[str, Any]) -> dict[str, str]:
    """The keep menu: each card's value → the letter its label starts with."""
    out = {}
    options = [o for row in panel["components"] for c in row["components"] if c.get("type") == 3
               for o in c["options"]]
    for option in options:
        found = re.match(r"([A-Z]+): ", option["label"])
        assert found, option["label"]
        out[option["value"]] = found.group(1)
    return out


@pytest.mark.parametrize("dice", [False, True], ids=["cards", "dice"])
@pytest.mark.parametrize("variant", available_variants())
async def test_the_opening_offer_comes_with_its_picture_and_the_menu_has_its_letters(tmp_path, variant, dice):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    stub = StubRenderer()
    running = await start_bot(fake, tmp_path / "offer.sqlite3", renderer=stub, seed=11)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant=variant, dice=dice)
        post = table.latest_post()
        assert post is not None
        panel = await _answer(fake, await fake.click(alice, int(post["id"]), _cid(post, ":kt")))
        panel = await _to_the_keep_menu(fake, running, table, alice, panel)
        seen = await running.service.reads.view(table.game_id, alice.id)
        offer = seen.pending.offer_of(seen.you)
        # the picture, privately, added to the menu's message once drawn
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        assert _files(panel) == [OFFER_FILE]
        assert panel["flags"] & 64  # ephemeral: Alice's only
        asked = [d for d in stub.asked if d.kind == "offer"]
        assert asked and asked[-1].seat == seen.you and asked[-1].game_id == table.game_id
        # the menu's letters are the picture's, card for card
        assert _menu_marks(panel) == {c: m for c, m in seen.pending.offer_marks(seen.you).items()
                                      if c in _menu_marks(panel)}
        assert set(_menu_marks(panel)) <= set(offer)
        gmap = load_map(seen.map_id)
        assert public_leaks(fake, [ticket_label(gmap, c) for c in offer], pictures=False) == []
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


async def test_a_later_draw_shows_the_new_offer_in_the_panel_it_opens(tmp_path):
    """A draw of tickets in the game: the panel after the draw's Confirm has Choose tickets;
    the keep menu it opens (the same private message, edited) carries the new offer's picture,
    drawn by the real renderer, and nothing public holds it."""
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    pool = RenderPool(1, processes=False, prepare=())
    running = await start_bot(fake, tmp_path / "later.sqlite3", renderer=Renderer(pool), seed=3)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="usa")
        table.desk = running.bot.desk
        users = [alice, bob]
        secrets: set[str] = set()
        for _ in range(2):  # the opening choices
            for u in users:
                secrets.update((await running.service.reads.view(table.game_id, u.id)).pending.offer_of(0))
            await table.play_one(users)
        summary = await table.summary()
        mover = table.user_of(users, summary.waiting_for[0], summary)
        legal = await running.service.reads.legal_actions(table.game_id, mover.id)
        draw = next(a for a in legal if isinstance(a, DrawTickets))
        post = table.latest_post()
        assert post is not None
        panel = await _answer(fake, await fake.click(mover, int(post["id"]), _cid(post, f":{summary.seq}:tix")))
        if select_options(panel):
            sel, _, _ = select_options(panel)[0]
            panel = await _answer(fake, await fake.click(mover, int(panel["id"]), sel,
                                                         [f"{legal.index(draw)}.{draw.TYPE}"]))
        panel = await _answer(fake, await fake.click(mover, int(panel["id"]), _cid(panel, ":do:")))
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        assert _files(panel) == []
        it = await fake.click(mover, int(panel["id"]), _cid(panel, ":kt"))
        keep = await _answer(fake, it)
        assert it.response_type == 7 and int(keep["id"]) == int(panel["id"])  # the same private panel, edited
        assert select_options(keep)  # the menu at once; the picture follows
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        assert _files(keep) == [OFFER_FILE]
        (name, png), = fake.files[int(keep["id"])]
        picture = Image.open(io.BytesIO(png))
        assert name == OFFER_FILE and picture.width >= 1000
        seen = await running.service.reads.view(table.game_id, mover.id)
        secrets.update(seen.pending.offer_of(seen.you))
        assert set(_menu_marks(keep)) == set(seen.pending.offer_of(seen.you))
        # keep one through the menu: the choice works as before
        sel, _, _ = select_options(keep)[0]
        first = seen.pending.offer_of(seen.you)[0]
        confirm = await _answer(fake, await fake.click(mover, int(keep["id"]), sel, [first]))
        assert "A: " in confirm["content"]
        await _answer(fake, await fake.click(mover, int(confirm["id"]), _cid(confirm, ":keepok:")))
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        after = await running.service.reads.view(table.game_id, mover.id)
        assert first in (after.players[after.you].tickets or ())
        assert not any(isinstance(a, KeepTickets) for a in await running.service.reads.legal_actions(table.game_id,
                                                                                                 mover.id))
        gmap = load_map(seen.map_id)
        assert public_leaks(fake, [ticket_label(gmap, s) for s in secrets]) == []
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
        pool.close()


def _posted_before(fake: FakeDiscord, like: dict[str, Any], new: str, old: str) -> tuple[dict[str, Any], str]:
    """`like`'s message as the bot posted it before verb `new` had its name: its components
    carry the former verb `old` (Discord keeps such posts, and sends clicks on them)."""
    components = json.loads(json.dumps(like["components"]).replace(f":{new}", f":{old}"))
    message = fake._new_message(int(like["channel_id"]), {"content": like["content"], "components": components},
                                [], flags=0)
    return message, _cid(message, f":{old}")


async def test_a_keep_menu_posted_before_its_verbs_had_names_still_keeps(tmp_path):
    """The keep menu and its Confirm as posted before their verbs were named (`ksel`, `kdo`:
    ids.FORMER) still choose and keep the tickets."""
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "old.sqlite3", renderer=StubRenderer(), seed=11)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="usa")
        post = table.latest_post()
        assert post is not None
        panel = await _answer(fake, await fake.click(alice, int(post["id"]), _cid(post, ":kt")))
        keep = await _to_the_keep_menu(fake, running, table, alice, panel)
        seen = await running.service.reads.view(table.game_id, alice.id)
        offered = seen.pending.offer_of(seen.you)
        menu, old_menu = _posted_before(fake, keep, "keeppick", "ksel")
        confirm = await _answer(fake, await fake.click(alice, int(menu["id"]), old_menu, list(offered)))
        assert "🚫" not in confirm["content"] and "A: " in confirm["content"]
        button, old_confirm = _posted_before(fake, confirm, "keepok", "kdo")
        done = await _answer(fake, await fake.click(alice, int(button["id"]), old_confirm))
        assert "🚫" not in done["content"]
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        after = await running.service.reads.view(table.game_id, alice.id)
        assert set(offered) <= set(after.players[after.you].tickets or ())
    finally:
        await running.stop()
        await fake.stop()
