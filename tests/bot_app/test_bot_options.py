"""End to end, through the real client and the fake Discord: the table options of `/ttr new`
(offered as choices, shown on the lobby post, refused in one private sentence that opens
nothing, reaching the game) and each player's `/ttr settings` (answered privately, kept across
a restart, and changing what is drawn: the renderer is asked for colour-blind marks, and a
hand comes without its picture when its player turned it off)."""

from __future__ import annotations

from typing import Any

from engine.rules.dice.tokens import DiceTokens
from engine.rules.dice.tunnels import DiceTunnels
from engine.rulesets import ruleset_for
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table, _cid
from tests.fake_discord.harness import RunningBot, start_bot
from tests.fake_discord.renderer import StubRenderer

ALL_STATUSES = ("lobby", "cancelled", "setup", "playing", "over", "broken")


def _module(rules: Any, kind: type) -> Any:
    return next(m for m in rules.modules if isinstance(m, kind))


async def _games(running: RunningBot) -> list[int]:
    return await running.service.store.games.ids(ALL_STATUSES)


async def _open(fake: FakeDiscord, host: Any, **options: Any) -> tuple[int, int]:
    """`/ttr new` with these options: (the lobby message, the game)."""
    it = await fake.answered(await fake.slash(host, "new", **options))
    lobby = it.original_id
    assert lobby is not None, fake.reply_messages(it)
    await fake.wait_until(lambda: "thread" in fake.messages[lobby]["content"])
    return lobby, int(fake.messages[lobby]["content"].split("#")[1].split(" ")[0])


async def _refused(fake: FakeDiscord, it: Any) -> str:
    await fake.answered(it)
    msg = fake.reply_messages(it)[-1]
    assert msg["flags"] & 64, "a refusal is private"
    assert msg["content"].startswith("🚫 "), msg["content"]
    return msg["content"][2:]


async def test_new_offers_every_table_option_as_choices(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=StubRenderer())
    try:
        ttr = next(c for c in fake.commands if c["name"] == "ttr")
        new = {o["name"]: o for o in next(c for c in ttr["options"] if c["name"] == "new")["options"]}
        assert {"variant", "dice", "seats", "turn_hours", "first", "stations", "controller_tunnel", "dice_tokens",
                "tunnel_dice", "nine_route", "undo", "away_days", "stand_in", "plan_ahead", "language",
                "hints"} == set(new)
        assert [c["value"] for c in new["stand_in"]["choices"]] == ["easy", "normal", "hard"]
        assert [c["value"] for c in new["first"]["choices"]] == ["random", "1", "2", "3", "4", "5"]
        assert [c["value"] for c in new["controller_tunnel"]["choices"]] == ["locomotive_only", "as_locomotive_reveal"]
        assert [c["value"] for c in new["dice_tokens"]["choices"]] == [1, 2]
        assert [c["value"] for c in new["tunnel_dice"]["choices"]] == list(range(7))
        assert [c["value"] for c in new["nine_route"]["choices"]] == ["as_8", "disabled"]
        assert new["stations"]["type"] == 5  # a boolean
        assert all(o.get("description") for o in new.values())
    finally:
        await running.stop()
        await fake.stop()


# (the options of /ttr new, what the lobby post says, what the game's rules then are)
ACCEPTED: list[tuple[dict[str, Any], str, Any]] = [
    ({"variant": "alsace", "stations": True}, "stations: with stations, as in Europe", lambda r: r.stations == 3),
    ({"variant": "ussr", "controller_tunnel": "as_locomotive_reveal"},
     "a Controller in a tunnel check: like a revealed locomotive",
     lambda r: r.payment.tunnel_match_as_loco == ("controller",)),
    ({"variant": "europe", "dice": True, "dice_tokens": 2}, "🎲 Dice Expansion · tokens: up to 2 tokens per turn",
     lambda r: _module(r, DiceTokens).exchanges == 2),
    ({"variant": "ussr", "dice": True, "tunnel_dice": 4}, "tunnel dice: 4 tunnel faces of 6",
     lambda r: _module(r, DiceTunnels).tunnel_die_faces == 4),
    ({"variant": "nordic", "dice": True, "nine_route": "disabled"}, "the 9-space route: cannot be claimed",
     lambda r: r.length(r.game_map.routes["murmansk-lieksa"]) == 9),
]


async def test_each_option_is_shown_on_the_lobby_post_and_reaches_the_game(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=StubRenderer())
    service = running.service
    try:
        for options, words, rules in ACCEPTED:
            lobby, g = await _open(fake, alice, seats=2, **options)
            assert words in fake.messages[lobby]["content"], fake.messages[lobby]["content"]
            await fake.answered(await fake.click(alice, lobby, _cid(fake.messages[lobby], ":addai")))
            await fake.answered(await fake.click(alice, lobby, _cid(fake.messages[lobby], ":start")))
            state = (await service.loader.load(g)).state
            assert state.options == {k: v for k, v in {
                "undo": True, "dice": options.get("dice"), "alsace_stations": options.get("stations"),
                "ussr_controller_tunnel_payment": options.get("controller_tunnel"),
                "dice_token_exchanges_per_turn": options.get("dice_tokens"),
                "tunnel_die_faces": options.get("tunnel_dice"),
                "dice_nordic_9_route": options.get("nine_route")}.items() if v is not None}
            assert rules(ruleset_for(state)), options

        # The host's choice of first player: seat 2 of the lobby's list, named once seated.
        lobby, g = await _open(fake, alice, variant="usa", seats=2, first="2")
        assert "first player: seat 2" in fake.messages[lobby]["content"]
        await fake.answered(await fake.click(bob, lobby, _cid(fake.messages[lobby], ":join")))
        assert "first player: seat 2 (Bob)" in fake.messages[lobby]["content"]
        await fake.answered(await fake.click(alice, lobby, _cid(fake.messages[lobby], ":start")))
        view = await service.reads.view(g, None)
        assert view.first_player == 1 and view.names[1] == "Bob"

        # Without a choice the post says the first player is drawn at random.
        lobby, g = await _open(fake, alice, variant="usa", seats=2)
        assert "first player: drawn at random" in fake.messages[lobby]["content"]
    finally:
        await running.stop()
        await fake.stop()


REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"variant": "europe", "stations": True}, "`stations` is an option of Alsace only, not of Europe."),
    ({"variant": "usa", "controller_tunnel": "as_locomotive_reveal"},
     "`controller_tunnel` is an option of USSR only, not of USA."),
    ({"variant": "ussr", "dice": True, "controller_tunnel": "as_locomotive_reveal"},
     "`controller_tunnel` is about train cards, which the Dice Expansion sets aside: leave `controller_tunnel` out, "
     "or `dice` off."),
    ({"variant": "europe", "dice_tokens": 2},
     "`dice_tokens` is an option of the Dice Expansion: add `dice: True`, or leave `dice_tokens` out."),
    ({"variant": "germany", "dice": True, "tunnel_dice": 3},
     "`tunnel_dice` is for maps with tunnels; Germany has none."),
    ({"variant": "europe", "dice": True, "nine_route": "disabled"},
     "`nine_route` is for a map with a route longer than 8 spaces; Europe has none."),
    ({"variant": "ussr", "controller_tunnel": "often"}, "`controller_tunnel` is one of `locomotive_only` (one more "
     "locomotive), `as_locomotive_reveal` (like a revealed locomotive), not “often”."),
    ({"variant": "europe", "dice": True, "dice_tokens": 5},
     "`dice_tokens` is one of `1` (1 token per turn), `2` (up to 2 tokens per turn), not “5”."),
    ({"variant": "europe", "dice": True, "tunnel_dice": 9}, "`tunnel_dice` is one of `0` (0 tunnel faces of 6)"),
    ({"variant": "usa", "seats": 3, "first": "4"},
     "Seat 4 cannot play first at a table of 3 seats; choose a seat from 1 to 3, or random."),
    ({"variant": "usa", "seats": 3, "first": "me"},
     "`first` is `random` or a seat number from 1 to 3 (seat 1 is you, the host), not “me”."),
    ({"variant": "usa", "turn_hours": 1e9}, "A turn lasts 0.01 to 720 hours (30 days), not “1000000000.0”."),
    ({"variant": "usa", "seats": 9}, "A table has 2 to 5 seats, not “9”."),
    # The engine's own check, in its words: Nordic Countries is for 2 or 3.
    ({"variant": "nordic", "seats": 4}, "nordic is played by 2 to 3 players, not 4."),
]


async def test_a_refused_option_is_one_private_sentence_and_opens_nothing(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=StubRenderer())
    try:
        for options, sentence in REFUSED:
            before = await _games(running)
            said = await _refused(fake, await fake.slash(alice, "new", **options))
            assert said.startswith(sentence), (options, said)
            assert await _games(running) == before, options

        # A first seat nobody sits in stops the start (and the table stays open to fill it).
        lobby, g = await _open(fake, alice, variant="usa", seats=3, first="3")
        await fake.answered(await fake.click(bob, lobby, _cid(fake.messages[lobby], ":join")))
        said = await _refused(fake, await fake.click(alice, lobby, _cid(fake.messages[lobby], ":start")))
        assert said == ("Seat 3 was chosen to play first, but only 2 players sit at the table; fill seat 3 (Add AI) "
                        "before you start.")
        assert (await running.service.tables.lobby(g)).status == "lobby"
        await fake.answered(await fake.click(alice, lobby, _cid(fake.messages[lobby], ":addai")))
        await fake.answered(await fake.click(alice, lobby, _cid(fake.messages[lobby], ":start")))
        assert (await running.service.reads.view(g, None)).first_player == 2
    finally:
        await running.stop()
        await fake.stop()


def _said(fake: FakeDiscord, it: Any) -> str:
    msg = fake.reply_messages(it)[-1]
    assert msg["flags"] & 64, "settings are answered privately"
    return msg["content"]


async def test_settings_are_kept_across_a_restart_and_change_the_pictures(database):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    stub = StubRenderer()
    running = await start_bot(fake, database.target, renderer=stub)
    try:
        # Alice turns on colour-blind marks and turns off her hand picture.
        it = await fake.answered(await fake.slash(alice, "settings", colorblind=True, hand_picture=False))
        said = _said(fake, it)
        assert "Colour-blind marks are on" in said and "words only" in said
        assert "Colour-blind marks (`colorblind`): on" in said and "Hand picture (`hand_picture`): off" in said
        assert "Direct messages (`dms`): on" in said

        # A restart: a new bot on the same database still knows them.
        await running.stop()
        running = await start_bot(fake, database.target, renderer=stub)
        said = _said(fake, await fake.answered(await fake.slash(alice, "settings")))
        assert "Colour-blind marks (`colorblind`): on" in said and "Hand picture (`hand_picture`): off" in said
        said = _said(fake, await fake.answered(await fake.slash(bob, "settings")))
        assert "Colour-blind marks (`colorblind`): off" in said and "Hand picture (`hand_picture`): on" in said

        # A game of Alice and Bob: its public board has marks (Alice sits there); Bob's hand
        # comes by DM with its picture, unmarked; Alice's in words only.
        table = await Table.open(fake, running.service, alice, [bob], variant="usa")
        table.desk = running.bot.desk
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        g = table.game_id
        boards = [d for d in stub.asked if d.kind == "board" and d.game_id == g]
        assert boards and all(d.colorblind for d in boards)
        hands = [d for d in stub.asked if d.kind == "hand" and d.game_id == g]
        assert [(d.seat, d.colorblind) for d in hands] == [(1, False)]  # Bob's, once: Alice's is not drawn
        bob_dm = [m for m in fake.dms_to(bob) if f"game #{g}" in m["content"]]
        alice_dm = [m for m in fake.dms_to(alice) if f"game #{g}" in m["content"]]
        assert bob_dm and [a["filename"] for a in bob_dm[0]["attachments"]] == ["hand.png"]
        assert alice_dm and all(not m["attachments"] for m in alice_dm)
        assert "Your hand" in alice_dm[0]["content"]  # the words are all there
        # My hand (and /ttr hand) follow the same settings.
        it = await fake.answered(await fake.slash(alice, "hand", channel_id=table.thread_id))
        mine = await fake.wait_until(lambda: [m for m in fake.reply_messages(it) if "Your hand" in m["content"]])
        assert not mine[-1]["attachments"]
        it = await fake.answered(await fake.slash(bob, "hand", channel_id=table.thread_id))
        theirs = await fake.wait_until(lambda: [m for m in fake.reply_messages(it) if m["attachments"]])
        assert theirs[-1]["attachments"][0]["filename"] == "hand.png"
        assert stub.asked[-1].kind == "hand" and stub.asked[-1].colorblind is False
        # /ttr board, public, has the marks too.
        await fake.answered(await fake.slash(bob, "board", channel_id=table.thread_id))
        await fake.wait_until(lambda: stub.asked[-1].kind == "board")
        assert stub.asked[-1].colorblind is True

        # Bob turns marks on (his hand picture now has them); Alice turns hers off and her picture
        # back on: the next board still has marks, for Bob.
        await fake.answered(await fake.slash(bob, "settings", colorblind=True))
        await fake.answered(await fake.slash(alice, "settings", colorblind=False, hand_picture=True))
        it = await fake.answered(await fake.slash(bob, "hand", channel_id=table.thread_id))
        await fake.wait_until(lambda: [m for m in fake.reply_messages(it) if m["attachments"]])
        assert stub.asked[-1].kind == "hand" and stub.asked[-1].colorblind is True
        drawn = len(stub.asked)
        await table.play_one([alice, bob])
        assert [d.colorblind for d in stub.asked[drawn:] if d.kind == "board"] == [True]
        # With nobody at the table asking for marks, the board has none.
        await fake.answered(await fake.slash(bob, "settings", colorblind=False))
        drawn = len(stub.asked)
        await table.play_one([alice, bob])
        assert [d.colorblind for d in stub.asked[drawn:] if d.kind == "board"] == [False]
        it = await fake.answered(await fake.slash(alice, "hand", channel_id=table.thread_id))
        mine = await fake.wait_until(lambda: [m for m in fake.reply_messages(it) if m["attachments"]])
        assert mine[-1]["attachments"][0]["filename"] == "hand.png"
    finally:
        await running.stop()
        await fake.stop()
