"""The turn post as one layout (issue 27, item 6), end to end through the real client and the
loopback Discord: the post is one container (components v2) with the post's text, the board
as a media gallery item whose description says in words what the board shows (public facts
only, within Discord's 256 characters), and the action buttons, which still work — the game
is played through them. A post Discord will not take as a layout goes out in today's form, and
an edit of such an old-style post keeps it; the leak scan reads every text display and
description."""

from __future__ import annotations

from bot_app.presentation.board_alt import MAX_DESCRIPTION, MAX_ITEM_DESCRIPTION
from bot_app.presentation.components import button, view_of
from bot_app.presentation.layout import MAX_LAYOUT_TEXT, layout_of
from bot_app.presentation.posts import Message
from bot_app.presentation.text import ticket_label
from bot_app.presentation.words.base import plural
from engine.maps import load_map
from tests.fake_discord import FakeDiscord, custom_ids
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.leaks import public_leaks
from tests.fake_discord.renderer import StubRenderer
from tests.fake_discord.server import IS_COMPONENTS_V2, walk

CONTAINER, TEXT_DISPLAY, MEDIA_GALLERY, ACTION_ROW = 17, 10, 12, 1


def test_a_post_too_long_for_a_layout_keeps_todays_form():
    buttons = view_of(button("Draw", "ttr:v1:1:2:draw"))
    fits = Message("x" * 1900, [("board.png", b"png")], buttons, more=["y" * 1900],
                   descriptions={"board.png": "Board " * 100})
    layout = layout_of(fits)
    assert layout is not None
    (gallery,) = [c for c in walk(layout.to_components()) if c["type"] == MEDIA_GALLERY]
    assert len(gallery["items"][0]["description"]) == MAX_ITEM_DESCRIPTION
    assert gallery["items"][0]["media"]["url"] == "attachment://board.png"
    assert layout_of(Message("x" * 1999, [], buttons, more=["y" * 1999, "z" * 100])) is None
    assert MAX_LAYOUT_TEXT < 1999 + 1999 + 100


async def _secrets(service, game_id, users, gmap) -> set[str]:
    found: set[str] = set()
    for u in users:
        seen = await service.reads.view(game_id, u.id)
        found.update(ticket_label(gmap, t) for t in list(seen.me.tickets or ()) + seen.pending.offer_of(seen.you))
    return found


async def test_the_turn_post_is_one_container_with_described_board_and_working_buttons(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "layout.sqlite3", renderer=StubRenderer(), seed=4)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="europe")
        table.desk = running.bot.desk
        users, gmap = [alice, bob], load_map("europe")
        secrets: set[str] = set()
        for _ in range(8):
            secrets |= await _secrets(running.service, table.game_id, users, gmap)
            await table.play_one(users)  # through the layout's buttons and the commands
            post = table.latest_post()
            assert post["flags"] & IS_COMPONENTS_V2, "the turn post is a layout"
            (container,) = post["components"]
            assert container["type"] == CONTAINER
            kinds = [c["type"] for c in container["components"]]
            assert kinds[0] == TEXT_DISPLAY and MEDIA_GALLERY in kinds and kinds[-1] == ACTION_ROW
            text = container["components"][0]["content"]
            assert f"Game #{table.game_id} · Europe" in text and post["content"] == text
            (gallery,) = [c for c in container["components"] if c["type"] == MEDIA_GALLERY]
            (item,) = gallery["items"]
            (board,) = [a for a in post["attachments"] if a["filename"] == "board.png"]
            assert item["media"]["url"] == "attachment://board.png"
            assert item["description"].startswith(f"Board of game #{table.game_id} (Europe), turn ")
            assert len(item["description"]) <= MAX_ITEM_DESCRIPTION and len(board["description"]) <= MAX_DESCRIPTION
            if len(board["description"]) <= MAX_ITEM_DESCRIPTION:
                assert item["description"] == board["description"]
            else:  # the last move goes first (the text above says it): the scores and whose turn stay
                assert "Last move" not in item["description"] and "Waiting for" in item["description"]
            public = (await running.service.reads.panel(table.game_id, None)).public
            for p in public.players:
                said = f"{p.name} {plural(p.route_points, 'point')}, {plural(p.trains, 'train')} left"
                assert said in item["description"]
            assert any(label == "My hand" for label, _ in custom_ids(post))
        assert public_leaks(fake, secrets, pictures=False) == []
        kinds = {item.where.rsplit(" ", 2)[-2] + " " + item.where.rsplit(" ", 1)[-1] for item in fake.public}
        assert {"text display", "media description"} <= kinds, "the leak scan reads the layout's words"
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


async def test_a_post_refused_as_a_layout_goes_out_in_todays_form_and_its_edits_keep_it(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "old.sqlite3", renderer=StubRenderer(), seed=4)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="europe")
        table.desk = running.bot.desk
        users = [alice, bob]
        while (await table.summary()).status == "setup":
            await table.play_one(users)
        # Discord refuses the next post as a layout (as it would one it cannot take): today's form.
        refused = fake.fail("POST", rf"/channels/{table.thread_id}/messages", 400, 50035, "Invalid Form Body", times=1)
        while not refused.hits:
            await table.play_one(users)
        post = table.latest_post()
        classic = int(post["id"])
        assert not post["flags"] & IS_COMPONENTS_V2 and post["attachments"][0]["description"]
        assert any(label == "My hand" for label, _ in custom_ids(post))
        # The player to move takes a first card from the deck: the same turn, so the post is edited.
        summary = await table.summary()
        user = table.user_of(users, summary.waiting_for[0], summary)
        legal = await running.service.reads.legal_actions(table.game_id, user.id)
        deck = next(a for a in legal if a.TYPE == "draw_card" and a.to_json().get("slot") is None)
        await table.perform(user, deck, legal, summary.seq)
        await table.wait_posted()
        post = fake.messages[classic]
        assert table.latest_post()["id"] == post["id"], "the turn's post was edited, not posted anew"
        assert post["edited_timestamp"] and not post["flags"] & IS_COMPONENTS_V2, "it keeps today's form"
        assert f"· move {(await table.summary()).seq}" in post["content"]
        assert post["components"][0]["type"] == ACTION_ROW
        await table.play_one(users)  # the second card ends the turn: the next post is a layout again
        later = [m for m in fake.thread_messages(table.thread_id)
                 if int(m["id"]) > classic and "· move " in m["content"]]
        assert all(m["flags"] & IS_COMPONENTS_V2 for m in later), "new posts are layouts again"
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


def test_a_layouts_board_description_leaves_out_the_last_move_before_the_scores():
    from bot_app.presentation.board_alt import board_description
    from engine.game import new_game, view

    names = ["Alexandra", "Bartholomew", "Christopher", "Dorothea", "Evangeline"]
    state, events = new_game("europe", 5, 1, {}, names=names)
    public = view(state, None)
    full = board_description(public, events, [0], 7)
    brief = board_description(public, events, [0], 7, MAX_ITEM_DESCRIPTION)
    assert "Last move: " in full and len(full) > MAX_ITEM_DESCRIPTION
    assert "Last move" not in brief and len(brief) <= MAX_ITEM_DESCRIPTION
    assert brief.endswith(f"Waiting for {public.name(0)}.")
    assert all(f"{n} 0 points, 45 trains left" in brief for n in names)


def test_the_final_boards_description_names_the_last_move_not_the_end():
    from bot_app.presentation.board_alt import board_description
    from engine.core import GameOver
    from engine.events import Event
    from engine.game import new_game, view

    state, events = new_game("europe", 2, 1, {}, names=["Ann", "Bo"])
    said = board_description(view(state, None), [*events, Event(GameOver(result=None))], [], 3)
    assert "Last move: 🏆" not in said and "Last move: " in said


def test_the_board_is_read_aloud_in_the_tables_language():
    from bot_app.presentation.board_alt import board_description
    from engine.game import new_game, view

    for language, start, player, waiting in (
            ("de", "Spielplan von Spiel #7 (", "Ann: 0 Punkte, 45 Wagen übrig", "Am Zug: Ann."),
            ("ru", "Поле игры №7 (", "Ann: 0 очков, осталось 45 вагонов", "Ждём: Ann."),
            ("fr", "Plateau de la partie n° 7 (", "Ann : 0 point, 45 wagons restants", "En attente de Ann."),
            ("sv", "Spelplan för spel #7 (", "Ann: 0 poäng, 45 vagnar kvar", "Väntar på Ann.")):
        state, events = new_game("europe", 2, 1, {"language": language}, names=["Ann", "Bo"])
        said = board_description(view(state, None), events, [0], 7)
        assert said.startswith(start) and player in said and said.endswith(waiting), said
