"""`/ttr rules lesson:` through the loopback Discord (issue 27, items 2 and 3): a guided game against
the computer in a private thread, each step told there with a Hint button, played with the
real buttons and commands; a move off the step gets one kind sentence and the step repeats; a
restart loses nothing and `/ttr rules lesson:` again resumes at the same step; a hint is answered
privately, and refused at a table without hints; nothing secret shows in public."""

from __future__ import annotations

from app import tutorial
from bot_app.presentation.text import ticket_label
from engine.maps import load_map
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.leaks import public_leaks
from tests.fake_discord.renderer import StubRenderer
from tests.fake_discord.server import custom_ids

STEP_MARK = "📘 **Tutorial · step"


def _idle(desk):
    return lambda: desk.busy == 0


def _notices(fake, thread_id):
    return [m["content"] for m in fake.thread_messages(thread_id) if STEP_MARK in m["content"]
            or "Welcome to Ticket to Ride" in m["content"]]


async def _reply(fake, running, it):
    await fake.answered(it)
    await fake.wait_until(lambda: running.bot.desk.busy == 0, timeout=20)
    return fake.reply_messages(it)[-1]


async def _secrets(running, game_id, gmap):
    loaded = await running.service.loader.load(game_id)
    out = set()
    for p in loaded.state.players:
        out.update(ticket_label(gmap, t) for t in p.tickets)
    def walk(x):  # every ticket id the pending decision holds (the offers)
        if isinstance(x, str) and x in gmap.tickets:
            out.add(ticket_label(gmap, x))
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list | tuple):
            for v in x:
                walk(v)

    walk(dict(loaded.state.pending))
    return out


async def test_a_tutorial_is_played_to_its_end_in_a_private_thread_and_survives_a_restart(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice = fake.add_user("Alice")
    db = tmp_path / "tutorial.sqlite3"
    running = await start_bot(fake, db, renderer=StubRenderer(), seed=3)
    gmap = load_map("europe")
    secrets: set[str] = set()
    try:
        opened = await _reply(fake, running, await fake.slash(alice, "rules", lesson="europe"))
        assert opened["flags"] & 64 and "Your tutorial" in opened["content"]
        thread_id = next(int(c["id"]) for c in fake.channels.values() if c["type"] == 12)
        assert fake.channels[thread_id]["members"] == [alice.id]  # a private thread, with the player in it
        place = await running.service.tutorial.tutorial_of(fake.guild_id, alice.id)
        assert place is not None and place.step == 0
        table = Table(fake, running.service, place.game_id, thread_id, 0)
        table.desk = running.bot.desk
        await table.wait_posted()
        await fake.wait_until(lambda: _notices(fake, thread_id))
        assert "step 1 of" in _notices(fake, thread_id)[-1] and "Choose tickets" in _notices(fake, thread_id)[-1]
        lesson = place.lesson
        wrong_tried = restarted = hinted = False
        for _ in range(40):
            place = await running.service.tutorial.tutorial_of(fake.guild_id, alice.id)
            assert place is not None
            if place.step >= len(lesson.steps):
                break
            secrets |= await _secrets(running, place.game_id, gmap)
            step = lesson.steps[place.step]
            summary = await table.summary()
            legal = await running.service.reads.legal_actions(place.game_id, alice.id)
            fitting = [a for a in legal if tutorial.fits(step, a, gmap)]
            if step.id == "draw" and not wrong_tried:
                # a move off the step: one kind sentence, privately; nothing changes, the step repeats
                panel = await _reply(fake, running, await fake.slash(alice, "tickets", channel_id=thread_id))
                (confirm,) = [c for _, c in custom_ids(panel) if ":do:" in c]
                refusal = await _reply(fake, running, await fake.click(alice, int(panel["id"]), confirm))
                assert refusal["flags"] & 64 and "drawing a train card" in refusal["content"]
                assert (await table.summary()).seq == summary.seq
                wrong_tried = True
            if step.id == "claim" and not restarted:
                # leave, the bot restarts, and the lesson asked for again resumes at the same step
                await running.stop()
                running = await start_bot(fake, db, renderer=StubRenderer(), seed=3)
                table.service, table.desk = running.service, running.bot.desk
                back = await _reply(fake, running, await fake.slash(alice, "rules", lesson="europe"))
                assert back["flags"] & 64 and f"<#{thread_id}>" in back["content"]
                assert f"step {place.step + 1} of" in back["content"]
                restarted = True
            if not hinted:
                notice = next(m for m in reversed(fake.thread_messages(thread_id))
                              if STEP_MARK in m["content"])
                (cid,) = [c for label, c in custom_ids(notice) if label == "Hint"]
                answer = await _reply(fake, running, await fake.click(alice, int(notice["id"]), cid))
                assert answer["flags"] & 64 and answer["content"].startswith("💡 I would")
                hinted = True
            action = fitting[0] if fitting else (await running.service.tutorial.hint(place.game_id,
                                                                                     alice.id)).hint.action
            await table.perform(alice, action, legal, summary.seq)
            await table.wait_posted()
            await fake.wait_until(_idle(running.bot.desk), timeout=20)
        else:
            raise AssertionError("the lesson did not end")
        await fake.wait_until(lambda: any("That is every move" in m["content"]
                                          for m in fake.thread_messages(thread_id)))
        shown = [n for n in _notices(fake, thread_id) if STEP_MARK in n]
        # every step was told once, in order (the last one, to read, at the lesson's end)
        assert [int(n.split(STEP_MARK)[1].split()[0]) for n in shown] == list(range(1, len(lesson.steps) + 1))
        assert wrong_tried and restarted and hinted
        assert public_leaks(fake, secrets, pictures=False) == []
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


async def test_a_hint_is_refused_privately_at_a_table_without_hints(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "nohints.sqlite3", renderer=StubRenderer(), seed=4)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="usa")
        refusal = await _reply(fake, running, await fake.slash(alice, "turn hint", channel_id=table.thread_id))
        assert refusal["flags"] & 64 and "gives no hints" in refusal["content"]
        # with hints: on at /ttr new, the same command answers with a move, privately
        hinted = await Table.open(fake, running.service, bob, [alice], variant="usa", hints=True)
        summary = await hinted.summary()
        who = alice if summary.seats[summary.waiting_for[0]].user_id == alice.id else bob
        answer = await _reply(fake, running, await fake.slash(who, "turn hint", channel_id=hinted.thread_id))
        assert answer["flags"] & 64 and answer["content"].startswith("💡 I would")
        # My hand offers the hint too, while it is the player's move — only where the table gives hints
        for t, user, offered in ((hinted, who, True), (table, alice, False)):
            post = t.latest_post()
            (hand,) = [c for label, c in custom_ids(post) if label == "My hand"]
            mine = await _reply(fake, running, await fake.click(user, int(post["id"]), hand))
            assert mine["flags"] & 64 and ("Hint" in [label for label, _ in custom_ids(mine)]) is offered
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


async def test_without_private_threads_the_tutorial_goes_on_in_dms(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice = fake.add_user("Alice")
    running = await start_bot(fake, tmp_path / "dm.sqlite3", renderer=StubRenderer(), seed=5)
    try:
        await fake.deny(fake.channel_id, "CREATE_PRIVATE_THREADS")
        opened = await _reply(fake, running, await fake.slash(alice, "rules", lesson="usa"))
        assert opened["flags"] & 64 and "direct messages" in opened["content"]
        assert not any(c["type"] == 12 for c in fake.channels.values())
        dm = fake.dm_channel(alice)
        assert dm is not None
        await fake.wait_until(lambda: any(STEP_MARK in m["content"] for m in fake.dms_to(alice)), timeout=20)
        assert any("· move" in m["content"] for m in fake.dms_to(alice))  # the turn post, in the DMs
        # a move typed in the DMs acts on the tutorial (the player's only game)
        place = await running.service.tutorial.tutorial_of(fake.guild_id, alice.id)
        assert place is not None and (await running.service.reads.game(place.game_id)).thread_id == dm
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
