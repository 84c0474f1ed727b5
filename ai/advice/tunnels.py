"""Advice on tunnels paid with cards (engine/rules/tunnels.py): try a tunnel only with spare
cards for the most extra its reveal can ask for, so it is never given up (and so never given
up twice with the same hand: a computer player keeps no memory between moves); pay the extra
with the cheapest cards, or give the tunnel up when the hand cannot."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ai.advice import Advice, Decision, rules_of_view
from ai.costs import card_cost
from engine.actions import Action, ClaimRoute, GiveUpTunnel, PayTunnel
from engine.cards import LOCO
from engine.decisions import decision_of
from engine.maps import GameMap
from engine.rules import tunnels
from engine.rules.tunnels import Tunnel
from engine.view import View

if TYPE_CHECKING:
    from ai.agents.rollout import RolloutPolicy
    from ai.greedy import GreedyAI
    from engine.state import GameState


class TunnelsAdvice(Advice):
    rule = tunnels.__name__
    actions = (PayTunnel, GiveUpTunnel)

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if "pay_tunnel" not in decision.kinds and "give_up_tunnel" not in decision.kinds:
            return None
        return _pay_or_give_up(decision.legal)

    def withholds(self, view: View, game_map: GameMap, action: Action) -> bool:
        if not isinstance(action, ClaimRoute) or not game_map.routes[action.route].tunnel:
            return False
        me = view.me
        if me is None or me.hand is None:
            return False
        return spare_cards(me.hand, action.payment) < rules_of_view(view).payment.tunnel_reveal

    def playout(self, policy: RolloutPolicy, state: GameState, seat: int, legal: Sequence[Action]) -> Action | None:
        if not isinstance(decision_of(state.pending), Tunnel):
            return None
        return _pay_or_give_up(legal)


def spare_cards(hand: Mapping[str, int], payment: Sequence[tuple[str, int]]) -> int:
    """The cards left in hand, after paying, that could pay a tunnel's extra: the payment's
    colour and locomotives (only locomotives for a payment all of locomotives)."""
    paid = dict(payment)
    colours = [c for c in paid if c != LOCO]
    left = hand.get(LOCO, 0) - paid.get(LOCO, 0)
    if colours:
        left += hand.get(colours[0], 0) - paid[colours[0]]
    return left


def _pay_or_give_up(legal: Sequence[Action]) -> Action:
    pays = [a for a in legal if isinstance(a, PayTunnel)]
    if pays:
        return min(pays, key=lambda a: card_cost(a.payment))
    return next(a for a in legal if isinstance(a, GiveUpTunnel))


ADVICE = (TunnelsAdvice(),)
