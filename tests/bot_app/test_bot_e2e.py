"""End to end: the real discord.py client against the loopback fake Discord, a whole
2-player game from /ttr new to the final score post, played by two users through buttons,
menus and commands — with a restart of the bot in the middle (a new client and service on the
same database file) and a player whose DMs are closed.

Checked: every interaction answered within 3 s; nothing secret in any public message, thread
name, component or attachment; moves out of turn, by non-players and from stale buttons are
refused and change nothing; the closed-DM player plays the whole game (My hand works);
buttons posted before the restart work after it."""

from __future__ import annotations

import re

from bot_app.presentation.text import ticket_label
from engine.maps import load_map
from tests.fake_discord import FakeDiscord, custom_ids
from tests.fake_discord.driver import DEADLINE, Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.leaks import public_leaks


async def _refused(fake: FakeDiscord, it, words: str) -> str:
    await fake.answered(it)
    msgs = fake.reply_messages(it)
    assert msgs, "a refusal must be answered"
    msg = msgs[-1]
    assert msg["flags"] & 64, "refusals are private"
    assert words.lower() in msg["content"].lower(), msg["content"]
    return msg["content"]


async def test_whole_game_with_restart_closed_dms_and_refusals(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice = fake.add_user("Alice")
    bob = fake.add_user("Bob", dms_closed=True)
    carol = fake.add_user("Carol")  # watches, never plays
    db = tmp_path / "ttr.sqlite3"
    running = await start_bot(fake, db, seed=5)  # the same deal at every run
    try:
        table = await Table.open(fake, running.service, alice, [bob])
        table.desk = running.bot.desk
        g = table.game_id
        gmap = load_map((await running.service.reads.view(g, None)).map_id)
        secrets: set[str] = set()

        async def collect_secrets() -> None:
            for u in (alice, bob):
                v = await running.service.reads.view(g, u.id)
                assert v.me is not None
                held = list(v.me.tickets or ()) + v.pending.offer_of(v.you)
                for t in held:
                    secrets.add(ticket_label(gmap, t))

        # Bob cannot get DMs: the thread tells him (without secrets) to use My hand.
        notice = await fake.wait_until(lambda: [m for m in fake.thread_messages(table.thread_id)
                                                if "can't send you direct messages" in m["content"]])
        assert f"<@{bob.id}>" in notice[0]["content"]
        # ... and My hand answers him privately, with the picture.
        it = await fake.answered(await fake.click(bob, int(notice[0]["id"]), custom_ids(notice[0])[0][1]))
        hand = await fake.wait_until(lambda: [m for m in fake.reply_messages(it) if m["attachments"]])
        hand = hand[-1]
        assert hand["flags"] & 64 and hand["attachments"][0]["filename"] == "hand.png"
        assert "Your hand" in hand["content"]
        # A non-player gets a polite no.
        await _refused(fake, await fake.click(carol, int(notice[0]["id"]), custom_ids(notice[0])[0][1]),
                       "not playing")

        moves = 0
        restarted = False
        stale_checked = False
        old_post = None
        while (await table.summary()).status != "over":
            await collect_secrets()
            summary = await table.summary()
            post = table.latest_post()
            if moves % 15 == 7 and len(summary.waiting_for) == 1:
                # Out of turn: the other player presses the turn post's buttons and types a move.
                waiting = summary.seats[summary.waiting_for[0]].user_id
                other = bob if waiting == alice.id else alice
                seq_before = summary.seq
                draw = [c for _, c in custom_ids(post) if c.endswith(":draw") or c.endswith(":claim")]
                if draw:
                    await _refused(fake, await fake.click(other, int(post["id"]), draw[0]), "not your turn")
                await _refused(fake, await fake.slash(other, "draw", channel_id=table.thread_id, card="deck"),
                               "not your turn")
                await _refused(fake, await fake.slash(carol, "claim", channel_id=table.thread_id,
                                                      route="Paris - Wien"), "not playing")
                await _refused(fake, await fake.slash(carol, "draw", channel_id=table.thread_id, card="deck"),
                               "not playing")
                assert (await table.summary()).seq == seq_before
            if old_post is not None and not stale_checked and old_post["id"] != post["id"]:
                stale = [c for _, c in custom_ids(old_post) if re.search(r":\d+:draw$", c)]
                if stale:
                    who = [u for u in (alice, bob) if u.id == summary.seats[summary.waiting_for[0]].user_id][0]
                    seq_before = summary.seq
                    await _refused(fake, await fake.click(who, int(old_post["id"]), stale[0]), "already happened")
                    assert (await table.summary()).seq == seq_before
                    stale_checked = True
            if moves >= 10 and old_post is None and any(re.search(r":\d+:draw$", c) for _, c in custom_ids(post)):
                old_post = post  # a turn post with a Draw button, to press once it is stale
            if moves == 40 and not restarted:
                # Restart: a new client and service on the same database. The next move is made
                # with the buttons of the post the old process made.
                await running.stop()
                running = await start_bot(fake, db, seed=6)
                table.service = running.service
                table.desk = running.bot.desk
                restarted = True
                assert table.latest_post()["id"] == post["id"]
            if moves == 20:
                # The public status is text in the post: points, trains, cards, tickets, stations.
                assert re.search(r"\*\*Alice\*\* — \d+ points? · \d+ trains? · \d+ cards? · \d stations? left · "
                                 r"\d+ tickets?", post["content"]), post["content"]
            await table.play_one([alice, bob])
            moves += 1
        assert restarted and stale_checked

        # The end: final board, scores picture, revealed tickets, stored for /ttr results stats.
        final = [m for m in fake.thread_messages(table.thread_id) if "Final scores" in m["content"]]
        assert len(final) == 1
        assert sorted(a["filename"] for a in final[0]["attachments"]) == ["board.png", "replay.gif", "scores.png",
                                                                          "tickets.png"]
        # Every score line, adding up to each total (stations kept included: this is Europe).
        sums = re.findall(r"^   Routes (\d+)(.*) = (\d+)$", final[0]["content"], re.M)
        assert len(sums) == 2
        for routes, rest, total in sums:
            parts = [int(n.replace("−", "-")) for n in re.findall(r" ([+−]\d+)(?= ·|$)", rest)]
            assert int(routes) + sum(parts) == int(total)
        stats = await fake.answered(await fake.slash(alice, "results stats"))
        await fake.wait_until(lambda: "1 games" in fake.reply_messages(stats)[-1]["content"])  # with its picture
        assert [a["filename"] for a in fake.reply_messages(stats)[-1]["attachments"]] == ["stats.png"]

        # Every interaction was answered, in time.
        assert fake.interactions
        for interaction in fake.interactions.values():
            assert interaction.latency is not None, interaction.payload["data"]
            assert interaction.latency < DEADLINE
        assert not fake.errors

        # Nothing secret in public (the final post reveals the tickets on purpose).
        assert secrets
        assert public_leaks(fake, secrets, revealed_in=[final[0]["id"]]) == []
        # Alice (DMs open) got her hand by DM; Bob's DMs were never delivered.
        assert any(a["filename"] == "hand.png" for m in fake.dms_to(alice) for a in m["attachments"])
        assert not fake.dms_to(bob)
    finally:
        await running.stop()
        await fake.stop()


async def test_a_dice_game_through_the_dice_panel(tmp_path):
    """Two people play a Dice Expansion game on Europe through buttons and menus for a while:
    each turn post shows the roll and everyone's tokens, the buttons are the dice panel's, the
    re-roll menu names the faces, and nothing secret reaches the thread."""
    fake = FakeDiscord()
    await fake.start()
    alice = fake.add_user("Alice")
    bob = fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", seed=8)
    try:
        table = await Table.open(fake, running.service, alice, [bob], dice=True)
        table.desk = running.bot.desk
        g = table.game_id
        gmap = load_map((await running.service.reads.view(g, None)).map_id)
        secrets: set[str] = set()
        seen_buttons: set[str] = set()
        for _ in range(30):
            for u in (alice, bob):
                v = await running.service.reads.view(g, u.id)
                secrets.update(ticket_label(gmap, t) for t in list(v.me.tickets or ()) + v.pending.offer_of(v.you))
            post = table.latest_post()
            summary = await table.summary()
            if not summary.waiting_for:
                break
            v = await running.service.reads.view(g, None)
            if v.pending.kind == "dice_roll":
                name = summary.seats[summary.waiting_for[0]].name
                assert f"🎲 {name}'s dice: " in post["content"]
                assert "Tokens left in the supply" in post["content"] and "🪙" in post["content"]
                assert "train card" not in post["content"]
            seen_buttons.update(label for label, _ in custom_ids(post))
            await table.play_one([alice, bob])
        assert {"Re-roll", "Claim", "Tickets", "Station", "No action", "My hand"} <= seen_buttons
        assert not any("_" in label for label in seen_buttons)
        # The re-roll menu names the faces kept.
        for _ in range(10):
            if (await running.service.reads.view(g, None)).pending.kind == "dice_roll":
                break
            await table.play_one([alice, bob])
        summary = await table.summary()
        v = await running.service.reads.view(g, None)
        assert v.pending.kind == "dice_roll"
        who = next(u for u in (alice, bob) if u.id == summary.seats[summary.waiting_for[0]].user_id)
        post = table.latest_post()
        reroll = [c for label, c in custom_ids(post) if label == "Re-roll"]
        it = await fake.answered(await fake.click(who, int(post["id"]), reroll[0]))
        panel = fake.reply_messages(it)[-1]
        assert "🎲 Your dice: " in panel["content"]
        options = [o["label"] for comp in panel["components"] for c in comp["components"]
                   for o in c.get("options", [])]
        assert options and all(o.startswith(("keep ", "re-roll all")) for o in options), options
        assert secrets
        for item in fake.public:
            for s in secrets:
                assert s not in item.text, f"secret {s!r} in public {item.where}"
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
