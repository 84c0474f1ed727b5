"""One Step Thinking (de Mesentier Silva et al. 2017): picks the move that looks best right now.

Every legal move of a turn gets one number — what it adds at once to a simple evaluation of
the agent's position: a claim scores its route points, the trains it takes off the paths of
the unfinished tickets, and the ticket points it completes, less what its cards were worth; a
card scores what it brings towards those paths; new tickets are worth taking only when none
is left unfinished. It plays the best-scoring move, with no look further ahead.
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.agents.baseline import BaselineAI, TurnChoices, info_of, ticket_path
from ai.agents.planning import Connectivity, MapInfo, colour_needs, deficits, payment_cost, route_points
from engine.actions import Action, ClaimRoute
from engine.cards import LOCO
from engine.core import Turn
from engine.view import View

# What a card in hand is worth (paid out when it is spent), and what drawing one is worth.
CARD_VALUE = 1.0
WANTED_CARD = 1.0
BLIND_CARD = 0.8
LOCO_CARD = 1.3
# Taking tickets when none is unfinished, with this many trains left.
TICKET_VALUE = 3.0
TICKET_TRAINS = 12


class OneStepAI(BaselineAI):
    level = "one_step"

    def turn(self, view: View, legal: Sequence[Action], choices: TurnChoices) -> Action | None:
        seat = view.you
        assert seat is not None
        info = info_of(view)
        me = view.players[seat]
        hand = dict(me.hand or {})
        links = Connectivity(info, me.routes)
        tmap = info.game_map.tickets
        open_tickets = [t for t in me.tickets or () if not links.joins(tmap[t].a, tmap[t].b)]
        paths = {t: ticket_path(view, info, t) for t in open_tickets}
        on_paths = {r for found in paths.values() if found for r in found[1]}
        short = deficits(colour_needs(info, on_paths, hand), hand)
        scored: list[tuple[float, str, Action]] = []
        for slot, action in choices.slots.items():
            card = view.display[slot]
            if card == LOCO:
                value = LOCO_CARD if isinstance(view.pending.decision, Turn) and short else 0.0
            else:
                value = WANTED_CARD if card in short else 0.3
            scored.append((value, f"draw {slot}", action))
        if choices.blind is not None:
            scored.append((BLIND_CARD, "draw blind", choices.blind))
        if isinstance(view.pending.decision, Turn):
            for rid, options in choices.claims.items():
                pay = min(options, key=lambda a: (payment_cost(a.payment, {}, hand), a.payment))
                scored.append((self._claim_value(view, info, rid, pay, open_tickets, paths, links), rid, pay))
            if choices.tickets is not None:
                value = TICKET_VALUE if not open_tickets and me.trains > TICKET_TRAINS else -1.0
                scored.append((value, "tickets", choices.tickets))
        if not scored:
            return None
        return max(scored, key=lambda s: (s[0], s[1]))[2]

    @staticmethod
    def _claim_value(view: View, info: MapInfo, rid: str, pay: ClaimRoute, open_tickets: list[str],
                     paths: dict[str, tuple[float, list[str]] | None], links: Connectivity) -> float:
        r = info.route(rid)
        tmap = info.game_map.tickets
        value = float(route_points(info, rid)) - CARD_VALUE * payment_cost(pay.payment, {}, {})
        for t in open_tickets:
            found = paths[t]
            if found and rid in found[1]:
                value += info.lengths[rid]  # trains off the ticket's path
            if links.joins_with(tmap[t].a, tmap[t].b, r.a, r.b):
                value += 2 * tmap[t].points
        return value

