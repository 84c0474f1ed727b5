"""Tunnels: reveal the top cards of the deck; each match costs one more card, or give up."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, GiveUpTunnel, PayTunnel
from engine.cards import Cards, cards, describe
from engine.decisions import Decision
from engine.events import Payload, absent
from engine.maps import Route
from engine.rules.module import RuleModule
from engine.rules.payment import TunnelDemand
from engine.rules.routes import complete_claim, route_name

if TYPE_CHECKING:
    from engine.core import Game


# --- the decisions this rule opens -----------------------------------------------------------
@dataclass(frozen=True)
class Tunnel(Decision):
    """The claimer pays the extra cards the reveal asks for, or gives the tunnel up."""

    kind = "tunnel"
    route: str
    payment: dict[str, int]  # laid down
    revealed: list[str]
    colour: str | None
    extra: int
    locos_only: int



# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TunnelRevealed(Payload):
    kind = "tunnel_revealed"
    player: int
    route: str
    cards: list[str]
    extra: int  # cards more to pay
    locos_only: int  # of which locomotives


@dataclass(frozen=True, kw_only=True)
class TunnelAbandoned(Payload):
    kind = "tunnel_abandoned"
    player: int
    route: str
    payment: dict[str, int]  # what was laid down (and goes back)
    reason: str | None = absent()  # the dice: "declined" or "cannot_pay"


@dataclass(frozen=True, kw_only=True)
class CardsReturned(Payload):
    kind = "cards_returned"
    cards: dict[str, int]
    text: str



def begin_tunnel(game: Game, seat: int, route: Route, payment: Cards) -> None:
    """The cards are laid down (they have left the hand): reveal and work out the extra.

    With fewer cards left than the reveal asks for, reveal what there is; with none, the
    tunnel costs nothing more."""
    rules = game.rules.payment
    revealed: list[str] = []
    for _ in range(rules.tunnel_reveal):
        card = game.draw_train_card()
        if card is None:
            break
        revealed.append(card)
    demand = rules.tunnel_demand(route, payment, revealed)
    game.emit(TunnelRevealed(player=seat, route=route.id, cards=revealed,
                             extra=demand.total, locos_only=demand.locos_only))
    if demand.total == 0:
        game.discard_cards(cards((c, 1) for c in revealed))
        complete_claim(game, seat, route, payment)
        return
    game.set_pending(
        "tunnel",
        route=route.id,
        payment=dict(payment),
        revealed=revealed,
        colour=demand.colour,
        extra=demand.extra,
        locos_only=demand.locos_only,
    )


def _demand(game: Game) -> TunnelDemand:
    p = game.state.pending
    return TunnelDemand(p["colour"], p["extra"], p["locos_only"])


@dataclass(frozen=True)
class Tunnels(RuleModule):
    """The decision after a tunnel's reveal: pay the extra cards, or give up."""

    needs_train_cards: ClassVar[bool] = True  # dropped under the Dice Expansion
    name: ClassVar[str] = "tunnels"
    events: ClassVar[tuple[str, ...]] = ("route_claimed", "tunnel_abandoned", "cards_returned")
    actions: ClassVar = {"tunnel": (PayTunnel, GiveUpTunnel)}
    prompts: ClassVar = {"tunnel": "pay the tunnel's extra cards or give it up"}

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        hand = game.player(seat).hand
        out: list[Action] = [PayTunnel(seat, c) for c in game.rules.payment.tunnel_options(hand, _demand(game))]
        out.append(GiveUpTunnel(seat))
        return out

    def apply(self, game: Game, action: Action) -> None:
        s = game.state
        seat = action.player
        pending = s.pending
        route = game.map.routes[pending["route"]]
        laid = cards(pending["payment"])
        revealed = cards((c, 1) for c in pending["revealed"])
        if isinstance(action, PayTunnel):
            game.rules.payment.check_tunnel(game.player(seat).hand, _demand(game), action.payment)
            game.take_cards(seat, action.payment)
            game.discard_cards(revealed)
            complete_claim(game, seat, route, cards(list(laid) + list(action.payment)))
        else:
            game.give_cards(seat, laid)
            game.discard_cards(revealed)
            game.emit(TunnelAbandoned(player=seat, route=route.id, payment=dict(laid)))
            back = f"{describe(laid)} went back to your hand; {route_name(game, route)} stays open."
            game.tell(seat, CardsReturned(cards=dict(laid), text=back))
            game.end_turn()
