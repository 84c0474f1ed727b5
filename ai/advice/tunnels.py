"""Advice on tunnels paid with cards (engine/rules/tunnels.py): pay the extra with the cheapest
cards, or give the tunnel up when the hand cannot."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from ai.costs import card_cost
from engine.actions import Action, GiveUpTunnel, PayTunnel
from engine.rules import tunnels

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

    def playout(self, policy: RolloutPolicy, state: GameState, seat: int, legal: Sequence[Action]) -> Action | None:
        if state.pending.get("kind") != "tunnel":
            return None
        return _pay_or_give_up(legal)


def _pay_or_give_up(legal: Sequence[Action]) -> Action:
    pays = [a for a in legal if isinstance(a, PayTunnel)]
    if pays:
        return min(pays, key=lambda a: card_cost(a.payment))
    return next(a for a in legal if isinstance(a, GiveUpTunnel))


ADVICE = (TunnelsAdvice(),)
