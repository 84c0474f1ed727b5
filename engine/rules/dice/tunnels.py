"""Tunnels under dice: once the route is paid, 3 tunnel dice are rolled (`tunnel_die_faces`
of 6 show the symbol, D10); each symbol costs one more die of the route's type, a wild or a
token (D11). Giving up, or having no way to pay, gives the laid tokens back and ends the turn
with nothing claimed and no token bought (D8)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, GiveUpTunnel, PayTunnel
from engine.cards import Cards, count
from engine.decisions import Decision
from engine.errors import IllegalAction
from engine.events import Payload
from engine.maps import Route
from engine.rules.dice.faces import (
    N_TUNNEL_DICE,
    TOKEN,
    TUNNEL,
    WILD,
    as_length,
    claim_length,
    payment_words,
    route_type,
    tunnel_faces,
)
from engine.rules.dice.purse import dice_data, pay_options, spend, this_turn, tokens
from engine.rules.dice.roll import roll
from engine.rules.module import RuleModule
from engine.rules.routes import complete_claim
from engine.rules.tunnels import TunnelAbandoned

if TYPE_CHECKING:
    from engine.core import Game


# --- the decisions this rule opens -----------------------------------------------------------
@dataclass(frozen=True)
class DiceTunnel(Decision):
    """The tunnel dice asked for more: pay the extra, or give up."""

    kind = "dice_tunnel"
    route: str
    payment: dict[str, int]
    tunnel_dice: list[str]
    extra: int
    type: str  # the route's die type



# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TunnelDiceRolled(Payload):
    kind = "tunnel_dice_rolled"
    player: int
    route: str
    dice: list[str]
    extra: int


@dataclass(frozen=True, kw_only=True)
class TunnelExtraPaid(Payload):
    kind = "tunnel_extra_paid"
    player: int
    route: str
    payment: dict[str, int]



def begin_dice_tunnel(game: Game, seat: int, route: Route, payment: Cards) -> None:
    """The route is paid (the dice and tokens have left the player): roll the tunnel dice and
    claim it, or wait for the extra (`dice_tunnel`), or give up at once when it cannot be paid."""
    module = game.rules.module(DiceTunnels.name)
    assert isinstance(module, DiceTunnels)
    kind = route_type(game.map, route)
    tunnel_dice = roll(game, N_TUNNEL_DICE, tunnel_faces(module.tunnel_die_faces))
    extra = tunnel_dice.count(TUNNEL)
    game.emit(TunnelDiceRolled(player=seat, route=route.id, dice=tunnel_dice, extra=extra))
    if not extra:
        _complete(game, seat, route)
        return
    game.set_pending("dice_tunnel", route=route.id, payment=dict(payment), tunnel_dice=tunnel_dice,
                     extra=extra, type=kind)
    if not pay_options(game, seat, kind, extra, 0):
        _give_up(game, seat, declined=False)


def _complete(game: Game, seat: int, route: Route) -> None:
    n = claim_length(game, route)
    assert n is not None
    complete_claim(game, seat, as_length(route, n), ())


def _give_up(game: Game, seat: int, declined: bool) -> None:
    """D8: nothing claimed, the laid tokens come back, no token bought, the turn ends."""
    p = game.state.pending
    laid = dict(p["payment"]).get(TOKEN, 0)
    if laid:
        tokens(game, seat)[p["type"]] += laid
        dice_data(game)["supply"][p["type"]] -= laid
    turn = this_turn(game)
    turn["no_token"] = True
    turn["tunnel_given_up"] = True  # the tokens back in hand may still be discarded ([D:28], discard.py)
    game.emit(TunnelAbandoned(player=seat, route=p["route"], payment=dict(p["payment"]),
                              reason="declined" if declined else "cannot_pay"))
    game.end_turn()


@dataclasses.dataclass(frozen=True)
class DiceTunnels(RuleModule):
    """The decision after the tunnel dice: pay the extra, or give up."""

    name: ClassVar[str] = "dice_tunnels"
    events: ClassVar[tuple[str, ...]] = ("tunnel_extra_paid", "route_claimed", "tunnel_abandoned")
    actions: ClassVar = {"dice_tunnel": (PayTunnel, GiveUpTunnel)}
    prompts: ClassVar = {"dice_tunnel": "pay the tunnel's extra dice or tokens or give it up"}

    tunnel_die_faces: int = 2

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        p = game.state.pending
        return [*(PayTunnel(seat, c) for c in pay_options(game, seat, p["type"], p["extra"], 0)), GiveUpTunnel(seat)]

    def apply(self, game: Game, action: Action) -> None:
        seat = action.player
        if isinstance(action, GiveUpTunnel):
            _give_up(game, seat, declined=True)
            return
        assert isinstance(action, PayTunnel)
        p = game.state.pending
        kind, extra = p["type"], p["extra"]
        if count(action.payment) != extra or any(name not in (kind, WILD, TOKEN) for name, _ in action.payment):
            raise IllegalAction(f"The tunnel needs {extra} more {kind} dice, wild dice or {kind} tokens; "
                                f"you offered {payment_words(action.payment)}.", "bad_payment")
        spend(game, seat, action.payment, {kind, WILD}, kind)
        # Told apart from the claim: the claim's own payment is the dice laid before the roll.
        game.emit(TunnelExtraPaid(player=seat, route=p["route"], payment=dict(action.payment)))
        _complete(game, seat, game.map.routes[p["route"]])
