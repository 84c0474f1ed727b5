"""The greedy AI's Alsace decisions: tourist cards (keep, Lucky Devil), calling time, burn 5,
and the routes its tourist cards want. Sees only the view and the legal actions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from engine.actions import Action, KeepTickets
from engine.rules.burn_five import BurnFive
from engine.rules.tourist_cards import PlayLuckyDevil, TouristView
from engine.view import View

if TYPE_CHECKING:
    from engine.ai import GreedyAI
    from engine.maps import GameMap


def _cards(game_map: GameMap) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in game_map.extras.get("tourist_cards", ())}


def _visited(view: View, game_map: GameMap, seat: int) -> set[str]:
    out: set[str] = set()
    for rid in view.players[seat].routes:
        out.update(game_map.routes[rid].ends)
    return out


def _city_cost(view: View, game_map: GameMap, seat: int, city: str) -> tuple[int, str] | None:
    """Trains to visit `city`: 0 if visited, else the shortest open route into it."""
    if city in _visited(view, game_map, seat):
        return 0, ""
    owner = view.route_owner
    open_routes = [r for r in game_map.routes_at(city) if owner.get(r.id) is None]
    if not open_routes:
        return None
    best = min(open_routes, key=lambda r: (r.length, r.tunnel, r.id))
    return best.length, best.id


def _card_target(view: View, game_map: GameMap, seat: int, card: dict[str, Any]) -> tuple[int, str] | None:
    if card["kind"] == "attraction":
        return _city_cost(view, game_map, seat, card["city"])
    if card["kind"] == "visitor_pass":
        cities = {c["city"] for c in _cards(game_map).values() if c["kind"] == "attraction"}
        costs = [c for c in (_city_cost(view, game_map, seat, city) for city in sorted(cities)) if c is not None]
        return min(costs) if costs else None
    return None


def tourist_wanted(view: View, game_map: GameMap, seat: int) -> set[str]:
    """The routes that would complete the player's unfinished tourist cards."""
    part = view.part(TouristView)
    hand = part.mine or () if part is not None else ()
    cards = _cards(game_map)
    wanted = set()
    for card_id in hand:
        target = _card_target(view, game_map, seat, cards[card_id])
        if target and target[0] > 0:
            wanted.add(target[1])
    return wanted


def _tourist_value(view: View, game_map: GameMap, seat: int, card_id: str) -> float:
    card = _cards(game_map)[card_id]
    target = _card_target(view, game_map, seat, card)
    return -card["points"] if target is None else card["points"] - 1.6 * target[0]


def choose_alsace(ai: GreedyAI, view: View, game_map: GameMap, legal: Sequence[Action]) -> Action | None:
    seat = view.you
    assert seat is not None
    kinds = {a.TYPE for a in legal}
    if "play_lucky_devil" in kinds:
        # Discard the attraction that is hardest to reach for its points; none if all are good.
        devils = [a for a in legal if isinstance(a, PlayLuckyDevil)]
        targets = [a for a in devils if a.discard]
        if not targets:
            return devils[0]
        worst = min(targets, key=lambda a: (_tourist_value(view, game_map, seat, a.discard), a.discard))
        return worst
    if "call_time" in kinds:
        # Call when further turns cannot finish anything of ours (nothing wanted, or it costs
        # more wagons than are left).
        me = view.players[seat]
        wanted = ai._wanted_routes(view, game_map, seat)
        call = not wanted or min(game_map.routes[r].length for r in wanted) > me.trains
        return next(a for a in legal if a.TYPE == "call_time" and getattr(a, "call", None) is call)
    offers = view.pending.offers
    if "keep_tickets" in kinds and offers and isinstance(offers[seat], Mapping):
        return _keep(ai, view, game_map, [a for a in legal if isinstance(a, KeepTickets)])
    # Burn 5 rarely: only with a hoard of unneeded colours.
    if "burn_five" in kinds and view.pending.kind == "turn" and view.players[seat].hand_size >= 24:
        wanted = ai._wanted_routes(view, game_map, seat)
        if any(getattr(a, "route", None) in wanted for a in legal if a.TYPE == "claim_route"):
            return None  # build first
        needed = {game_map.routes[r].color for r in wanted}
        burns = [a for a in legal if isinstance(a, BurnFive)
                 and not any(name in needed or name == "loco" for name, _ in a.payment)]
        if burns:
            return burns[0]
    return None


def _keep(ai: GreedyAI, view: View, game_map: GameMap, options: list[KeepTickets]) -> Action:
    seat = view.you
    assert seat is not None and view.pending.offers is not None
    offer = view.pending.offers[seat]
    setup = view.pending.setup
    ticket_value = {}
    for t in offer["tickets"]:
        cost = ai._ticket_cost(view, game_map, seat, t)
        points = game_map.tickets[t].points
        ticket_value[t] = points - 1.6 * cost if cost is not None else -points
    tourist_value = {c: _tourist_value(view, game_map, seat, c) for c in offer["tourist"]}

    def best(values: dict[str, float], minimum: int, cap: int) -> set[str]:
        ranked = sorted(values, key=lambda k: (-values[k], k))
        keep = ranked[:minimum]
        keep += [k for k in ranked[minimum:cap] if values[k] > 0]
        return set(keep)

    t_min = min(3 if setup else 1, len(offer["tickets"]))
    c_min = min(3 if setup else 1, len(offer["tourist"]))
    want = best(ticket_value, t_min, max(t_min, 3 if setup else 2)) | best(tourist_value, c_min, 5)
    for option in options:
        if set(option.keep) == want:
            return option
    return max(options, key=lambda o: sum(ticket_value.get(k, 0) + tourist_value.get(k, 0) for k in o.keep))



