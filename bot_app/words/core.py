"""The core's own words (engine/game.py): the start and end of the game, turns, the final
round, the reshuffled deck, passing when nothing else is possible (X4), and each player's
points and trains."""

from __future__ import annotations

import re

from bot_app.words.base import Ctx, Doing, Event, Words, data, hidden, plural, public, quiet, their
from engine.actions import Action


def _game_started(e: Event, c: Ctx, who: str) -> str:
    first = data(e, "first_player")
    return f"🚂 The game began; {c.name(first)} plays first." if isinstance(first, int) else "🚂 The game began."


def _deck_reshuffled(e: Event, c: Ctx, who: str) -> str:
    size = data(e, "size")
    if isinstance(size, int):
        return f"The discard pile was shuffled into a new deck of {plural(size, 'card')}."
    return "The discard pile was shuffled into a new deck."


_ONE_THING = re.compile(r"\b1 (train|wagon|card|ticket)s\b")


def _final_round(e: Event, c: Ctx, who: str) -> str:
    # The engine words the reason with the player's name ("Ann has 2 trains left", "Ann called
    # time"); only the plural of a count of one needs mending.
    reason = data(e, "reason")
    reason = _ONE_THING.sub(r"1 \1", reason) if isinstance(reason, str) and reason else \
        f"{c.name(data(e, 'player'))} is almost out of trains"
    return f"🏁 Final round: {reason}. Everyone, {c.name(data(e, 'player'))} included, plays one more turn."


def _passed(e: Event, c: Ctx, who: str) -> str:
    return f"{who} passed (there was nothing else to do)"


def deadlock_line(e: Event, c: Ctx, who: str) -> str:
    return "Nobody can move any more, so the game ends."


def _undone(e: Event, c: Ctx, who: str) -> str:
    return f"↩️ {who} took back {their(who)} last move"


def _pass_label(a: Action, c: Ctx) -> str:
    return "pass (there is nothing else you can do)"


class CoreWords(Words):
    """Not a rule module: the words for what the core does itself (`engine.rules.module.
    CORE_EVENTS`) and for the core's pass."""

    events = {
        "game_started": public(_game_started),
        "turn_started": quiet(),
        "deck_reshuffled": public(_deck_reshuffled),
        "shuffle": hidden(),
        "final_round": public(_final_round),
        "game_over": public(lambda e, c, who: "🏆 The game is over."),
        "passed": public(_passed),
        "deadlock": public(deadlock_line),
        "move_undone": public(_undone),
    }
    actions = {"pass": Doing(_pass_label, "Pass", "⏭️"),
               "undo": Doing(lambda a, c: "take back your last move", "Undo", "↩️", each=True,
                             short=lambda a, c: "Undo")}
    waiting = {"turn": "➡️ {who}, it's your turn."}

    def status(self, c: Ctx, seat: int) -> list[str]:
        p = c.v.players[seat]
        return [f"{p.route_points} {'point' if p.route_points == 1 else 'points'}", plural(p.trains, "train")]

    def hand(self, c: Ctx) -> list[str]:
        me = c.v.me
        if me is None:
            return []
        return [f"🚃 {plural(me.trains, 'train')} left · {plural(me.route_points, 'point')} from routes so far"]
