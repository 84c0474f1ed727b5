"""Destination Hungry (de Mesentier Silva et al. 2017): collects tickets early, then builds one
network that completes as many of them as it can.

At the start it keeps every ticket its network can still fit, and goes on drawing tickets
while the planned network is short and the game young; then it claims the network's routes
(the longest first) and draws the colours they lack. Once every ticket is done it draws
again while it has trains to spare.
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.agents.baseline import BaselineAI, TurnChoices, cheapest_payment, draw_colour, info_of
from ai.agents.planning import Plan, closed_groups, colour_needs, deficits, plan_network
from ai.greedy import advised_wanted
from engine.actions import Action, KeepTickets
from engine.core import Turn
from engine.maps import GameMap
from engine.view import View

# Keep tickets while the network takes at most this share of the trains left.
NETWORK_SHARE = 0.85
# Draw more tickets while the network takes less than this share, with this many trains left.
HUNGRY_SHARE = 0.55
HUNGRY_TRAINS = 25
# Once all tickets are done, draw again with this many trains left.
AGAIN_TRAINS = 10


class DestinationHungryAI(BaselineAI):
    level = "destination_hungry"

    def _plan(self, view: View, extra: Sequence[str] = ()) -> Plan:
        seat = view.you
        assert seat is not None
        info = info_of(view)
        me = view.players[seat]
        closed = closed_groups(info, view.route_owner, seat, len(view.players) >= view.doubles_from_players)
        tickets = list(me.tickets or ()) + list(extra)
        return plan_network(info, view.route_owner, seat, closed, tickets, me.trains, me.routes)

    def keep(self, view: View, options: list[KeepTickets]) -> Action:
        """As many tickets as the network fits in its share of the trains (then most points)."""
        seat = view.you
        assert seat is not None
        info = info_of(view)
        limit = NETWORK_SHARE * view.players[seat].trains
        tmap = info.game_map.tickets

        def value(option: KeepTickets) -> tuple[int, int, int, tuple[str, ...]]:
            plan = self._plan(view, option.keep)
            kept = [t for t in option.keep if t not in plan.dropped]
            fits = plan.trains <= limit
            return (fits, len(kept), sum(tmap[t].points for t in kept) - len(option.keep), option.keep)

        return max(options, key=value)

    def turn(self, view: View, legal: Sequence[Action], choices: TurnChoices) -> Action | None:
        seat = view.you
        assert seat is not None
        info = info_of(view)
        me = view.players[seat]
        hand = dict(me.hand or {})
        plan = self._plan(view)
        if isinstance(view.pending.decision, Turn):
            if (choices.tickets is not None and me.trains >= HUNGRY_TRAINS
                    and plan.trains < HUNGRY_SHARE * me.trains):
                return choices.tickets
            claimable = sorted((r for r in plan.routes if r in choices.claims), key=lambda r: (-info.lengths[r], r))
            if claimable:
                return cheapest_payment(choices.claims[claimable[0]], hand)
            if not plan.routes:
                if choices.tickets is not None and me.trains >= AGAIN_TRAINS:
                    return choices.tickets
                if choices.claims:
                    rid = max(choices.claims, key=lambda r: (info.lengths[r], r))
                    return cheapest_payment(choices.claims[rid], hand)
        short = deficits(colour_needs(info, plan.routes, hand), hand)
        colours = sorted(short, key=lambda c: (-short[c], c))
        return draw_colour(view, choices, colours)

    def _wanted_routes(self, view: View, game_map: GameMap, seat: int) -> set[str]:
        if view.you == seat and view.players[seat].tickets is not None:
            return set(self._plan(view).routes) | advised_wanted(view, game_map, seat)
        return super()._wanted_routes(view, game_map, seat)

