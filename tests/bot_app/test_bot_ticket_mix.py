"""`/ttr tickets short: long:` (cogs/play.py) and the ticket draws' labels under the Dice
Expansion in Germany, where each dice draw announces its mix of short and long tickets (D7):
the command matches dice draws too, and draws paid with the same dice are told apart by their
mix."""

from __future__ import annotations

from bot_app.presentation.words.wording import wording
from engine.actions import KeepTickets
from engine.chance import RiggedDice
from engine.game import apply, legal_actions, new_game, view
from engine.rules.dice import DrawTicketsWithDice
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer
from tests.fake_discord.server import select_options


def _germany_dice_turn(faces: list[str]):
    """A 2-player Germany dice game after the opening choice, the first player to roll `faces`."""
    state, _ = new_game("germany", 2, 5, {"dice": True})
    dice = RiggedDice(faces)
    while state.pending.get("kind") == "choose_tickets":
        seat = next(s for s, offer in enumerate(state.pending["offers"]) if offer is not None)
        legal = legal_actions(state, seat)
        keeps = [a for a in legal if isinstance(a, KeepTickets)]
        state, _ = apply(state, max(keeps, key=lambda a: len(a.keep)) if keeps else legal[0], dice)
    return state


def test_every_dice_ticket_draw_of_germany_has_a_label_of_its_own():
    state = _germany_dice_turn(["station", "wild", "station", "single", "double"])
    seat = state.current
    draws = [a for a in legal_actions(state, seat) if isinstance(a, DrawTicketsWithDice)]
    seen = view(state, seat)
    w = wording(seen)
    labels = [w.label(a, w.ctx(seen)) for a in draws]
    assert len(set(labels)) == len(labels) == len(draws), labels
    two = [label for a, label in zip(draws, labels, strict=True) if dict(a.payment) == {"station": 1, "wild": 1}]
    assert sorted(two) == [
        "draw 2 destination tickets (1 long and 1 short) with 1 station die and 1 wild die",
        "draw 2 destination tickets (2 long) with 1 station die and 1 wild die",
        "draw 2 destination tickets (2 short) with 1 station die and 1 wild die",
    ]


async def test_ttr_tickets_short_long_matches_the_dice_draws_of_that_mix(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "mix.sqlite3", renderer=StubRenderer(), seed=24)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="germany", dice=True)
        table.desk = running.bot.desk
        for _ in range(60):  # the opening choice, then turns until a roll can pay a 2-ticket draw
            summary = await table.summary()
            if summary.status == "playing":
                mover = table.user_of([alice, bob], summary.waiting_for[0], summary)
                legal = await running.service.reads.legal_actions(table.game_id, mover.id)
                pairs = [a for a in legal if isinstance(a, DrawTicketsWithDice)
                         and sum(n for _, n in a.payment) == 2 and dict(a.mix) == {"long": 1, "short": 1}]
                if pairs:
                    break
            await table.play_one([alice, bob])
        else:
            raise AssertionError("no roll could pay for two tickets")
        it = await fake.answered(await fake.slash(mover, "tickets", channel_id=table.thread_id, short=1, long=1))
        panel = fake.reply_messages(it)[-1]
        if len(pairs) == 1:
            assert "Confirm:" in panel["content"] and "(1 long and 1 short)" in panel["content"], panel["content"]
            chosen = pairs[0]
        else:
            options = [o for row in panel["components"] for c in row["components"] if c.get("type") == 3
                       for o in c["options"]]
            assert len(options) == len(pairs) and all("(1 long and 1 short)" in o["label"] for o in options), options
            assert len({o["label"] for o in options}) == len(options)
            sel, value, _ = select_options(panel)[0]
            panel = fake.reply_messages(await fake.answered(await fake.click(mover, int(panel["id"]), sel,
                                                                             [value])))[-1]
            chosen = next(a for a in pairs if f"{legal.index(a)}." in value)
        confirm = next(c["custom_id"] for row in panel["components"] for c in row["components"]
                       if c.get("label") == "Confirm")
        await fake.answered(await fake.click(mover, int(panel["id"]), confirm))
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        after = await running.service.reads.view(table.game_id, mover.id)
        offer = after.pending.offer_of(after.you)
        gmap = wording(after).rules.game_map
        assert after.pending.kind == "choose_tickets"
        assert sorted(gmap.tickets[t].deck for t in offer) == ["long", "short"]
        assert chosen.mix == (("long", 1), ("short", 1))
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
