"""The planner: the search AI's own way of playing when it does not search, and the policy its
rollouts play for every seat.

It keeps one network plan for all its tickets (`planning.plan_network`), claims the planned
routes it can pay for (the longest first, paid with the cards the rest of the plan needs
least), draws the colours the plan still lacks, takes more tickets only while the game is far
from its end and its plan is finished, keeps the set of tickets whose joint network pays best,
and in the last turns takes whatever scores most at once. The variant decisions (tunnels,
Alsace, passengers, the Controller, dice) are the greedy AI's, fed with this plan.

`decide_turn` and `keep_value` read a `Seen` (what one seat knows), so the rollouts can build
one from a state of their own without making a whole `View`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ai.advice import Decision, advice_of_view
from ai.agents.planning import (
    Connectivity,
    MapInfo,
    Plan,
    closed_groups,
    colour_needs,
    deficits,
    map_info,
    payment_cost,
    plan_network,
    route_points,
)
from ai.blunders import repair, sensible
from ai.greedy import GreedyAI, advised_wanted
from engine.actions import Action, ClaimRoute, DrawCard, DrawTickets, KeepTickets, Pass
from engine.cards import LOCO, Cards
from engine.core import Turn
from engine.maps import GameMap, load_map
from engine.rules.train_cards import SecondCard
from engine.view import View

# Take more tickets only with this many trains left, and while every other player has this many.
TICKET_TRAINS = 20
TICKET_OTHERS = 16
# The end is near when a player has this few trains: finish tickets, then score.
ENDGAME_TRAINS = 6


@dataclass
class Seen:
    """What one seat knows that the planner reads."""

    info: MapInfo
    seat: int
    owner: Mapping[str, int]
    hand: Mapping[str, int]
    tickets: Sequence[str]
    routes: Sequence[str]
    trains: Sequence[int]
    display: Sequence[str | None]
    doubles_open: bool
    final_turns_left: int | None
    can_draw_tickets: bool = True

    @property
    def my_trains(self) -> int:
        return self.trains[self.seat]

    @property
    def others_min(self) -> int:
        return min((t for s, t in enumerate(self.trains) if s != self.seat), default=99)

    def closed(self) -> set[str]:
        return closed_groups(self.info, self.owner, self.seat, self.doubles_open)

    def best_claims(self, routes: Iterable[str]) -> list[str]:
        """`routes`, the claims that add most points at once first (then the longest)."""
        links = Connectivity(self.info, self.routes)
        routes_of = self.info.game_map.routes
        return sorted(routes, key=lambda r: (-claim_gain(self, r, links), -routes_of[r].length, r))

    def plan(self, extra_tickets: Sequence[str] = ()) -> Plan:
        return plan_network(self.info, self.owner, self.seat, self.closed(), list(self.tickets) + list(extra_tickets),
                            self.my_trains, self.routes)


def seen_from_view(view: View) -> Seen:
    seat = view.you
    assert seat is not None
    me = view.players[seat]
    return Seen(
        info=map_info(view.variant, len(view.players), view.options),
        seat=seat,
        owner=view.route_owner,
        hand=me.hand or {},
        tickets=me.tickets or (),
        routes=me.routes,
        trains=[p.trains for p in view.players],
        display=view.display,
        doubles_open=len(view.players) >= view.doubles_from_players,
        final_turns_left=view.final_turns_left,
        can_draw_tickets=any(view.ticket_decks.values()),
    )


# --- the turn ----------------------------------------------------------------------------

# An intent: ("claim", route, payment), ("draw", slot or None), ("tickets",) or ("pass",).
Intent = (tuple[Literal["claim"], str, Cards] | tuple[Literal["draw"], int | None]
          | tuple[Literal["tickets"]] | tuple[Literal["pass"]])


def endgame(seen: Seen) -> bool:
    return seen.final_turns_left is not None or seen.others_min <= ENDGAME_TRAINS or seen.my_trains <= ENDGAME_TRAINS


def takes_tickets(seen: Seen) -> bool:
    """Whether a player whose plan is done (no route left to build) takes more tickets: while
    tickets are left, the end is not near, and it has trains to spare."""
    return (seen.can_draw_tickets and not endgame(seen) and seen.my_trains >= TICKET_TRAINS
            and seen.others_min >= TICKET_OTHERS)


def claim_gain(seen: Seen, route_id: str, links: Connectivity | None = None) -> float:
    """Points a claim adds at once: the route, and each ticket it completes (from lost to won)."""
    info = seen.info
    gain = float(route_points(info, route_id))
    if links is None:
        links = Connectivity(info, seen.routes)
    r = info.route(route_id)
    tmap = info.game_map.tickets
    for t in seen.tickets:
        ticket = tmap[t]
        if not links.joins(ticket.a, ticket.b) and links.joins_with(ticket.a, ticket.b, r.a, r.b):
            gain += 2 * ticket.points
    return gain


def best_payment(options: Sequence[Cards], need: Mapping[str, int], hand: Mapping[str, int]) -> Cards:
    return min(options, key=lambda p: (payment_cost(p, need, hand), p))


def decide_turn(seen: Seen, claims: Mapping[str, Sequence[Cards]], slots: Sequence[int], blind: bool,
                second: bool = False, plan: Plan | None = None) -> Intent:
    """The planner's turn (or second card): `claims` lists the payments open to the player per
    route, `slots` the face-up cards it may take, `blind` whether the deck can be drawn."""
    info = seen.info
    hand = seen.hand
    trains = seen.my_trains
    if not second:
        if plan is None:
            plan = seen.plan()
        planned = [r for r in plan.routes if r in claims and info.lengths[r] <= trains]
        need = colour_needs(info, plan.routes, hand)
        last = seen.final_turns_left is not None
        if last and claims:
            # The final round: score what scores most now.
            links = Connectivity(info, seen.routes)
            rid = max(claims, key=lambda r: (claim_gain(seen, r, links), info.lengths[r], r))
            return ("claim", rid, best_payment(claims[rid], need, hand))
        if planned:
            rid = max(planned, key=lambda r: (info.lengths[r], r))
            rest = colour_needs(info, [r for r in plan.routes if r != rid], hand)
            return ("claim", rid, best_payment(claims[rid], rest, hand))
        if not plan.routes:
            near = endgame(seen)
            if takes_tickets(seen):
                return ("tickets",)
            if claims:
                # Nothing left to build: turn trains into points, long routes first, when the
                # end is near or the hand holds enough for a long route.
                rid = max(claims, key=lambda r: (info.lengths[r], -payment_cost(min(claims[r]), {}, hand), r))
                if near or info.lengths[rid] >= 4 or sum(hand.values()) >= 12:
                    return ("claim", rid, best_payment(claims[rid], {}, hand))
        elif endgame(seen) and claims and seen.others_min <= 3:
            # Someone is about to end the game and nothing planned can be paid: score now.
            links = Connectivity(info, seen.routes)
            rid = max(claims, key=lambda r: (claim_gain(seen, r, links), r))
            return ("claim", rid, best_payment(claims[rid], need, hand))
    else:
        plan = plan if plan is not None else seen.plan()
        need = colour_needs(info, plan.routes, hand)
    return draw_intent(seen, need, slots, blind, second)


def draw_intent(seen: Seen, need: Mapping[str, int], slots: Sequence[int], blind: bool, second: bool) -> Intent:
    """Take the face-up card the plan lacks most; else a blind card."""
    short = deficits(need, seen.hand)
    display = seen.display
    best_slot, best_key = None, None
    for slot in slots:
        card = display[slot]
        if card is None:
            continue
        if card == LOCO:
            # A face-up locomotive is the whole draw: worth it only for a ferry's locomotives.
            if not second and need.get(LOCO, 0) > seen.hand.get(LOCO, 0):
                key = (5, 0)
            else:
                continue
        elif short.get(card, 0) > 0:
            key = (short[card], 1)
        else:
            continue
        if best_key is None or key > best_key:
            best_slot, best_key = slot, key
    if best_slot is not None:
        return ("draw", best_slot)
    if blind:
        return ("draw", None)
    plain = [s for s in slots if display[s] is not None and display[s] != LOCO]
    if plain:
        return ("draw", plain[0])
    if slots:
        return ("draw", slots[0])
    return ("pass",)


# --- tickets -----------------------------------------------------------------------------

# Each train a ticket adds to the plan costs this much (the cards and turns to lay it).
TRAIN_COST = 0.6
# A plan may use this share of the trains left before it is thought overloaded.
LOAD_SHARE = 0.55
OVERLOAD_COST = 3.0


def keep_value(seen: Seen, keep: Sequence[str], base: Plan | None = None) -> float:
    """How good keeping these tickets (on top of those held) looks: points the joint plan
    finishes, minus those it cannot, minus the trains it adds, minus overload."""
    info = seen.info
    tmap = info.game_map.tickets
    if base is None:
        base = seen.plan()
    plan = seen.plan(keep)
    kept = set(keep)
    value = 0.0
    for t in plan.planned + plan.done:
        if t in kept:
            value += tmap[t].points
    for t in plan.dropped:
        # A ticket held before and now dropped costs as much as a new one that cannot be made.
        if t in kept or t not in base.dropped:
            value -= tmap[t].points
    value -= TRAIN_COST * (plan.trains - base.trains)
    room = LOAD_SHARE * seen.my_trains
    if plan.trains > room:
        value -= OVERLOAD_COST * (plan.trains - room)
    return value


def choose_keep(seen: Seen, options: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    base = seen.plan()
    return max(options, key=lambda k: (keep_value(seen, k, base), -len(k), k))


# --- the AI ------------------------------------------------------------------------------


class PlannerAI(GreedyAI):
    """The planner as a player (the search AI's fallback and prior; see the module text)."""

    level = "planner"

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        assert view is not None and view.you is not None, "the planner reads its own view"
        legal = sensible(view, legal)
        kinds = {a.TYPE for a in legal}
        if isinstance(view.pending.decision, Turn | SecondCard) and not _advised(view, legal):
            return self.turn(view, legal)
        if "keep_tickets" in kinds and isinstance(view.pending.offers[view.you] if view.pending.offers else None,
                                                  list):
            seen = seen_from_view(view)
            options = [a.keep for a in legal if isinstance(a, KeepTickets)]
            keep = choose_keep(seen, options)
            return next(a for a in legal if isinstance(a, KeepTickets) and a.keep == keep)
        return super().choose(view, legal)

    def turn(self, view: View, legal: Sequence[Action]) -> Action:
        if isinstance(view.pending.decision, Turn):
            decision = Decision(view, load_map(view.map_id), legal, view.you or 0)
            for rule in advice_of_view(view):
                action = rule.before_turn(self, decision)
                if action is not None:
                    return action
        return repair(view, legal, self._plan_turn(view, legal))

    def _plan_turn(self, view: View, legal: Sequence[Action]) -> Action:
        seen = seen_from_view(view)
        claims: dict[str, list[Cards]] = {}
        slots: list[int] = []
        blind = False
        for a in legal:
            if isinstance(a, ClaimRoute):
                claims.setdefault(a.route, []).append(a.payment)
            elif isinstance(a, DrawCard):
                if a.slot is None:
                    blind = True
                else:
                    slots.append(a.slot)
        seen.can_draw_tickets = any(isinstance(a, DrawTickets) for a in legal)
        intent = decide_turn(seen, claims, slots, blind, second=isinstance(view.pending.decision, SecondCard))
        return intent_action(intent, view.you or 0, legal)

    # The greedy AI's variant decisions ask for the routes wanted: the plan's (and those the
    # rules' advice wants: in Alsace, a route into each tourist town still to visit).
    def _wanted_routes(self, view: View, game_map: GameMap, seat: int) -> set[str]:
        if view.you == seat and view.players[seat].tickets is not None:
            return set(seen_from_view(view).plan().routes) | advised_wanted(view, game_map, seat)
        return super()._wanted_routes(view, game_map, seat)


def _advised(view: View, legal: Sequence[Action]) -> bool:
    """Whether a move of a rule's own advice is legal (the USSR Controller, Alsace's burn 5):
    the planner plans claims, draws and tickets, and leaves such a turn to that advice."""
    advised = tuple(t for advice in advice_of_view(view) for t in advice.actions)
    return any(isinstance(a, advised) for a in legal)


def intent_action(intent: Intent, seat: int, legal: Sequence[Action]) -> Action:
    """The legal action an intent names (the first legal action if none matches)."""
    want: Action
    if intent[0] == "claim":
        want = ClaimRoute(seat, intent[1], intent[2])
    elif intent[0] == "draw":
        want = DrawCard(seat, intent[1])
    elif intent[0] == "tickets":
        tickets = [a for a in legal if isinstance(a, DrawTickets)]
        if tickets:
            return tickets[0]
        want = Pass(seat)
    else:
        want = Pass(seat)
    for a in legal:
        if a == want:
            return a
    return legal[0]
