"""Route tokens: two unused dice buy one single or double token (D5, D14), `exchanges` times per
turn; at most 3 of a type, none of a type the player started the turn with 3 of (D6); 15 of
each in the supply. A token may be bought once the roll stands, before the action, and count
toward that action's claim ("the tokens may be used at once" [D:28], D8 revised): buying in
`dice_roll` ends the chance to re-roll (`dice_action` follows). After the action (or none),
`dice_token` offers what is left of the turn's exchanges. A tunnel given up buys none (D8)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, Pass, register
from engine.cards import Cards, cards, count
from engine.decisions import Decision
from engine.errors import IllegalAction
from engine.events import Payload
from engine.rules.dice.faces import DOUBLE, SINGLE, STATION, TOKEN_CAP, TOKEN_TYPES, WILD, face_counts
from engine.rules.dice.purse import dice_data, spend, this_turn, tokens, unused_dice
from engine.rules.module import RuleModule

if TYPE_CHECKING:
    from engine.core import Game


# --- the decisions this rule opens -----------------------------------------------------------
@dataclass(frozen=True)
class DiceToken(Decision):
    """The turn's action is done: buy a token with two unused dice, or not."""

    kind = "dice_token"



# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TokenTaken(Payload):
    kind = "token_taken"
    player: int
    token: str
    payment: dict[str, int]



@register
@dataclasses.dataclass(slots=True, unsafe_hash=True)
class BuyToken(Action):
    """Turn two unused dice (`payment`, any faces) into one token (`token`: single/double)."""

    TYPE: ClassVar[str] = "buy_token"
    DOES: ClassVar[str] = "take a route token"
    token: str = SINGLE
    payment: Cards = ()


# The token purchases per (seat, token types open, unused dice sorted).
_BUYS: dict[tuple[int, tuple[str, ...], tuple[str, ...]], list[BuyToken]] = {}


@dataclasses.dataclass(frozen=True)
class DiceTokens(RuleModule):
    """`buy_token` before the action (`dice_roll`, `dice_action`); and `dice_token`, opened
    before the turn ends when a token can still be bought: `buy_token`, or `pass` to take none."""

    name: ClassVar[str] = "dice_tokens"
    events: ClassVar[tuple[str, ...]] = ("token_taken",)
    actions: ClassVar = {"dice_roll": (BuyToken,), "dice_action": (BuyToken,), "dice_token": (BuyToken, Pass)}
    prompts: ClassVar = {"dice_token": "take a token with two unused dice, or pass"}

    exchanges: int = 1  # option dice_token_exchanges_per_turn (D5)

    def before_turn_end(self, game: Game) -> bool:
        turn = game.state.extra.get("dice", {}).get("turn")
        if not turn or turn["token_done"] or turn["no_token"]:
            return False
        if self._options(game, turn["seat"]):
            game.set_pending("dice_token")
            return True
        return False

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        if game.state.pending.get("kind") != "dice_token":
            return list(self._options(game, seat))  # before the action: no pass of its own
        return [*self._options(game, seat), Pass(seat)]

    def _options(self, game: Game, seat: int) -> list[BuyToken]:
        turn = game.state.extra.get("dice", {}).get("turn") or {}
        if turn.get("no_token") or turn.get("bought", 0) >= self.exchanges:
            return []
        dice = unused_dice(game, seat)
        if len(dice) < 2:
            return []
        supply = dice_data(game)["supply"]
        held = tokens(game, seat)
        types = [t for t in TOKEN_TYPES if t not in turn.get("capped", ())
                 and held.get(t, 0) < TOKEN_CAP and supply.get(t, 0) > 0]
        key = (seat, tuple(types), tuple(sorted(dice)))
        hit = _BUYS.get(key)
        if hit is None:
            # Every decision of a dice turn asks, so the purchases are made once per seat,
            # token types and dice (a few hundred keys) and reused: actions are values.
            pairs = sorted({tuple(sorted(p)) for p in combinations(dice, 2)})
            hit = _BUYS[key] = [BuyToken(seat, t, cards(face_counts(p))) for t in types for p in pairs]
        return hit

    def apply(self, game: Game, action: Action) -> None:
        if isinstance(action, Pass):
            this_turn(game)["token_done"] = True
            game.end_turn()
            return
        assert isinstance(action, BuyToken)
        seat = action.player
        turn = this_turn(game)
        token = action.token
        if token not in TOKEN_TYPES:
            raise IllegalAction("A token is single or double.", "bad_token")
        if turn.get("bought", 0) >= self.exchanges:
            taken = "a token" if self.exchanges == 1 else f"{self.exchanges} tokens"
            raise IllegalAction(f"You have already taken {taken} this turn.", "token_limit")
        held = tokens(game, seat)
        if token in turn.get("capped", ()):
            raise IllegalAction(f"You started this turn with {TOKEN_CAP} {token} tokens, so you cannot take "
                                f"another this turn.", "token_cap")
        if held.get(token, 0) >= TOKEN_CAP:
            raise IllegalAction(f"You may hold at most {TOKEN_CAP} {token} tokens.", "token_cap")
        if dice_data(game)["supply"][token] <= 0:
            raise IllegalAction(f"There are no {token} tokens left.", "token_supply")
        if count(action.payment) != 2:
            raise IllegalAction("A token costs exactly two unused dice.", "bad_payment")
        spend(game, seat, action.payment, {SINGLE, DOUBLE, STATION, WILD}, None)
        held[token] = held.get(token, 0) + 1
        dice_data(game)["supply"][token] -= 1
        turn["bought"] = turn.get("bought", 0) + 1
        game.emit(TokenTaken(player=seat, token=token, payment=dict(action.payment)))
        if game.state.pending.get("kind") != "dice_token":
            # Bought before the action: the roll stands, the action is still to come.
            game.set_pending("dice_action")
            return
        if not self._options(game, seat):
            turn["token_done"] = True
            game.end_turn()
