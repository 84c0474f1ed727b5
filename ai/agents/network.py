"""The joint-network planner: all its tickets planned as one network, the route the plan would
miss most claimed first, tickets weighed against the turns left. A strong opponent of the
project's own for the hard AI to be measured against (tools/tournament.py `network`).

- **One network.** The tickets are joined one by one over the cheapest open paths, where
  routes already planned cost nothing (a Steiner-tree heuristic, `planning.plan_network`); the
  order matters, so it tries each ticket first in turn (then the rest longest first) and keeps
  the plan that finishes the most ticket points with the fewest trains.
- **The route it would miss most first.** For each planned route it can pay for now, it
  replans as if another player had taken it: the trains the plan would then need more (and
  twice the points of each ticket it would lose) is what losing it costs; a route that another
  player's network touches is likelier to go (its cost counts half again). It claims the route
  whose loss costs most, the longest on ties.
- **Tickets against the turns left.** It takes more tickets only once the plan is done, with
  trains to spare, and while the turns the others leave (their fewest trains, at about
  `TRAINS_PER_TURN` a turn) outnumber those a new ticket would take.

Every other decision (cards, the variant's own decisions, the last turns) is the planner's.
Like every computer player it reads only its view and the legal moves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ai.agents.planner import PlannerAI, Seen, decide_turn, intent_action, seen_from_view
from ai.agents.planning import Plan, colour_needs, payment_cost, plan_network, ticket_order
from ai.greedy import advised_wanted
from engine.actions import Action, ClaimRoute, DrawCard, DrawTickets
from engine.cards import Cards
from engine.maps import GameMap, Ticket
from engine.rules.train_cards import SecondCard
from engine.view import View

# The trains a player lays per turn, on average over a game (a claim of ~2.5 every other turn).
TRAINS_PER_TURN = 1.3
# A new ticket takes about this many turns (cards and claims); take one only with more left.
TURNS_PER_TICKET = 10
MIN_TICKET_TRAINS = 12
CONTESTED = 1.5


def best_plan(seen: Seen, extra: Sequence[str] = ()) -> Plan:
    """The plan finishing most ticket points with fewest trains over a few ticket orders."""
    tickets = list(seen.tickets) + list(extra)
    info = seen.info
    closed = seen.closed()
    ordered = ticket_order(info, tickets)
    points = info.game_map.tickets

    def plan_of(order: list[str]) -> Plan:
        return _plan_in_order(seen, closed, order)

    best = plan_of(ordered)
    for t in ordered[1:]:
        candidate = plan_of([t, *(x for x in ordered if x != t)])
        if _key(candidate, points) > _key(best, points):
            best = candidate
    return best


def _key(plan: Plan, tickets: Mapping[str, Ticket]) -> tuple[int, int]:
    return (sum(tickets[t].points for t in plan.planned + plan.done), -plan.trains)


def _plan_in_order(seen: Seen, closed: set[str], order: list[str], owner: dict[str, int] | None = None) -> Plan:
    # plan_network orders its tickets longest first; the order here is kept by planning one
    # ticket at a time, each on top of the routes planned before it.
    info = seen.info
    owner = dict(seen.owner) if owner is None else owner
    plan = Plan()
    free: list[str] = []
    for t in order:
        step = plan_network(info, owner, seen.seat, closed, [t], seen.my_trains - plan.trains, seen.routes, free)
        plan.done.extend(step.done)
        plan.dropped.extend(step.dropped)
        plan.planned.extend(step.planned)
        plan.routes.extend(step.routes)
        plan.trains += step.trains
        plan.cost += step.cost
        free.extend(step.routes)
    return plan


def tickets_pay(seen: Seen) -> bool:
    """Whether a player whose plan is done takes more tickets, by the network planner's rule:
    trains to spare, and more turns left (the others' fewest trains at `TRAINS_PER_TURN` a
    turn) than a new ticket takes. Also the hard AI's model of such a player in its playouts
    (rollout.RolloutPolicy, `network_tickets`)."""
    turns_left = seen.others_min / TRAINS_PER_TURN
    return seen.my_trains >= MIN_TICKET_TRAINS and turns_left >= TURNS_PER_TICKET


class NetworkAI(PlannerAI):
    """The joint-network planner (see the module text)."""

    level = "network"

    def _plan_turn(self, view: View, legal: Sequence[Action]) -> Action:
        seen = seen_from_view(view)
        claims: dict[str, list[Cards]] = {}
        slots: list[int] = []
        blind = False
        tickets = None
        for a in legal:
            if isinstance(a, ClaimRoute):
                claims.setdefault(a.route, []).append(a.payment)
            elif isinstance(a, DrawCard):
                if a.slot is None:
                    blind = True
                else:
                    slots.append(a.slot)
            elif isinstance(a, DrawTickets) and tickets is None:
                tickets = a
        seen.can_draw_tickets = tickets is not None
        second = isinstance(view.pending.decision, SecondCard)
        plan = best_plan(seen)
        seat = view.you or 0
        if not second and seen.final_turns_left is None:
            info = seen.info
            planned = [r for r in plan.routes if r in claims and info.lengths[r] <= seen.my_trains]
            if planned:
                rid = max(planned, key=lambda r: (self._miss(seen, plan, r), info.lengths[r], r))
                rest = colour_needs(info, [r for r in plan.routes if r != rid], seen.hand)
                payment = min(claims[rid], key=lambda p: (payment_cost(p, rest, seen.hand), p))
                return ClaimRoute(seat, rid, payment)
            if not plan.routes and tickets is not None and tickets_pay(seen):
                return tickets
            seen.can_draw_tickets = False  # the planner's own ticket rule is replaced by the above
        return intent_action(decide_turn(seen, claims, slots, blind, second, plan), seat, legal)

    @staticmethod
    def _miss(seen: Seen, plan: Plan, route: str) -> float:
        """What losing `route` to another player would cost the plan."""
        info = seen.info
        owner = dict(seen.owner)
        owner[route] = -1  # taken by someone else
        after = _plan_in_order(seen, seen.closed(), list(plan.planned), owner)
        tmap = info.game_map.tickets
        lost = sum(2 * tmap[t].points for t in after.dropped if t in plan.planned)
        cost = after.trains - plan.trains + lost
        r = info.route(route)
        touched = any(who != seen.seat and (info.route(rid).a in (r.a, r.b) or info.route(rid).b in (r.a, r.b))
                      for rid, who in seen.owner.items())
        return cost * (CONTESTED if touched else 1.0)

    # The variant decisions (tunnels, the Controller, ...) ask for the routes wanted: this plan's.
    def _wanted_routes(self, view: View, game_map: GameMap, seat: int) -> set[str]:
        if view.you == seat and view.players[seat].tickets is not None:
            return set(best_plan(seen_from_view(view)).routes) | advised_wanted(view, game_map, seat)
        return super()._wanted_routes(view, game_map, seat)
