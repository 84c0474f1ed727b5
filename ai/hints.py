"""A hint on request: what the normal AI would do in the player's place, and one line of why.

It reads only what the player may see — their own view and legal moves, and the public map —
so a hint can never tell them anything of another player's hand, tickets or the deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ai.greedy import GreedyAI
from engine.actions import Action, BuildStation, ClaimRoute, DrawCard, DrawTickets, GiveUpTunnel, KeepTickets, PayTunnel
from engine.cards import LOCO
from engine.maps import GameMap, load_map
from engine.view import View

HINT_LEVEL = "normal"  # the AI a hint asks (ai.levels: the greedy player)


@dataclass(frozen=True)
class Hint:
    """The move the normal AI would make, and why in one line."""

    action: Action
    why: str


def hint(view: View, legal: Sequence[Action], seed: int = 0) -> Hint:
    """The normal AI's move for the player whose `view` this is, with its reason."""
    ai = GreedyAI(seed)
    action = ai.choose(view, legal)
    return Hint(action, explain(view, action, ai))


def _ticket_for(view: View, game_map: GameMap, ai: GreedyAI, route: str) -> str | None:
    """The name of the player's first unfinished ticket whose shortest open path uses `route`."""
    from engine.paths import shortest_open_path

    seat = view.you
    assert seat is not None
    for ticket_id in view.players[seat].tickets or ():
        ticket = game_map.tickets[ticket_id]
        found = shortest_open_path(view, game_map, seat, ticket.a, ticket.b)
        if found is not None and route in found[1]:
            return f"{game_map.cities[ticket.a].name} – {game_map.cities[ticket.b].name}"
    return None


def _colour(card: str | None) -> str:
    return "locomotive" if card == LOCO else str(card)


def explain(view: View, action: Action, ai: GreedyAI | None = None) -> str:
    """One line saying why `action` is a good move for the player whose view this is."""
    ai = ai or GreedyAI(0)
    game_map = load_map(view.map_id)
    seat = view.you
    assert seat is not None
    if isinstance(action, KeepTickets):
        return "these tickets give the most points for the fewest trains still to place."
    if isinstance(action, ClaimRoute):
        route = game_map.routes[action.route]
        ticket = _ticket_for(view, game_map, ai, action.route)
        if ticket is not None:
            return f"it is on the shortest open way to finish your ticket {ticket}, before someone blocks it."
        return f"a {route.length}-space route scores well, and your cards pay for it now."
    if isinstance(action, DrawCard):
        wanted = ai.wanted_routes(view, game_map, seat)
        if action.slot is not None:
            card = view.display[action.slot]
            needs = sorted(r for r in wanted if game_map.routes[r].color == card)
            if needs:
                return f"your tickets' routes need {_colour(card)} (for {game_map.route_label(needs[0])})."
            if card == LOCO:
                return "a locomotive counts as any colour."
            return f"{_colour(card)} is the most useful card on show for your routes."
        if wanted:
            return "no face-up card fits the routes your tickets need, so a blind card is the better chance."
        return "nothing on show is needed; a blind card keeps your hand hidden and your options open."
    if isinstance(action, DrawTickets):
        return "your tickets are done or out of reach: new ones bring points while you still have trains."
    if isinstance(action, BuildStation):
        return "a station lets one of your tickets use one route of another player's through that city."
    if isinstance(action, PayTunnel):
        return "the route is worth the extra cards, and you hold them."
    if isinstance(action, GiveUpTunnel):
        return "paying would cost cards your tickets need more; the cards come back to your hand."
    does = getattr(type(action), "DOES", "") or "this move"
    return f"to {does} is the move that helps your tickets most right now."
