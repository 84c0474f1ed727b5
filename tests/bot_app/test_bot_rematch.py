"""Rematch, end to end through the real client and the loopback Discord (issue 27, item 5):
under the final post, **Rematch** opens the same table again once every human player pressed
it — same board and options, same seats in the same order (the computer seat too, with its
level), a new seed, and as first player the seat after the one that began (Alsace's A26). Each
press is stored (it survives a restart); a second press, a spectator's press and a press after
the rematch opened are refused in one private sentence. Should the bot stop between opening
the table and starting it, the next press finishes the job."""

from __future__ import annotations

import json

from ai.levels import make_ai
from app import Actor, StaleAction
from app.rematch_ops import next_first_player, rematch_options
from tests.fake_discord import FakeDiscord, custom_ids
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer


def test_the_next_game_starts_one_seat_further_clockwise():
    assert [next_first_player(s, 3) for s in (0, 1, 2)] == [1, 2, 0]
    assert next_first_player(None, 2) == 1


def test_the_rematch_of_a_lesson_is_a_game_with_hints_and_no_lesson():
    lesson = {"tutorial": "europe", "hints": True, "stations": 3, "first_player": 0}
    assert rematch_options(lesson, 0, 2) == {"hints": True, "stations": 3, "first_player": 1}
    table = {"dice": True, "first_player": 2}
    assert rematch_options(table, 2, 3) == {"dice": True, "first_player": 0}


async def _finish(service, game_id: int) -> None:
    """The players (and the computer seat) play the greedy AI's moves to the end, through the
    service: this file is about what comes after the game."""
    ai = make_ai("greedy", 3)
    while (summary := await service.reads.game(game_id)).status != "over":
        seat = summary.waiting_for[0]
        user = summary.seats[seat].user_id
        if user is None:
            await service.moves.play_bots(game_id)
            continue
        view = await service.reads.view(game_id, user)
        legal = await service.reads.legal_actions(game_id, user)
        try:
            await service.moves.submit(game_id, Actor.user(user), ai.choose(view, legal), summary.seq)
        except StaleAction:  # the running bot moved the computer seat meanwhile: look again
            continue


def _answer(fake: FakeDiscord, it) -> dict:
    msgs = fake.reply_messages(it)
    assert msgs, "every press is answered"
    return msgs[-1]


def _private(fake: FakeDiscord, it) -> str:
    answer = _answer(fake, it)
    assert answer["flags"] & 64, f"a refusal is private: {answer['content']!r}"
    return answer["content"]


async def test_rematch_opens_the_same_table_once_everyone_pressed(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    db = tmp_path / "rematch.sqlite3"
    running = await start_bot(fake, db, renderer=StubRenderer(), seed=5)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="alsace", ai_seats=1,
                                 first="3")
        g = table.game_id
        before = await running.service.tables.lobby(g)
        await _finish(running.service, g)
        final = await fake.wait_until(lambda: next((m for m in fake.thread_messages(table.thread_id)
                                                    if "Final scores" in m["content"]), None))
        (rematch,) = [c for label, c in custom_ids(final) if label == "Rematch"]
        fid = int(final["id"])

        it = await fake.answered(await fake.click(carol, fid, rematch))
        assert _private(fake, it) == f"🚫 You are not playing in game #{g}."
        it = await fake.answered(await fake.click(alice, fid, rematch))
        said = _answer(fake, it)
        assert not said["flags"] & 64, f"the table sees who wants a rematch: {said}"
        assert said["content"] == f"🔁 Rematch of game #{g} — in: **Alice**; still to press **Rematch**: **Bob**."
        it = await fake.answered(await fake.click(alice, fid, rematch))
        assert "You already asked for a rematch" in _private(fake, it)
        await running.stop()

        running = await start_bot(fake, db, renderer=StubRenderer(), seed=6)  # Alice's press was stored
        it = await fake.answered(await fake.click(bob, fid, rematch))
        await fake.wait_until(lambda: "Everyone is in" in _answer(fake, it)["content"])
        new = await running.service.rematch.rematch_of(g)
        assert new is not None and new != g
        said = _answer(fake, it)["content"]
        assert said.startswith(f"🔁 Everyone is in: the rematch of game #{g} is game #{new} (<#")
        old, fresh = await running.service.reads.game(g), await running.service.tables.lobby(new)
        assert [(s.name, s.user_id, s.is_ai, s.ai_level) for s in fresh.seats] == \
            [(s.name, s.user_id, s.is_ai, s.ai_level) for s in before.seats]
        assert fresh.variant == "alsace" and fresh.turn_hours == before.turn_hours
        # A26: the finished game began with seat 3 (the host chose it), so its rematch with seat 1
        assert before.options["first_player"] == 2 and fresh.options["first_player"] == 0
        assert {k: v for k, v in fresh.options.items() if k != "first_player"} == \
            {k: v for k, v in before.options.items() if k != "first_player"}
        assert f"**{fresh.seats[0].name}** starts" in said
        rows = {r.id: r for r in [await running.service.store.games.get(g), await running.service.store.games.get(new)]}
        assert rows[new].seed is not None and rows[new].seed != rows[g].seed
        assert json.loads(rows[new].options_json)["first_player"] == 0
        # The new table is played in a thread of its own, made from its lobby message.
        assert fresh.thread_id is not None and fresh.thread_id != old.thread_id
        assert fake.channels[fresh.thread_id]["parent_id"] == str(fake.channel_id)
        summary = await running.service.reads.game(new)
        assert summary.status in ("setup", "playing")
        await fake.wait_until(lambda: any("· move " in m["content"] for m in fake.thread_messages(fresh.thread_id)))

        it = await fake.answered(await fake.click(bob, fid, rematch))
        assert _private(fake, it) == f"🚫 Game #{g} already had its rematch: game #{new} (<#{fresh.thread_id}>)."
        it = await fake.answered(await fake.click(alice, fid, rematch))
        assert "already had its rematch" in _private(fake, it)
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


async def test_a_rematch_opened_while_the_bot_stopped_is_finished_by_the_next_press(tmp_path):
    """The last press was stored and the table opened, but the bot stopped before it gave the
    table its thread (here: the press went to the service directly). The next press of the
    button posts the lobby and the thread and starts the game; on the USA board too the next
    seat starts."""
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "halfway.sqlite3", renderer=StubRenderer(), seed=8)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="usa")
        g = table.game_id
        await _finish(running.service, g)
        final = await fake.wait_until(lambda: next((m for m in fake.thread_messages(table.thread_id)
                                                    if "Final scores" in m["content"]), None))
        (rematch,) = [c for label, c in custom_ids(final) if label == "Rematch"]
        await running.service.rematch.press_rematch(g, alice.id)
        opened = await running.service.rematch.press_rematch(g, bob.id)
        assert opened.opened_now and opened.new_game_id is not None
        new = opened.new_game_id
        assert (await running.service.tables.lobby(new)).thread_id is None  # no thread yet: the bot "stopped"

        it = await fake.answered(await fake.click(alice, int(final["id"]), rematch))
        await fake.wait_until(lambda: "Everyone is in" in _answer(fake, it)["content"])
        fresh = await running.service.tables.lobby(new)
        assert fresh.thread_id is not None and fresh.status in ("setup", "playing")
        assert [s.user_id for s in fresh.seats] == [alice.id, bob.id]
        loaded = await running.service.loader.load(g)
        assert fresh.options["first_player"] == (loaded.state.first_player + 1) % 2
        it = await fake.answered(await fake.click(bob, int(final["id"]), rematch))
        assert "already had its rematch" in _private(fake, it)
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
