"""The core's own words (engine/game.py): the start and end of the game, turns, the final
round, the reshuffled deck, passing when nothing else is possible (X4), and each player's
points and trains."""

from __future__ import annotations

import re

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, hidden, public, quiet, their
from engine.actions import Action
from engine.core import DeckReshuffled, FinalRound, GameStarted


def _game_started(e: Event, c: Ctx, who: str) -> str:
    started = e.of(GameStarted)
    return c.t("core.began_first", who=c.name(started.first_player)) if started is not None else c.t("core.began")


def _deck_reshuffled(e: Event, c: Ctx, who: str) -> str:
    shuffled = e.of(DeckReshuffled)
    if shuffled is not None:
        return c.n("core.reshuffled_size", shuffled.size)
    return c.t("core.reshuffled")


_ONE_THING = re.compile(r"\b1 (train|wagon|card|ticket)s\b")
# The reasons the engine words with the player's name (engine/rules/end_of_game.py, call_time.py),
# after that name: read back to be said in the reader's language.
_TRAINS_LEFT = re.compile(r" has (\d+) trains? left")
_REASONS = {" has no wagons left and must call time": "core.final_reason.no_wagons",
            " called time": "core.final_reason.called_time"}


def _final_reason(c: Ctx, reason: object, name: str) -> str:
    """Why the final round began, in the reader's language (English words of an unknown reason
    are kept, with the plural of a count of one mended)."""
    if not isinstance(reason, str) or not reason:
        return c.t("core.final_reason.almost_out", who=name)
    rest = reason.removeprefix(name) if reason.startswith(name) else None
    if rest is not None and rest in _REASONS:
        return c.t(_REASONS[rest], who=name)
    trains = _TRAINS_LEFT.fullmatch(rest) if rest is not None else None
    if trains:
        return c.n("core.final_reason.trains", int(trains.group(1)), who=name)
    return _ONE_THING.sub(r"1 \1", reason)


def _final_round(e: Event, c: Ctx, who: str) -> str | None:
    final = e.of(FinalRound)
    if final is None:
        return None
    name = c.name(final.player)
    return c.t("core.final_round", reason=_final_reason(c, final.reason, name), who=name)


def _passed(e: Event, c: Ctx, who: str) -> str:
    return c.say("core.passed", who)


def deadlock_line(e: Event, c: Ctx, who: str) -> str:
    return c.t("core.deadlock")


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
        "game_over": public(lambda e, c, who: c.t("core.game_over")),
        "passed": public(_passed),
        "deadlock": public(deadlock_line),
        "move_undone": public(_undone),
    }
    actions = {"pass": Doing(_pass_label, "Pass", "⏭️"),
               "undo": Doing(lambda a, c: "take back your last move", "Undo", "↩️", each=True,
                             short=lambda a, c: "Undo")}
    waiting = {"turn": lambda c, who: c.t("waiting.turn", who=who)}

    def status(self, c: Ctx, seat: int) -> list[str]:
        p = c.v.players[seat]
        return [c.n("status.points", p.route_points), c.n("status.trains", p.trains)]

    def hand(self, c: Ctx) -> list[str]:
        me = c.v.me
        if me is None:
            return []
        return [c.t("hand.trains", trains=c.n("status.trains", me.trains),
                    points=c.n("hand.route_points", me.route_points))]
