"""Advice on tunnels paid with cards (engine/rules/tunnels.py): pay the extra with the cheapest
cards, or give the tunnel up when the hand cannot."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from ai.costs import card_cost
from engine.actions import Action, GiveUpTunnel, PayTunnel
from engine.rules import tunnels

if TYPE_CHECKING:
    from ai.greedy import GreedyAI


class TunnelsAdvice(Advice):
    rule = tunnels.__name__
    actions = (PayTunnel, GiveUpTunnel)

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        if "pay_tunnel" not in decision.kinds and "give_up_tunnel" not in decision.kinds:
            return None
        pays = [a for a in decision.legal if isinstance(a, PayTunnel)]
        if pays:
            return min(pays, key=lambda a: card_cost(a.payment))
        return next(a for a in decision.legal if isinstance(a, GiveUpTunnel))


ADVICE = (TunnelsAdvice(),)
