"""Discarding tokens: "A player may freely discard some or all of his tokens at the end of his
turn, to draw different ones later." [D:28]

`discard_tokens` (`tokens`: `{single: n, double: m}`) is legal in every dice decision of the
player's own turn (`dice_roll`, `dice_action`, `dice_tunnel`, `dice_token`) and leaves that
decision open: it is not an action. Discarding earlier in the turn than its very end changes
nothing a player could gain: a token discarded at the end cannot be used that turn either, the
"started the turn with 3" block is fixed when the turn starts (D6), and room freed under the
cap of 3 could only buy back the tokens just discarded. The tokens go back to the supply at once.

One turn ends without such a decision after its outcome: a tunnel that failed or was given up
(D8 "his turn ends") gives back the tokens laid on it when no decision of the turn is left.
So when such a turn ends with tokens in the player's hand, it waits in `dice_discard` — the
end of the turn: `discard_tokens` (which then ends the turn) or `pass` to keep them all.
Without it a player holding 3 of a type again would start his next turn blocked (D6).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, Pass, register
from engine.cards import Cards, cards, count
from engine.decisions import Decision
from engine.errors import IllegalAction
from engine.events import Payload
from engine.rules.dice.faces import DOUBLE, SINGLE, TOKEN_TYPES
from engine.rules.dice.purse import dice_data, tokens
from engine.rules.module import RuleModule

if TYPE_CHECKING:
    from engine.core import Game


# --- the decisions this rule opens -----------------------------------------------------------
@dataclass(frozen=True)
class DiceDiscard(Decision):
    """The turn is ending over the token cap: discard down to it."""

    kind = "dice_discard"



# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TokensDiscarded(Payload):
    kind = "tokens_discarded"
    player: int
    tokens: dict[str, int]



@register
@dataclasses.dataclass(slots=True, unsafe_hash=True)
class DiscardTokens(Action):
    """Put these route tokens (`tokens`: single/double counts) back in the supply."""

    TYPE: ClassVar[str] = "discard_tokens"
    DOES: ClassVar[str] = "discard route tokens"
    tokens: Cards = ()


def _words(counts: dict[str, int], zeros: bool = True) -> str:
    """"2 single tokens and 1 double token" (`zeros`: also "0 double tokens")."""
    parts = [f"{counts.get(k, 0)} {k} token{'' if counts.get(k, 0) == 1 else 's'}" for k in TOKEN_TYPES
             if zeros or counts.get(k, 0)]
    return " and ".join(parts)


# The discards per (seat, single tokens held, double tokens held): made once and reused.
_DISCARDS: dict[tuple[int, int, int], list[Action]] = {}

TURN_DECISIONS = ("dice_roll", "dice_action", "dice_tunnel", "dice_token")
# The end of a turn whose tunnel failed or was given up, while the player holds tokens.
END_OF_TURN = "dice_discard"


@dataclasses.dataclass(frozen=True)
class DiceTokenDiscard(RuleModule):
    """`discard_tokens` during one's own dice turn (the decision stays open), and at the end of
    a turn whose tunnel failed or was given up (`dice_discard`: discard, or `pass`)."""

    name: ClassVar[str] = "dice_token_discard"
    events: ClassVar[tuple[str, ...]] = ("tokens_discarded",)
    actions: ClassVar = {**{kind: (DiscardTokens,) for kind in TURN_DECISIONS}, END_OF_TURN: (DiscardTokens, Pass)}
    prompts: ClassVar = {END_OF_TURN: "discard tokens or keep them, to end your turn"}

    def before_turn_end(self, game: Game) -> bool:
        turn = game.state.extra.get("dice", {}).get("turn")
        if not turn or not turn.get("tunnel_given_up") or turn.get("discard_offered"):
            return False
        turn["discard_offered"] = True
        if not any(tokens(game, turn["seat"]).values()):
            return False
        game.set_pending(END_OF_TURN)
        return True

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        if game.state.pending.get("kind") == END_OF_TURN:
            return [*self._discards(game, seat), Pass(seat)]
        return self._discards(game, seat)

    def _discards(self, game: Game, seat: int) -> list[Action]:
        held = tokens(game, seat)
        key = (seat, held.get(SINGLE, 0), held.get(DOUBLE, 0))
        hit = _DISCARDS.get(key)
        if hit is None:
            _, singles, doubles = key
            hit = _DISCARDS[key] = [DiscardTokens(seat, cards({SINGLE: s, DOUBLE: d}))
                                    for s in range(singles + 1) for d in range(doubles + 1) if s or d]
        return list(hit)

    def apply(self, game: Game, action: Action) -> None:
        at_the_end = game.state.pending.get("kind") == END_OF_TURN
        if isinstance(action, Pass):
            game.end_turn()
            return
        assert isinstance(action, DiscardTokens)
        seat = action.player
        odd = [name for name, _ in action.tokens if name not in TOKEN_TYPES]
        if odd:
            raise IllegalAction("Only single and double route tokens can be discarded.", "bad_token")
        if count(action.tokens) < 1:
            raise IllegalAction("Say which tokens to discard.", "bad_token")
        held = tokens(game, seat)
        for kind, n in action.tokens:
            if n > held.get(kind, 0):
                asked = _words(dict(action.tokens), zeros=False)
                raise IllegalAction(f"You hold {_words(held)}, so you cannot discard {asked}.", "not_enough_tokens")
        supply = dice_data(game)["supply"]
        for kind, n in action.tokens:
            held[kind] -= n
            supply[kind] += n
        game.emit(TokensDiscarded(player=seat, tokens=dict(action.tokens)))
        if at_the_end:
            game.end_turn()
