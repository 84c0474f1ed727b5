"""Rollouts: the planner playing every seat of a sampled state, fast.

The search plays thousands of moves per decision, so this policy reads the sampled state
directly (it is the search's own guess, not the real game) instead of building a `View` per
move, keeps each seat's plan until a route of it is taken, and lists only the payments of the
routes it wants instead of every legal claim. Each move it makes is one the rules accept
(`apply` checks); where it does not know a decision it asks `legal_actions`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ai.advice import advice_for
from ai.agents.network import tickets_pay
from ai.agents.planner import Seen, choose_keep, decide_turn, endgame, takes_tickets
from ai.agents.planning import (
    MapInfo,
    Plan,
    closed_groups,
    plan_network,
    shortest_path,
)
from engine.actions import (
    Action,
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
)
from engine.cards import LOCO, Cards
from engine.core import Turn
from engine.decisions import decision_of
from engine.errors import IllegalAction
from engine.game import actors, apply, legal_actions, legal_actions_of, load_game, offered, opening
from engine.rules.claim_route import ClaimRoutes
from engine.rules.train_cards import SecondCard, TrainCardDraw
from engine.ruleset import RuleSet
from engine.rulesets import ruleset_for
from engine.state import GameState

# Keep a drawn ticket when its extra trains cost less than its points by this factor.
KEEP_TRAIN_COST = 0.6


class RolloutPolicy:
    """The planner for every seat of one sampled game (plans are cached per seat)."""

    def __init__(self, info: MapInfo, rules: RuleSet, network_tickets: Collection[int] = (),
                 network_keep: Collection[int] = ()) -> None:
        self.info = info
        # The seats that take more tickets by the network planner's rule (`network.tickets_pay`:
        # from 12 trains, while the others' trains leave ten turns), not the planner's (from 20
        # trains, while every other player has 16): the search's model of an opponent that
        # goes on drawing tickets once its plan is done.
        self.network_tickets = frozenset(network_tickets)
        # The seats that keep offered tickets as the network planner does (the planner's
        # `choose_keep`: the set whose joint plan pays best, each option planned), not by
        # `keep`'s ticket-by-ticket rule, which keeps fewer (2 at the opening where the planner
        # keeps 3).
        self.network_keep = frozenset(network_keep)
        self.rules = rules
        self.payment = rules.payment
        draw = next((m for m in rules.modules if isinstance(m, TrainCardDraw)), None)
        self.loco_second = bool(draw and draw.faceup_loco_second)
        self.plans: dict[int, tuple[tuple[str, ...], Plan]] = {}
        self.doubles_open = True
        # Each rule's own decisions (a tunnel's extra, a Lucky Devil, a passenger, calling
        # time) are its advice's (ai/advice/, `Advice.playout`).
        self.advice = advice_for(rules)
        # The rule that lists the claims of a turn, when it is the only one (every card game).
        listing = [m for m in rules.modules_for("turn") if ClaimRoute in m.actions.get("turn", ())]
        self.claimer = listing[0] if len(listing) == 1 and isinstance(listing[0], ClaimRoutes) else None
        # The work done, for the search's budget: claims listed with every payment, and
        # network plans made (a move's cost varies with both; tests/ai/test_search_budget.py).
        self.listed = 0
        self.plans_made = 0

    # --- plans ---------------------------------------------------------------------------
    def plan(self, state: GameState, seat: int) -> Plan:
        p = state.players[seat]
        key = tuple(p.tickets)
        owner = state.route_owner
        cached = self.plans.get(seat)
        closed = closed_groups(self.info, owner, seat, self.doubles_open)
        if cached is not None and cached[0] == key:
            plan = cached[1]
            routes = [r for r in plan.routes if owner.get(r) != seat]
            if all(r not in owner and self.info.route(r).parallel_group not in closed for r in routes):
                if len(routes) != len(plan.routes):
                    plan.routes = routes
                    plan.trains = sum(self.info.lengths[r] for r in routes)
                if plan.trains <= p.trains:
                    return plan
        plan = plan_network(self.info, owner, seat, closed, p.tickets, p.trains, p.routes)
        self.plans_made += 1
        self.plans[seat] = (key, plan)
        return plan

    def seen(self, state: GameState, seat: int) -> Seen:
        p = state.players[seat]
        return Seen(
            info=self.info, seat=seat, owner=state.route_owner, hand=p.hand, tickets=p.tickets, routes=p.routes,
            trains=[q.trains for q in state.players], display=state.display, doubles_open=self.doubles_open,
            final_turns_left=state.final_turns_left,
            can_draw_tickets=any(state.ticket_decks.values()))

    # --- moves ---------------------------------------------------------------------------
    def choose(self, state: GameState, seat: int) -> Action:
        decision = decision_of(state.pending)
        if isinstance(decision, Turn):
            return self.turn(state, seat, second=False)
        if isinstance(decision, SecondCard):
            return self.turn(state, seat, second=True)
        return self.other(state, seat)

    def turn(self, state: GameState, seat: int, second: bool) -> Action:
        seen = self.seen(state, seat)
        plan = self.plan(state, seat)
        display = state.display
        if second:
            slots = [i for i, c in enumerate(display) if c is not None and (c != LOCO or self.loco_second)]
        else:
            slots = [i for i, c in enumerate(display) if c is not None]
        blind = bool(state.deck or state.discard)
        claims: dict[str, Sequence[Cards]] = {}
        if not second:
            last = state.final_turns_left is not None
            if seat in self.network_tickets:
                if not last and not plan.routes and seen.can_draw_tickets and tickets_pay(seen):
                    return DrawTickets(seat)
                seen.can_draw_tickets = False  # the planner's own ticket rule is replaced by the above
            if last or (not plan.routes and not takes_tickets(seen)) or (endgame(seen) and seen.others_min <= 3):
                # Any route may be worth claiming now: list them all (not when the plan is
                # done and the planner takes tickets whatever it could claim).
                claims.update(self.every_claim(state, seat))
            else:
                hand = state.players[seat].hand
                trains = state.players[seat].trains
                game_map = self.info.game_map
                for rid in plan.routes:
                    route = game_map.routes[rid]
                    if route.length <= trains:
                        options = self.payment.claim_options(game_map, route, hand)
                        if options:
                            claims[rid] = options
        intent = decide_turn(seen, claims, slots, blind, second, plan)
        if intent[0] == "claim":
            return ClaimRoute(seat, intent[1], intent[2])
        if intent[0] == "draw":
            return DrawCard(seat, intent[1])
        if intent[0] == "tickets":
            return DrawTickets(seat)
        return self.fallback(state, seat)

    def every_claim(self, state: GameState, seat: int) -> dict[str, Sequence[Cards]]:
        """The payments of every route the seat may claim on its turn, by route, in the order
        `legal_actions` lists them; asked of the claim rule itself where it is the only rule
        listing claims (no action is built per payment: a big hand has hundreds)."""
        if self.claimer is not None:
            by_route = self.claimer.payments_by_route(load_game(state, rules=self.rules), seat)
            self.listed += sum(len(options) for _, options in by_route)
            return dict(by_route)
        listed: dict[str, list[Cards]] = {}
        for a in legal_actions_of(state, seat, ClaimRoute, rules=self.rules):
            self.listed += 1
            listed.setdefault(a.route, []).append(a.payment)
        return dict(listed)

    def other(self, state: GameState, seat: int) -> Action:
        legal = legal_actions(state, seat, rules=self.rules)
        self.listed += sum(isinstance(a, ClaimRoute) for a in legal)
        if not legal:
            return Pass(seat)
        if len(legal) == 1:
            return legal[0]
        for advice in self.advice:
            action = advice.playout(self, state, seat, legal)
            if action is not None:
                return action
        first = legal[0]
        if any(isinstance(a, KeepTickets) for a in legal):
            return self.keep(state, seat, [a for a in legal if isinstance(a, KeepTickets)])
        if isinstance(first, DrawTickets):  # an announced mix: mostly short tickets
            want_long = 1 if opening(state) else 0
            return max((a for a in legal if isinstance(a, DrawTickets)),
                       key=lambda a: (-abs(dict(a.mix).get("long", 0) - want_long), dict(a.mix).get("short", 0)))
        return first

    def keep(self, state: GameState, seat: int, options: list[KeepTickets]) -> Action:
        """Keep the offered tickets whose extra trains (beyond the plan) cost less than their
        points, within the trains left; the legal choice nearest to that. A seat of
        `network_keep` keeps the planner's choice (`choose_keep`) instead."""
        p = state.players[seat]
        offer = offered(state, seat)
        if seat in self.network_keep and isinstance(offer, list):
            kept = choose_keep(self.seen(state, seat), [a.keep for a in options])
            self.plans_made += len(options) + 1  # each option's plan and the plan without it
            return next(a for a in options if a.keep == kept)
        tickets = list(offer.get("tickets", [])) if isinstance(offer, dict) else list(offer)
        plan = self.plan(state, seat)
        closed = closed_groups(self.info, state.route_owner, seat, self.doubles_open)
        tmap = self.info.game_map.tickets
        room = p.trains - plan.trains
        scored: list[tuple[float, str]] = []
        for t in tickets:
            found = shortest_path(self.info, state.route_owner, seat, closed, tmap[t].a, tmap[t].b, plan.routes)
            if found is None:
                scored.append((-tmap[t].points, t))
                continue
            extra = sum(self.info.lengths[r] for r in found[1] if r not in plan.routes)
            value = tmap[t].points - KEEP_TRAIN_COST * extra - (100 if extra > room else 0)
            scored.append((value, t))
        good = {t for v, t in scored if v > 0}
        worth = {t: v for v, t in scored}

        def fit(option: KeepTickets) -> tuple[int, float]:
            kept = {k for k in option.keep if k in worth}
            return (-len(kept ^ good), sum(worth[k] for k in kept))

        return max(options, key=fit)

    def fallback(self, state: GameState, seat: int) -> Action:
        """The first card draw, else the first legal move (else a pass). The draws are asked
        for alone first: on a big hand (Germany) the whole listing holds hundreds of claims,
        each payment of each route, only for this to take the first draw (the same move:
        `legal_actions_of` keeps `legal_actions`' order; tests/ai/test_rollout.py)."""
        draws = legal_actions_of(state, seat, DrawCard, rules=self.rules)
        if draws:
            return draws[0]
        return (legal_actions(state, seat, rules=self.rules) or [Pass(seat)])[0]


def play_out(state: GameState, policy: RolloutPolicy, max_steps: int) -> tuple[GameState, int]:
    """Play the sampled game on with the policy for at most `max_steps` moves; the state
    reached and the moves made."""
    steps = 0
    while state.status != "over" and steps < max_steps:
        seat = actors(state)[0]
        action = policy.choose(state, seat)
        try:
            state, _ = apply(state, action)
        except IllegalAction:
            state, _ = apply(state, policy.fallback(state, seat))
        steps += 1
    return state, steps


def new_policy(state: GameState, info: MapInfo, network_tickets: Collection[int] = (),
               network_keep: Collection[int] = ()) -> RolloutPolicy:
    """The policy for a playout of `state`; `network_tickets` are the seats that take more
    tickets by the network planner's rule, `network_keep` those that keep tickets as it does
    (RolloutPolicy)."""
    rules = ruleset_for(state)
    policy = RolloutPolicy(info, rules, network_tickets, network_keep)
    policy.doubles_open = len(state.players) >= rules.doubles_from_players
    return policy

