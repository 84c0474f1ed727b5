"""Advice on stations (engine/rules/stations.py): build one where it saves a ticket — where one
other player's route, borrowed at a city with no station yet, joins a ticket's cities with the
player's own routes, and the trains will not finish it soon over open routes. A station
is built the turn it saves a ticket, so no ticket is given up for lost that one station would
complete."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.advice import Advice, Decision
from ai.costs import card_cost
from engine.actions import Action, BuildStation
from engine.maps import GameMap
from engine.paths import shortest_open_path
from engine.rules import stations
from engine.rules.dice import stations as dice_stations
from engine.view import View

if TYPE_CHECKING:
    from ai.greedy import GreedyAI


# A ticket this few trains from done is left to the trains, unless the end is near (a player
# has this few trains, or the final round has begun).
NEAR_PATH = 2
NEAR_END_TRAINS = 6


class StationsAdvice(Advice):
    rule = stations.__name__

    def before_turn(self, ai: GreedyAI, decision: Decision) -> Action | None:
        builds = [a for a in decision.legal if isinstance(a, BuildStation)]
        if not builds:
            return None
        cities = saving_cities(decision.view, decision.game_map, decision.seat)
        useful = [a for a in builds if a.city in cities]
        if not useful:
            return None
        return min(useful, key=lambda a: (card_cost(a.payment), a.city, a.payment))


def saving_cities(view: View, game_map: GameMap, seat: int) -> set[str]:
    """The cities where a station of `seat` would complete a ticket now (one none of its
    stations saves already), unless its trains are about to finish the ticket anyway."""
    me = view.players[seat]
    near_end = view.final_turns_left is not None or min(p.trains for p in view.players) <= NEAR_END_TRAINS
    out: set[str] = set()
    own = list(me.routes)
    mine = {c for c, who in view.stations.items() if who == seat}
    for t in me.tickets or ():
        if t in me.completed:
            continue
        ticket = game_map.tickets[t]
        found = shortest_open_path(view, game_map, seat, ticket.a, ticket.b)
        if found is not None and found[0] <= min(me.trains, NEAR_PATH) and not near_end:
            continue  # the player's own trains will finish it soon
        here: set[str] = set()
        saved = False
        for rid, who in view.route_owner.items():
            if who == seat:
                continue
            r = game_map.routes[rid]
            ends = [c for c in (r.a, r.b) if not game_map.cities[c].is_country]
            if not ends or not joins(game_map, [*own, rid], ticket.a, ticket.b):
                continue
            if any(c in mine for c in ends):
                saved = True
                break
            here.update(c for c in ends if c not in view.stations)
        if not saved:
            out |= here
    return out


def joins(game_map: GameMap, routes: list[str], a: str, b: str) -> bool:
    """Whether the routes join a and b (country spaces are dead ends)."""
    adjacency: dict[str, list[str]] = {}
    for rid in routes:
        r = game_map.routes[rid]
        adjacency.setdefault(r.a, []).append(r.b)
        adjacency.setdefault(r.b, []).append(r.a)
    reached = {a}
    todo = [a]
    while todo:
        city = todo.pop()
        if city == b:
            return True
        if city != a and game_map.cities[city].is_country:
            continue
        for nxt in adjacency.get(city, ()):
            if nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    return False


class DiceStationsAdvice(StationsAdvice):
    """The same under the Dice Expansion (its stations are bought with dice and tokens)."""

    rule = dice_stations.__name__


ADVICE = (StationsAdvice(), DiceStationsAdvice())
