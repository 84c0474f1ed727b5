"""Long Route (de Mesentier Silva et al. 2017): scores with long routes.

Long routes pay far more per train (a 6-train route scores 15, six 1-train routes score 6), so
it keeps the tickets worth most, joins them by paths made of long routes even at the price of
more trains, claims any route of 5 or more trains the moment its hand pays for one, and draws
the colour of the longest route it is after. It takes no tickets after the opening deal.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ai.agents.baseline import BaselineAI, TurnChoices, cheapest_payment, draw_colour, info_of, route_colours
from ai.agents.planning import MapInfo, closed_groups, plan_network
from ai.greedy import advised_wanted
from engine.actions import Action, KeepTickets
from engine.core import Turn
from engine.maps import GameMap
from engine.view import View

# Claim a route this long whenever the hand pays for it, on a path or not.
LONG = 5


_LONG: dict[int, tuple[MapInfo, MapInfo]] = {}


def _long_info(info: MapInfo) -> MapInfo:
    """The board with path costs that favour long routes: a train of a 6-route costs a sixth of
    a train of a 1-route (once per board)."""
    cached = _LONG.get(id(info))
    if cached is not None and cached[0] is info:
        return cached[1]
    weights = {}
    for rid, length in info.lengths.items():
        weights[rid] = length + 2.0 - 0.4 * info.points.get(length, length)
    long_info = dataclasses.replace(info, weights=weights)
    _LONG[id(info)] = (info, long_info)
    return long_info


class LongRouteAI(BaselineAI):
    level = "long_route"

    def _routes(self, view: View) -> list[str]:
        seat = view.you
        assert seat is not None
        info = _long_info(info_of(view))
        me = view.players[seat]
        closed = closed_groups(info, view.route_owner, seat, len(view.players) >= view.doubles_from_players)
        plan = plan_network(info, view.route_owner, seat, closed, list(me.tickets or ()), me.trains, me.routes)
        return plan.routes

    def keep(self, view: View, options: list[KeepTickets]) -> Action:
        """The fewest tickets allowed, those worth most."""
        tmap = info_of(view).game_map.tickets
        smallest = min(len(o.keep) for o in options)
        return max((o for o in options if len(o.keep) == smallest),
                   key=lambda o: (sum(tmap[t].points for t in o.keep), o.keep))

    def turn(self, view: View, legal: Sequence[Action], choices: TurnChoices) -> Action | None:
        seat = view.you
        assert seat is not None
        info = info_of(view)
        me = view.players[seat]
        hand = dict(me.hand or {})
        wanted = sorted(self._routes(view), key=lambda r: (-info.lengths[r], r))
        if isinstance(view.pending.decision, Turn) and choices.claims:
            longest = max(choices.claims, key=lambda r: (info.lengths[r], r in wanted, r))
            if info.lengths[longest] >= LONG:
                return cheapest_payment(choices.claims[longest], hand)
            claimable = [r for r in wanted if r in choices.claims]
            if claimable:
                return cheapest_payment(choices.claims[claimable[0]], hand)
            if not wanted and (info.lengths[longest] >= 3 or me.trains <= 6 or not choices.draws):
                return cheapest_payment(choices.claims[longest], hand)
        target = wanted[0] if wanted else self._longest_open(view, info)
        colours = route_colours(info, target, hand) if target else []
        return draw_colour(view, choices, colours)

    @staticmethod
    def _longest_open(view: View, info: MapInfo) -> str | None:
        seat = view.you
        assert seat is not None
        trains = view.players[seat].trains
        closed = closed_groups(info, view.route_owner, seat, len(view.players) >= view.doubles_from_players)
        open_routes = [r for r in info.lengths if r not in view.route_owner and info.lengths[r] <= trains
                       and info.route(r).parallel_group not in closed]
        return max(open_routes, key=lambda r: (info.lengths[r], r), default=None)

    def _wanted_routes(self, view: View, game_map: GameMap, seat: int) -> set[str]:
        if view.you == seat and view.players[seat].tickets is not None:
            return set(self._routes(view)) | advised_wanted(view, game_map, seat)
        return super()._wanted_routes(view, game_map, seat)
