"""The blunder list, from a player's side: moves a computer player does not make because
anyone reading the game's thread would call them a mistake (tools/blunders.py counts them in
played games).

- A move a rule's advice withholds (a tunnel tried without the spare cards its extra may ask
  for: ai/advice/tunnels.py) is taken out of the legal moves, and so are tickets drawn in the
  final round or with too few trains to finish plausibly any ticket (`sensible`).
- More than `HOARD` cards in hand and a route a ticket needs can be claimed: claim it, rather
  than draw (`repair`).
- A claim that serves no ticket while a route a ticket needs, and another player's network
  touches, can be claimed: claim that one (`repair`).

"A route a ticket needs" is a route on a cheapest open path (fewest trains still to place,
`engine.paths`) of an own ticket not yet completed that the trains left can still finish.
Everything here reads the view and the legal moves only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ai.advice import advice_of_view
from ai.costs import card_cost
from engine.actions import Action, ClaimRoute, DrawCard, DrawTickets
from engine.maps import GameMap, load_map
from engine.paths import shortest_open_path
from engine.view import View


def is_turn(view: View) -> bool:
    """Whether the viewer chooses their turn proper now (where a claim or a ticket draw is
    chosen): the decision's rule says so (`Decision.is_turn`), no list of kinds here."""
    decision = view.pending.decision
    return decision is not None and decision.is_turn


# More train cards than this in hand is hoarding while a needed route could be claimed.
HOARD = 12
# With this many trains, some ticket of the map can surely still be finished.
TICKET_TRAINS_SURE = 15
# A ticket draw offers a few tickets: it is plausible when at least this many tickets of the
# map (beyond the own ones) fit in the trains left.
PLAUSIBLE_TICKETS = 4


def open_tickets(view: View, game_map: GameMap, seat: int) -> list[tuple[str, str, int]]:
    """(a, b, trains still to place) of each own ticket not completed that the trains left can
    still finish."""
    me = view.players[seat]
    out = []
    for t in me.tickets or ():
        if t in me.completed:
            continue
        ticket = game_map.tickets[t]
        found = shortest_open_path(view, game_map, seat, ticket.a, ticket.b)
        if found is not None and 0 < found[0] <= me.trains:
            out.append((ticket.a, ticket.b, found[0]))
    return out


def serves(view: View, game_map: GameMap, seat: int, route: str,
           tickets: Sequence[tuple[str, str, int]] | None = None) -> bool:
    """Whether `route` lies on a cheapest open path of one of the seat's open tickets."""
    if tickets is None:
        tickets = open_tickets(view, game_map, seat)
    if not tickets:
        return False
    length = game_map.routes[route].length
    owned = dataclasses.replace(view, route_owner={**view.route_owner, route: seat})
    for a, b, cost in tickets:
        found = shortest_open_path(owned, game_map, seat, a, b)
        if found is not None and found[0] <= cost - length:
            return True
    return False


def contested(view: View, game_map: GameMap, seat: int, route: str) -> bool:
    """Whether another player's routes touch either end of the route (they may want it)."""
    r = game_map.routes[route]
    ends = {r.a, r.b}
    for rid, who in view.route_owner.items():
        if who != seat:
            other = game_map.routes[rid]
            if other.a in ends or other.b in ends:
                return True
    return False


def withheld(view: View, game_map: GameMap, action: Action) -> bool:
    """Whether a rule's advice says a computer player should not make this legal move."""
    return any(rule.withholds(view, game_map, action) for rule in advice_of_view(view))


def needed_claims(view: View, game_map: GameMap, legal: Sequence[Action],
                  tickets: Sequence[tuple[str, str, int]] | None = None) -> list[ClaimRoute]:
    """The legal claims (advice allowing) of routes a ticket needs."""
    seat = view.you
    assert seat is not None
    claims = [a for a in legal if isinstance(a, ClaimRoute) and not withheld(view, game_map, a)]
    if not claims:
        return []
    if tickets is None:
        tickets = open_tickets(view, game_map, seat)
    serving: dict[str, bool] = {}
    out = []
    for a in claims:
        if a.route not in serving:
            serving[a.route] = serves(view, game_map, seat, a.route, tickets)
        if serving[a.route]:
            out.append(a)
    return out


def plausible_ticket_draw(view: View, game_map: GameMap) -> bool:
    """Whether drawing tickets now can plausibly pay: not in the final round, and enough
    tickets of the map fit in the trains left."""
    if view.final_turns_left is not None:
        return False
    me = view.me
    assert me is not None
    if me.trains >= TICKET_TRAINS_SURE:
        return True
    own = set(me.tickets or ())
    fitting = 0
    for t, ticket in game_map.tickets.items():
        if t in own:
            continue
        found = shortest_open_path(view, game_map, me.seat, ticket.a, ticket.b)
        if found is not None and found[0] <= me.trains:
            fitting += 1
            if fitting >= PLAUSIBLE_TICKETS:
                return True
    return False


def sensible(view: View, legal: Sequence[Action]) -> Sequence[Action]:
    """The legal moves without those on the list: moves a rule's advice withholds, and
    implausible ticket draws on a plain turn (all of them, if nothing else would be left)."""
    if view.you is None or view.me is None or view.me.hand is None:
        return legal
    game_map = load_map(view.map_id)
    turn = is_turn(view)
    ticket_ok: bool | None = None
    out: list[Action] = []
    for a in legal:
        if isinstance(a, DrawTickets) and turn:
            if ticket_ok is None:
                ticket_ok = plausible_ticket_draw(view, game_map)
            if not ticket_ok:
                continue
        elif withheld(view, game_map, a):
            continue
        out.append(a)
    return out or legal


def repair(view: View, legal: Sequence[Action], chosen: Action) -> Action:
    """`chosen`, unless it is a blunder of the list on a plain turn; then the claim a ticket
    needs instead (the longest, paid with the cheapest cards)."""
    if not is_turn(view) or view.you is None or view.me is None or view.me.hand is None:
        return chosen
    seat = view.you
    game_map = load_map(view.map_id)
    if isinstance(chosen, DrawCard | DrawTickets):
        if view.me.hand_size <= HOARD:
            return chosen
        needed = needed_claims(view, game_map, legal)
    elif isinstance(chosen, ClaimRoute) and view.final_turns_left is None:
        tickets = open_tickets(view, game_map, seat)
        if not tickets or serves(view, game_map, seat, chosen.route, tickets):
            return chosen
        needed = [a for a in needed_claims(view, game_map, legal, tickets)
                  if contested(view, game_map, seat, a.route)]
    else:
        return chosen
    if not needed:
        return chosen
    return max(needed, key=lambda a: (game_map.routes[a.route].length, -card_cost(a.payment), a.route, a.payment))
