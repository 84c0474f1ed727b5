"""The hard AI: a determinised Monte Carlo search under hidden information.

Where a choice shapes the rest of the game — which tickets to keep (at the start and after a
draw), whether to take more tickets once its plan is done, and every move of the last turns —
it takes a handful of candidate moves — the planner's own choice and its closest rivals (other
sets of tickets to keep, taking tickets, the routes that score most now, a card) — and scores
each by playing the game out: it samples what it cannot see
(`determinize.sample_state`: the other hands and tickets, the deck order), makes the move in
the sample, lets the planner play every seat to the end (`rollout`), and reads the final score
sheet: its total minus the best other total. Every candidate is played out on the same
samples (common random numbers), so the comparison is between moves, not between luck. The
move with the best mean wins; the planner's own choice wins ties and near-ties.

The work is counted in units (moves played out, plans made, playouts ended, claims listed:
`work_units`), never in seconds: with the same seed and the same view it always makes the
same move, and replays stay exact. Its randomness comes from the seed
it is given (the bot gives a fresh one per decision) mixed with the turn number.

With the Dice Expansion it searches the dice turn where its advice says a choice matters (the
last turns, more tickets once the plan is done, a short planned route now or a re-roll for a
longer one: `Advice.search_candidates`); the dice already rolled are public and copied into
each sample, the dice to come are rolled by the sample's own generator.

Decisions it does not search (the second card, tunnels, passengers, the Controller's target,
Alsace's devils and calls, the tunnel dice and tokens) are the planner's.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ai.advice import advice_of_view, budget_share, can_search
from ai.agents.determinize import sample_state, ticket_weights
from ai.agents.planner import PlannerAI, Seen, claim_gain, keep_value, seen_from_view
from ai.agents.planning import Connectivity, MapInfo, closed_groups, colour_needs, payment_cost, plan_network
from ai.agents.rollout import RolloutPolicy, new_policy, play_out
from ai.blunders import repair, sensible
from ai.sampling import CannotSample
from engine.actions import Action, ClaimRoute, DrawCard, DrawTickets, KeepTickets
from engine.core import Turn
from engine.errors import IllegalAction
from engine.game import apply
from engine.rng import Rng, seed_state
from engine.rules.tickets import ChooseTickets
from engine.state import GameState
from engine.view import View

# Work units per searched decision (all samples and candidates together): more for the
# opening choice of tickets, which shapes the whole game. A unit is about one playout move of
# a card game (35-55 microseconds of CPU on the idle machine of 6 December 2026); moves are
# not all alike, so what makes one dear is counted too (`work_units`): each network plan made
# (shortest paths for all of a seat's tickets), each playout's end (the final score sheet,
# the longest trail included, and the sample's clone), and each claim payment listed
# (Germany's big hands list hundreds a turn). The weights are fitted to the CPU time of 290
# searched decisions on every variant, dice on and off (docs/ai.md, "Decision time").
BUDGET = 12000
OPENING_BUDGET = 28000
PLAN_WORK = 10
PLAYOUT_WORK = 4
LISTED_PER_UNIT = 100
# At most this many samples per decision, and this many sets of tickets compared.
MAX_SAMPLES = 64
MAX_KEEP_CANDIDATES = 6
# Taking more tickets is searched only with this many trains left.
MIN_TICKET_TRAINS = 10
# Whether the opening keep, and a draw of more tickets the planner itself would make, are
# searched (True) or taken from the planner unsearched (False). Playouts are played by the
# planner for every seat, whose keeping and completion of tickets in a playout
# (rollout.RolloutPolicy.keep) make more tickets look worse than the real planner plays them;
# but taking both from the planner lost on Europe against the network planner (6 December
# 2026, 100 paired games: 56 wins to 66; USA 63 to 65 of 110; docs/ai.md), so both stay searched.
SEARCH_OPENING_KEEP = True
SEARCH_PLANNED_TICKET_DRAW = True
# Who, in a playout, takes more tickets once its plan is done by the network planner's rule
# (network.tickets_pay: from 12 trains, while the others' trains leave ten turns) instead of the
# planner's (from 20 trains, while every other has 16): the other seats (a model of an opponent
# that completes four tickets a game, as the network planner does), and the searching seat's own
# future turns. See docs/ai.md, "A better opponent model in the playouts".
NETWORK_TICKETS_OTHERS = False
NETWORK_TICKETS_SELF = False
# ... and who keeps offered tickets as the network planner does (the planner's choose_keep, the
# set whose joint plan pays best) instead of rollout.RolloutPolicy.keep's cheaper rule.
NETWORK_KEEP_OTHERS = False
NETWORK_KEEP_SELF = False
# Blocking: on a turn the planner would not search, a claim of the route that another
# player's likely network would miss most (its likely tickets guessed from its visible claims
# only, `likely_tickets`) is compared with the planner's move when losing that route would cost
# the other player at least BLOCK_MIN_COST (trains its plan would need more, and twice the points
# of each ticket it could no longer finish). See docs/ai.md, "A better opponent model".
BLOCKING = False
BLOCK_MIN_COST = 6.0
# Every turn is searched once a player has this few trains left (the last turns).
LATE_TRAINS = 8
MAX_TURN_CANDIDATES = 5
# Moves per playout before it is cut short (a whole game is far fewer).
PLAYOUT_CAP = 600
# A rival must beat the planner's own choice by this many points on average to be taken.
PRIOR_MARGIN = 2.0
# ... and by this many standard errors of the paired differences.
CONFIDENCE = 1.5
# How a playout is scored (`evaluate`): its margin (own total minus the best other), then, when
# WIN_SCALE is set, saturated to WIN_SCALE * tanh(margin / WIN_SCALE) (a win by 40 counts little
# more than a win by 15), then WIN_BONUS points added for a win and taken for a loss. The target
# is a win rate, and the margin weighs a lost game's 30 points as much as a close game's win.
# Both stay in points (a saturated score moves by a point a point near an even game), so
# PRIOR_MARGIN and CONFIDENCE keep their meaning; 0 turns each off (the margin alone).
WIN_BONUS = 0.0
WIN_SCALE = 0.0


@dataclass
class SearchReport:
    """What the last decision did (for tests and benches)."""

    searched: bool = False
    samples: int = 0
    moves: int = 0
    candidates: list[Action] = field(default_factory=list)
    values: list[float] = field(default_factory=list)
    reason: str = ""
    listed: int = 0
    plans: int = 0
    work: int = 0


class SearchAI(PlannerAI):
    """The hard AI (see the module text)."""

    level = "hard"
    budget = BUDGET

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.seed = seed
        self.report = SearchReport()

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        assert view is not None and view.you is not None, "the search AI reads its own view"
        self.report = SearchReport()
        legal = sensible(view, legal)
        default = super().choose(view, legal)
        if len(legal) <= 1:
            self.report.reason = "one legal move"
            return default
        # A candidate that is a blunder of the list is not compared at all.
        candidates = [a for a in self.candidates(view, legal, default) if a is default or repair(view, legal, a) is a]
        if len(candidates) <= 1:
            self.report.reason = "one candidate"
            return default
        try:
            return self.search(view, candidates)
        except CannotSample as exc:
            self.report.reason = f"not searched: {exc}"
            return default

    # --- candidates ----------------------------------------------------------------------
    def candidates(self, view: View, legal: Sequence[Action], default: Action) -> list[Action]:
        """The moves worth comparing. The search runs where a choice shapes the rest of the
        game: which tickets to keep, and whether to take more tickets once the plan is done.
        Elsewhere the planner's move stands."""
        decision = view.pending.decision
        if not can_search(view):  # a rule whose games a sample cannot go on
            return [default]
        if decision is not None and decision.is_turn and not isinstance(decision, Turn):
            # A rule's own turn (the Dice Expansion's roll and action): its advice says which
            # moves are worth playing out.
            seen = seen_from_view(view)
            late = view.final_turns_left is not None or min(seen.trains) <= LATE_TRAINS
            for advice in advice_of_view(view):
                found = advice.search_candidates(view, legal, default, seen, late)
                if found is not None:
                    return found
            return [default]
        if isinstance(decision, Turn):
            return self._turn_candidates(view, legal, default)
        if isinstance(decision, ChooseTickets) and isinstance(default, KeepTickets):
            if view.pending.setup and not SEARCH_OPENING_KEEP:
                return [default]
            offers = view.pending.offers
            seat = view.you
            if offers is None or seat is None or not isinstance(offers[seat], list):
                return [default]
            seen = seen_from_view(view)
            options = [a for a in legal if isinstance(a, KeepTickets)]
            base = seen.plan()
            ranked = sorted(options, key=lambda a: (-keep_value(seen, a.keep, base), len(a.keep), a.keep))
            out: list[Action] = [default]
            out.extend(a for a in ranked if a != default)
            return out[:MAX_KEEP_CANDIDATES]
        return [default]

    def _turn_candidates(self, view: View, legal: Sequence[Action], default: Action) -> list[Action]:
        """On a turn the search runs when the plan is done (more tickets, or score with what is
        held?) and in the last turns of the game (which claim, or a card, now that every move
        counts — playouts are short then, so this is cheap); with BLOCKING also where a claim
        would cost another player's likely network dearly (`block_claim`)."""
        seen = seen_from_view(view)
        plan = seen.plan()
        tickets = [a for a in legal if isinstance(a, DrawTickets)]
        plan_done = (not plan.routes and bool(tickets) and seen.my_trains >= MIN_TICKET_TRAINS
                     and view.final_turns_left is None)
        late = view.final_turns_left is not None or min(seen.trains) <= LATE_TRAINS
        block = block_claim(view, legal, seen) if BLOCKING and not late else None
        if not (plan_done or late):
            return [default] if block is None or block == default else [default, block]
        if not late and isinstance(default, DrawTickets) and not SEARCH_PLANNED_TICKET_DRAW:
            return [default]
        out: list[Action] = [default]

        def add(action: Action | None) -> None:
            if action is not None and action not in out and len(out) < MAX_TURN_CANDIDATES:
                out.append(action)

        if plan_done:
            add(tickets[0])
        add(block)
        claims: dict[str, list[ClaimRoute]] = {}
        for a in legal:
            if isinstance(a, ClaimRoute):
                claims.setdefault(a.route, []).append(a)
        links = Connectivity(seen.info, seen.routes)
        info = seen.info
        ranked = sorted(claims, key=lambda r: (-claim_gain(seen, r, links), -info.lengths[r], r))
        for rid in ranked[:3]:
            add(min(claims[rid], key=lambda a: (payment_cost(a.payment, {}, seen.hand), a.payment)))
        draws = [a for a in legal if isinstance(a, DrawCard)]
        if draws:
            add(PlannerAI.turn(self, view, draws))
            add(next((a for a in draws if a.slot is None), None))
        return out

    # --- the search ----------------------------------------------------------------------
    def search(self, view: View, candidates: list[Action]) -> Action:
        seat = view.you
        assert seat is not None
        seen: Seen = seen_from_view(view)
        rng = Rng(seed_state((self.seed * 0x9E3779B1) ^ (view.turn << 20) ^ 0x5EED))
        values: list[list[float]] = [[] for _ in candidates]
        samples = 0
        moves = 0
        listed = plans = 0
        budget = self.budget * OPENING_BUDGET // BUDGET if view.pending.setup else self.budget
        budget = int(budget * budget_share(view))
        while samples < MAX_SAMPLES and work_units(moves, listed, plans, samples * len(candidates)) < budget:
            state = sample_state(view, rng, seen.info)
            samples += 1
            for i, action in enumerate(candidates):
                value, steps, policy = self._play(state, action, seat, seen)
                values[i].append(value)
                moves += steps
                if policy is not None:
                    listed += policy.listed
                    plans += policy.plans_made
        means = [sum(v) / samples for v in values]
        best = 0
        for i in range(1, len(candidates)):
            if means[i] > means[best] and _better(values[i], values[0]):
                best = i
        work = work_units(moves, listed, plans, samples * len(candidates))
        self.report = SearchReport(True, samples, moves, list(candidates), means, listed=listed, plans=plans,
                                   work=work)
        return candidates[best]

    def _play(self, state: GameState, action: Action, seat: int, seen: Seen
              ) -> tuple[float, int, RolloutPolicy | None]:
        try:
            after, _ = apply(state, action)
        except IllegalAction:
            return -1000.0, 1, None
        seats = range(len(after.players))
        tickets = [s for s in seats if (NETWORK_TICKETS_SELF if s == seat else NETWORK_TICKETS_OTHERS)]
        keep = [s for s in seats if (NETWORK_KEEP_SELF if s == seat else NETWORK_KEEP_OTHERS)]
        policy = new_policy(after, seen.info, tickets, keep)
        end, steps = play_out(after, policy, PLAYOUT_CAP)
        return evaluate(end, seat), steps + 1, policy


def likely_tickets(view: View, seat: int, info: MapInfo) -> list[str]:
    """The tickets `seat` (another player) most likely holds, as many as it holds, guessed from
    what the viewer sees: tickets it cannot hold (the viewer's own and those offered to it) are
    left out, and of the rest those whose cheapest empty-board path shares a route with its
    claims (`determinize.ticket_weights`, the samples' own weights) come first; only tickets
    with such a route are named, so a player with no claims gets none."""
    me = view.players[view.you or 0]
    offers = view.pending.offers
    mine = offers[view.you or 0] if offers is not None else None
    known = set(me.tickets or ()) | (set(mine) if isinstance(mine, list | tuple) else set())
    unseen = [t for t in info.game_map.tickets if t not in known]
    routes = view.players[seat].routes
    weights = ticket_weights(info, routes, unseen)
    tmap = info.game_map.tickets
    ranked = sorted(((w, t) for w, t in zip(weights, unseen, strict=True) if w >= BLOCK_TICKET_WEIGHT),
                    key=lambda x: (-x[0], -tmap[x[1]].points, x[1]))
    return [t for _, t in ranked[:view.players[seat].ticket_count]]


# A ticket is named likely only with this weight (1 + 1.5 a shared route + 1 a town reached).
BLOCK_TICKET_WEIGHT = 2.5


def block_claim(view: View, legal: Sequence[Action], seen: Seen) -> ClaimRoute | None:
    """The claim of the route another player's likely network (`likely_tickets`) would miss
    most, if losing it would cost that player at least BLOCK_MIN_COST; None otherwise. Reads
    only the view: the other player's claims and counts, never its tickets."""
    info = seen.info
    claims: dict[str, list[ClaimRoute]] = {}
    for a in legal:
        if isinstance(a, ClaimRoute) and info.lengths[a.route] <= seen.my_trains:
            claims.setdefault(a.route, []).append(a)
    if not claims:
        return None
    tmap = info.game_map.tickets
    best: tuple[float, int, str] | None = None
    for other in view.players:
        if other.seat == seen.seat:
            continue
        tickets = likely_tickets(view, other.seat, info)
        if not tickets:
            continue
        closed = closed_groups(info, seen.owner, other.seat, seen.doubles_open)
        plan = plan_network(info, seen.owner, other.seat, closed, tickets, other.trains, other.routes)
        for rid in plan.routes:
            if rid not in claims:
                continue
            owner = dict(seen.owner)
            owner[rid] = seen.seat
            closed_after = closed_groups(info, owner, other.seat, seen.doubles_open)
            after = plan_network(info, owner, other.seat, closed_after, tickets, other.trains, other.routes)
            lost = sum(2 * tmap[t].points for t in after.dropped if t not in plan.dropped)
            cost = after.trains - plan.trains + lost
            key = (cost, info.lengths[rid], rid)
            if best is None or key > best:
                best = key
    if best is None or best[0] < BLOCK_MIN_COST:
        return None
    need = colour_needs(info, [r for r in seen.plan().routes if r != best[2]], seen.hand)
    return min(claims[best[2]], key=lambda a: (payment_cost(a.payment, need, seen.hand), a.payment))


def work_units(moves: int, listed: int, plans: int, playouts: int) -> int:
    """The work of a search so far, in units of about one plain playout move (see BUDGET):
    counted, never timed, so the same view and seed always make the same move."""
    return moves + listed // LISTED_PER_UNIT + plans * PLAN_WORK + playouts * PLAYOUT_WORK


def _better(rival: list[float], default: list[float]) -> bool:
    """Whether the rival beats the planner's choice clearly: by PRIOR_MARGIN points on average
    over the same samples, and by CONFIDENCE standard errors of the paired differences."""
    diffs = [a - b for a, b in zip(rival, default, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean > PRIOR_MARGIN
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > PRIOR_MARGIN and mean > CONFIDENCE * (var / n) ** 0.5


def evaluate(state: GameState, seat: int) -> float:
    """The seat's score of a playout: its final total minus the best other total (the route
    points so far, for a playout cut short), scored as WIN_SCALE and WIN_BONUS say."""
    if state.result is not None:
        totals = {s["seat"]: s["total"] for s in state.result["sheets"]}
    else:
        totals = {p.seat: p.route_points for p in state.players}
    mine = totals.get(seat, 0)
    others = [v for s, v in totals.items() if s != seat]
    return score(mine - max(others, default=0))


def score(margin: int) -> float:
    """A playout's margin as the search weighs it (WIN_SCALE, WIN_BONUS; the margin itself when
    both are off, as an exact float)."""
    value = float(margin)
    if WIN_SCALE > 0:
        value = WIN_SCALE * math.tanh(value / WIN_SCALE)
    if WIN_BONUS and margin:
        value += WIN_BONUS if margin > 0 else -WIN_BONUS
    return value


__all__ = ["SearchAI", "evaluate", "score", "work_units"]
