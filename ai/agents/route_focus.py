"""Route Focus (de Mesentier Silva et al. 2017): works through its tickets one route at a time.

It takes the shortest open path of each unfinished ticket, focuses on the longest route still
to claim on them (the hardest to collect cards for, and the one worth most), draws that
route's colour and claims it as soon as the hand pays for it, then the next. It keeps the
cheapest tickets, and draws new ones only once all of its tickets are done.
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.agents.baseline import BaselineAI, TurnChoices, cheapest_payment, draw_colour, info_of, route_colours
from engine.actions import Action
from engine.core import Turn
from engine.view import View

# New tickets only with this many trains left.
TICKET_TRAINS = 12


class RouteFocusAI(BaselineAI):
    level = "route_focus"

    def turn(self, view: View, legal: Sequence[Action], choices: TurnChoices) -> Action | None:
        seat = view.you
        assert seat is not None
        info = info_of(view)
        me = view.players[seat]
        hand = dict(me.hand or {})
        wanted = self._wanted_routes(view, info.game_map, seat)
        # The focus: the longest route still to claim (ties by id, for a steady choice).
        focus = sorted(wanted, key=lambda r: (-info.lengths[r], r))
        if isinstance(view.pending.decision, Turn):
            claimable = [r for r in focus if r in choices.claims]
            if claimable:
                return cheapest_payment(choices.claims[claimable[0]], hand)
            if not wanted:
                if choices.tickets is not None and me.trains > TICKET_TRAINS:
                    return choices.tickets
                if choices.claims and (me.trains <= TICKET_TRAINS or not choices.draws):
                    rid = max(choices.claims, key=lambda r: (info.lengths[r], r))
                    return cheapest_payment(choices.claims[rid], hand)
        colours = route_colours(info, focus[0], hand) if focus else []
        draw = draw_colour(view, choices, colours)
        if draw is not None:
            return draw
        if choices.claims:
            rid = max(choices.claims, key=lambda r: (info.lengths[r], r))
            return cheapest_payment(choices.claims[rid], hand)
        return None

