"""Taking back a move through the real client and the fake Discord: the **Undo** button on the
mover's confirmation and `/ttr turn undo` put the board back, and the turn post in the thread is
corrected in place (the same message, edited: the board and the numbers from before the
claim, the mover's turn again); a draw cannot be taken back, and neither can a move once the
game has gone on. The rules of undo: tests/engine/test_undo.py and the scenarios; the service:
tests/app/test_undo_service.py."""

from __future__ import annotations

import re
from typing import Any

from tests.fake_discord import FakeDiscord, User
from tests.fake_discord.driver import Table, _cid
from tests.fake_discord.harness import RunningBot, start_bot
from tests.fake_discord.renderer import StubRenderer


async def _idle(fake: FakeDiscord, running: RunningBot) -> None:
    await fake.wait_until(lambda: running.bot.desk.busy == 0)


def _said(fake: FakeDiscord, it: Any) -> str:
    msg = fake.reply_messages(it)[-1]
    assert msg["flags"] & 64, "answered privately"
    return msg["content"]


def _line_of(post: dict[str, Any], name: str) -> str:
    """A player's public numbers in a turn post."""
    return next(line for line in post["content"].splitlines() if line.startswith(f"**{name}** —"))


async def _until_a_claim(table: Table, users: list[User]) -> tuple[User, Any, list[Any], int]:
    """Draw from the deck until the player whose turn it is can claim a route: (that user,
    the claim, the legal moves, the seq)."""
    for _ in range(80):
        summary = await table.summary()
        user = table.user_of(users, summary.waiting_for[0], summary)
        legal = await table.service.reads.legal_actions(table.game_id, user.id)
        claims = [a for a in legal if a.TYPE == "claim_route"]
        if claims and all(a.TYPE != "draw_card" or summary.seq for a in legal):
            view = await table.service.reads.view(table.game_id, user.id)
            if view.pending.kind not in ("second_card",):
                return user, claims[0], legal, summary.seq
        draw = next(a for a in legal if a.TYPE == "draw_card" and a.to_json().get("slot") is None)
        await table.perform(user, draw, legal, summary.seq)
        await table.wait_posted()
        if table.desk is not None:
            await table.fake.wait_until(lambda: table.desk.busy == 0)
    raise AssertionError("nobody could claim")


async def test_undo_puts_the_board_back_and_corrects_the_turn_post_in_place(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    stub = StubRenderer()
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=stub, seed=4)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="usa")
        table.desk = running.bot.desk
        users = [alice, bob]
        while (await table.summary()).status == "setup":
            await table.play_one(users)
        g = table.game_id

        user, claim, legal, seq = await _until_a_claim(table, users)
        seat = next(s.seat for s in (await table.summary()).seats if s.user_id == user.id)
        before = table.latest_post()
        assert before is not None
        name = (await table.summary()).seats[seat].name
        numbers_before = _line_of(before, name)

        its = await table.perform(user, claim, legal, seq)
        await table.wait_posted()
        await _idle(fake, running)
        confirmation = fake.reply_messages(its[-1])[-1]
        assert "You claimed" in confirmation["content"]
        after_claim = table.latest_post()
        assert after_claim is not None and after_claim["id"] != before["id"]  # the next player's turn post
        assert _line_of(after_claim, name) != numbers_before
        posts = [m["id"] for m in fake.thread_messages(table.thread_id)]
        boards = stub.calls.count("board")

        # Undo, from the confirmation.
        undo = _cid(confirmation, ":undo")
        assert undo == f"ttr:v1:{g}:{seq + 1}:undo"
        it = await fake.answered(await fake.click(user, int(confirmation["id"]), undo))
        assert "Taken back" in _said(fake, it)
        await _idle(fake, running)
        corrected = fake.messages[int(after_claim["id"])]
        assert [m["id"] for m in fake.thread_messages(table.thread_id)] == posts  # no new message: an edit
        assert corrected["edited_timestamp"] is not None
        assert re.search(rf"· move {seq + 2}\b", corrected["content"]), corrected["content"]
        assert _line_of(corrected, name) == numbers_before  # the numbers from before the claim
        assert f"<@{user.id}>" in corrected["content"]  # and it is the mover's turn again
        assert stub.calls.count("board") == boards + 1  # the board drawn again, for that post
        assert claim.route not in (await running.service.reads.view(g, None)).route_owner
        summary = await table.summary()
        assert summary.waiting_for == (seat,) and summary.seq == seq + 2
        # The next player, pinged for the turn by DM, is told it was taken back — once.
        other = next(u for u in users if u.id != user.id)
        dms = [m["content"] for m in fake.messages.values() if int(m["channel_id"]) == fake.dm_channel(other)]
        assert any(c.startswith(f"It's your turn in game #{g}") for c in dms), dms
        told = [c for c in dms if "took back their move" in c]
        assert told == [f"↩️ **{name}** took back their move in game #{g} (https://discord.com/channels/"
                        f"{fake.guild_id}/{table.thread_id}), so it is their turn again, not yours yet. I'll message "
                        "you when it is your turn."], dms

        # The answer replaced the button; nothing more to take back.
        assert not [c for c in str(confirmation["components"]).split("'") if c.endswith(":undo")]
        it = await fake.answered(await fake.slash(user, "turn undo", channel_id=table.thread_id))
        assert "no move of yours to take back" in _said(fake, it)
        # A draw cannot be taken back.
        legal = await running.service.reads.legal_actions(g, user.id)
        draw = next(a for a in legal if a.TYPE == "draw_card" and a.to_json().get("slot") is None)
        await table.perform(user, draw, legal, summary.seq)
        await _idle(fake, running)
        it = await fake.answered(await fake.slash(user, "turn undo", channel_id=table.thread_id))
        assert "no move of yours to take back" in _said(fake, it)

        # /ttr turn undo takes back a claim too.
        user, claim, legal, seq = await _until_a_claim(table, users)
        await table.perform(user, claim, legal, seq)
        await table.wait_posted()
        await _idle(fake, running)
        it = await fake.answered(await fake.slash(user, "turn undo", channel_id=table.thread_id))
        assert "Taken back" in _said(fake, it)
        await _idle(fake, running)
        assert claim.route not in (await running.service.reads.view(g, None)).route_owner
        assert re.search(rf"· move {seq + 2}\b", table.latest_post()["content"])

        # Once the next player has acted, the move stays: the Undo button says so.
        user, claim, legal, seq = await _until_a_claim(table, users)
        its = await table.perform(user, claim, legal, seq)
        await table.wait_posted()
        await _idle(fake, running)
        confirmation = fake.reply_messages(its[-1])[-1]
        await table.play_one(users)  # the next player draws
        it = await fake.answered(await fake.click(user, int(confirmation["id"]), _cid(confirmation, ":undo")))
        assert "already happened" in _said(fake, it)
        assert claim.route in (await running.service.reads.view(g, None)).route_owner
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
