"""Planned moves end to end (issue 29): the real discord.py client against the loopback fake
Discord, a 4-player USA game where every player plans their next turn — by `/ttr plan set`
with the short text, or with **Plan my next turn** under the turn post — while someone else is
to move. Checked: each plan plays its player's turn the moment it arrives, without a ping (no
turn DM for it, a private line instead); the turn post shows the planned moves like any
other; a typed plan that cannot be read is refused in one sentence; nothing of a plan (nor a
hand or ticket) reaches anything public; every interaction is answered in time."""

from __future__ import annotations

import json

from bot_app.presentation.text import ticket_label
from engine.maps import load_map
from tests.fake_discord import FakeDiscord, custom_ids
from tests.fake_discord.driver import DEADLINE, Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.leaks import public_leaks
from tests.fake_discord.renderer import StubRenderer

TYPED = "if shown loco: draw loco; else: draw blind, draw blind"


async def test_four_players_who_all_plan_play_without_pings(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    users = [fake.add_user(n) for n in ("Alice", "Bob", "Cat", "Dan")]
    # The stub renderer: pictures are not what this test is about (and the machine is shared).
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", seed=29, renderer=StubRenderer())
    try:
        table = await Table.open(fake, running.service, users[0], users[1:], variant="usa")
        table.desk = running.bot.desk
        g = table.game_id
        gmap = load_map("usa")
        while (await table.summary()).status == "setup":
            await table.play_one(users)
        # A plan that cannot be read: one sentence, privately, nothing stored.
        it = await fake.answered(await fake.slash(users[1], "plan", channel_id=table.thread_id, what="set",
                                                  plan="if raining: draw blind"))
        refusal = fake.reply_messages(it)[-1]
        assert refusal["flags"] & 64 and "can't read the condition" in refusal["content"]
        assert (await running.service.plans.plans_of(g, users[1].id)).plans == ()
        secrets: set[str] = set()
        planned_turns = 0
        by_button = False
        for _ in range(12):
            summary = await table.summary()
            if summary.status != "playing":
                break
            for u in users:
                v = await running.service.reads.view(g, u.id)
                secrets.update(ticket_label(gmap, t) for t in v.me.tickets or ())
            waiting = set(summary.waiting_for)
            for seat, s in enumerate(summary.seats):
                user = next(u for u in users if u.id == s.user_id)
                if seat in waiting or (await running.service.plans.plans_of(g, user.id)).plans:
                    continue
                by_button = not by_button
                if by_button:
                    post = table.latest_post()
                    plan_cid = next(c for label, c in custom_ids(post) if label == "Plan my next turn")
                    it = await fake.answered(await fake.click(user, int(post["id"]), plan_cid))
                    panel = fake.reply_messages(it)[-1]
                    assert panel["flags"] & 64 and "no plan" in panel["content"]
                    blind = next(c for label, c in custom_ids(panel) if label.startswith("Always"))
                    it = await fake.answered(await fake.click(user, int(panel["id"]), blind))
                else:
                    it = await fake.answered(await fake.slash(user, "plan", channel_id=table.thread_id, what="set",
                                                              plan=TYPED))
                answer = fake.reply_messages(it)[-1]
                assert answer["flags"] & 64 and "Plan saved" in answer["content"], answer["content"]
            before = summary.seq
            await table.play_one(users)
            await fake.wait_until(lambda: table.desk.busy == 0)
            planned_turns += sum(1 for d in await running.service.outbox.deliveries(g)
                                 if d.kind == "plan" and d.seq > before)
        assert planned_turns >= 6
        deliveries = await running.service.outbox.deliveries(g)
        plan_lines = [d for d in deliveries if d.kind == "plan"]
        assert all(d.payload["step"] is not None for d in plan_lines)
        # No planned turn was pinged: no turn DM to a planner at the commit their plan ran in.
        pinged = {(d.seq, d.user_id) for d in deliveries if d.kind == "turn"}
        assert not any((d.seq, d.user_id) in pinged for d in plan_lines)
        # Their moves are theirs in the log (the AI made none), and each planner heard privately.
        rows = await running.service.store.log.actions(g, after_seq=0)
        assert all(r.user_id is not None for r in rows)
        heard = {u.name for u in users if any("your plan played your turn" in m["content"] for m in fake.dms_to(u))}
        assert len(heard) >= 3, heard
        assert any(json.loads(r.action_json)["type"] == "draw_card" for r in rows)
        assert secrets
        assert public_leaks(fake, secrets, pictures=False) == []  # the stub draws every picture alike
        slow = [(i.payload["data"].get("custom_id") or i.payload["data"].get("name"), i.latency)
                for i in fake.interactions.values() if i.latency is None or i.latency >= DEADLINE]
        assert slow == []
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


async def test_with_dice_the_panel_plans_no_action_and_the_plan_plays_it(tmp_path):
    """The Dice Expansion has no train cards: the panel's one-press plan is no action (and no
    token), which plays the planner's turn when it comes."""
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", seed=3, renderer=StubRenderer())
    try:
        table = await Table.open(fake, running.service, alice, [bob], dice=True)
        table.desk = running.bot.desk
        while (await table.summary()).status == "setup":
            await table.play_one([alice, bob])
        summary = await table.summary()
        planner = bob if summary.seats[summary.waiting_for[0]].user_id == alice.id else alice
        post = table.latest_post()
        plan_cid = next(c for label, c in custom_ids(post) if label == "Plan my next turn")
        panel = fake.reply_messages(await fake.answered(await fake.click(planner, int(post["id"]), plan_cid)))[-1]
        labels = [label for label, _ in custom_ids(panel)]
        assert "Always: no action" in labels and "Always: two cards blind" not in labels
        none = next(c for label, c in custom_ids(panel) if label == "Always: no action")
        saved = fake.reply_messages(await fake.answered(await fake.click(planner, int(panel["id"]), none)))[-1]
        assert "Plan saved" in saved["content"], saved["content"]
        before = summary.seq
        while planner.id not in {(await table.summary()).seats[s].user_id for s in (await table.summary()).waiting_for}:
            if any(d.kind == "plan" for d in await running.service.outbox.deliveries(table.game_id) if d.seq > before):
                break
            await table.play_one([alice, bob])
        lines = [d for d in await running.service.outbox.deliveries(table.game_id) if d.kind == "plan"]
        assert lines and lines[0].payload["step"] == "fallback" and lines[0].payload["finished"]
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
