"""Alsace: calling time (seed [A:62]; AMBIGUITIES A11, X4, X5).

"When your wagon stock becomes less than 3, you may call time – then each player has 1 more
turn before the game closes. If your stock becomes zero, you must call time – you may use your
final turn to draw cards or do nothing."

A11: at the end of any of his own turns, a player with 0-2 wagons may call time; at 0 he must
(automatically). The choice is a decision of its own ("call_time"), put to that player right
after his turn, before the next player acts; the next player's turn is then resumed. After the
call every player, the caller included, has exactly one more turn, starting left of the
caller; later calls are ignored (X5). In a final turn a player may pass (X4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action, Pass, register
from engine.core import Passed
from engine.decisions import Decision
from engine.errors import IllegalAction
from engine.events import Payload
from engine.rules.module import RuleModule

if TYPE_CHECKING:
    from engine.core import Game


# --- the decisions this rule opens -----------------------------------------------------------
@dataclass(frozen=True)
class ChooseCallTime(Decision):
    """Alsace: the player who may call time says whether they do."""

    kind = "call_time"
    offers: Sequence[Any]
    caller: int
    resume: dict[str, Any]  # the decision to come back to



# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TimeNotCalled(Payload):
    kind = "time_not_called"
    player: int


OFFER_KEY = "call_time_offer"


@register
@dataclass(slots=True, unsafe_hash=True)
class CallTime(Action):
    """Answer the call-time question: `call` true to call time, false to play on."""

    TYPE: ClassVar[str] = "call_time"
    DOES: ClassVar[str] = "call time"
    call: bool = True


@dataclass(frozen=True)
class CallTimeEnd(RuleModule):
    """The end of an Alsace game: `may_below` wagons or fewer may call, 0 must."""

    name: ClassVar[str] = "end_trigger"
    events: ClassVar[tuple[str, ...]] = ("time_not_called", "passed")
    actions: ClassVar = {"call_time": (CallTime,), "turn": (Pass,)}
    prompts: ClassVar = {"call_time": "say whether you call time"}

    may_at: int = 2

    def on_turn_end(self, game: Game) -> None:
        s = game.state
        seat = s.current
        if s.status != "playing" or s.final_turns_left is not None:
            return
        trains = game.player(seat).trains
        if trains == 0:
            game.trigger_final_round(seat, f"{game.name(seat)} has no wagons left and must call time")
        elif trains <= self.may_at:
            s.extra[OFFER_KEY] = seat

    def on_turn_start(self, game: Game) -> None:
        s = game.state
        caller = s.extra.pop(OFFER_KEY, None)
        if caller is None:
            return
        offers: list[list[str] | None] = [None] * game.n_players
        offers[caller] = []
        resume = dict(s.pending)
        game.set_pending("call_time", offers=offers, caller=caller, resume=resume)

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        s = game.state
        kind = s.pending.get("kind")
        if kind == "call_time":
            return [CallTime(seat, True), CallTime(seat, False)]
        if kind == "turn" and s.final_turns_left is not None:
            return [Pass(seat)]  # A11: any final turn may be passed
        return []

    def apply(self, game: Game, action: Action) -> None:
        s = game.state
        if isinstance(action, CallTime):
            caller = s.pending["caller"]
            resume = s.pending["resume"]
            s.pending = resume
            if action.call:
                game.trigger_final_round(caller, f"{game.name(caller)} called time")
                # The caller's turn is already over: the turn now resumed is the first of the
                # final round (A11), so it must count.
                game.triggered_now = False
            else:
                game.emit(TimeNotCalled(player=caller))
            return
        assert isinstance(action, Pass)
        if s.final_turns_left is not None:
            game.emit(Passed(player=action.player))
            game.end_turn()
            return
        # Outside the final round: the core's pass, allowed only when nothing else is (X4).
        if s.pending.get("kind") != "turn":
            raise IllegalAction("You cannot pass now.", "cannot_pass")
        game.pass_turn(action)
