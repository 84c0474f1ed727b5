"""Computer players. They see only what a person in their seat sees: `view` and
`legal_actions` (and the public map)."""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Protocol

from engine.actions import (
    Action,
    BuildStation,
    ClaimRoute,
    DrawCard,
    DrawTickets,
    GiveUpTunnel,
    KeepTickets,
    PayTunnel,
)
from engine.alsace_ai import choose_alsace, tourist_wanted
from engine.cards import LOCO
from engine.dice_ai import DICE_KINDS, choose_dice
from engine.maps import GameMap, Route, load_map
from engine.rng import Rng, seed_state
from engine.rules.controller import PlayController
from engine.rules.passengers import PassengersView, TakePassenger, majority_points
from engine.state import GameState
from engine.view import View


class RandomAI:
    """Picks a kind of action at random, then one action of that kind at random: uniform
    over all actions would almost never draw cards, since claims come in many payments.

    A side step — an action that leaves the decision open, like discarding dice tokens — is
    one kind among the others on one decision in `SIDE_STEP_ODDS` only: at the rate of the
    other kinds it would be taken at almost every decision of a dice turn, throwing away
    most tokens and lengthening games by a tenth without exercising anything more."""

    level = "random"
    # It never looks at the game, so callers need not build a view for it.
    uses_view = False
    SIDE_STEPS = frozenset({"discard_tokens"})
    SIDE_STEP_ODDS = 4

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed_state(seed))

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        by_kind: dict[str, list[Action]] = defaultdict(list)
        for action in legal:
            by_kind[action.TYPE].append(action)
        kinds = sorted(by_kind)
        side = [k for k in kinds if k in self.SIDE_STEPS]
        if side and len(side) < len(kinds) and self.rng.below(self.SIDE_STEP_ODDS):
            kinds = [k for k in kinds if k not in self.SIDE_STEPS]
        options = by_kind[kinds[self.rng.below(len(kinds))]]
        return options[self.rng.below(len(options))]


class GreedyAI:
    """Works toward its tickets: it claims routes on the shortest open path for each ticket
    it has not finished (fewest trains still to place), draws the colours those routes need,
    and keeps the tickets that are cheapest to finish."""

    level = "greedy"
    uses_view = True

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed_state(seed))

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        assert view is not None and view.you is not None, "the greedy AI reads its own view"
        game_map = load_map(view.map_id)
        seat = view.you
        kinds = {a.TYPE for a in legal}
        alsace = choose_alsace(self, view, game_map, legal)  # tourist cards, call time, burn 5
        if alsace is not None:
            return alsace
        if "keep_tickets" in kinds:
            return self._keep(view, game_map, [a for a in legal if isinstance(a, KeepTickets)])
        if "draw_tickets" in kinds and view.pending.kind == "choose_tickets":
            # An announced opening deal (Germany): announce the mix first.
            return self._ticket_draw(view, [a for a in legal if isinstance(a, DrawTickets)])
        if "take_passenger" in kinds:
            return self._passenger(view, [a for a in legal if isinstance(a, TakePassenger)])
        if view.pending.kind in DICE_KINDS:
            return choose_dice(view, game_map, legal, self._wanted_routes(view, game_map, seat))
        if "pay_tunnel" in kinds or "give_up_tunnel" in kinds:
            pays = [a for a in legal if isinstance(a, PayTunnel)]
            if pays:
                return min(pays, key=lambda a: _card_cost(a.payment))
            return next(a for a in legal if isinstance(a, GiveUpTunnel))
        wanted = self._wanted_routes(view, game_map, seat)
        claims = [a for a in legal if isinstance(a, ClaimRoute)]
        wanted_claims = [a for a in claims if a.route in wanted]
        if wanted_claims:
            return self._best_claim(game_map, wanted_claims)
        # USSR Controller: build a route a ticket needs that cards would make dear (a tunnel, a
        # ferry, or 3-4 trains), the longest first.
        builds = [a for a in legal if isinstance(a, PlayController) and a.mode == "build"
                  and a.route in wanted and _dear(game_map.routes[a.route])]
        if builds:
            return max(builds, key=lambda a: (game_map.routes[a.route].length, a.route))
        draws = [a for a in legal if isinstance(a, DrawCard)]
        me = view.players[seat]
        if not wanted:
            # Every ticket is done (or impossible): take new tickets while there is time,
            # otherwise score points with the longest route the hand allows.
            tickets = [a for a in legal if isinstance(a, DrawTickets)]
            if tickets and me.trains > 12 and view.pending.kind == "turn":
                return self._ticket_draw(view, tickets)
            if claims and (me.trains <= 12 or not draws):
                return self._best_claim(game_map, claims)
        if draws:
            return self._draw(view, game_map, draws, wanted)
        if claims:
            return self._best_claim(game_map, claims)
        others = [a for a in legal if not isinstance(a, BuildStation)]
        return (others or list(legal))[0]

    # --- tickets ------------------------------------------------------------------------
    def _keep(self, view: View, game_map: GameMap, options: list[KeepTickets]) -> Action:
        seat = view.you
        assert seat is not None
        offer = view.pending.offer_of(seat)
        costs = {t: self._ticket_cost(view, game_map, seat, t) for t in offer}

        def value(option: KeepTickets) -> tuple[float, int]:
            total = 0.0
            for t in option.keep:
                cost = costs[t]
                points = game_map.tickets[t].points
                total += points - 1.6 * cost if cost is not None else -points
            return (total, -len(option.keep))

        smallest = min(len(o.keep) for o in options)
        cheap = [o for o in options if len(o.keep) <= max(smallest, 2)]
        return max(cheap, key=value)

    @staticmethod
    def _ticket_draw(view: View, options: list[DrawTickets]) -> DrawTickets:
        """Where a mix of decks is announced: mostly short tickets (one long one at setup)."""
        want_long = 1 if view.pending.setup else 0

        def key(option: DrawTickets) -> tuple[int, int]:
            mix = dict(option.mix)
            return (-abs(mix.get("long", 0) - want_long), mix.get("short", 0))

        return max(options, key=key)

    @staticmethod
    def _passenger(view: View, options: list[TakePassenger]) -> TakePassenger:
        """The passenger whose colour gains the most majority points now."""
        seat = view.you
        assert seat is not None
        part = view.part(PassengersView)
        counts = list(part.held) if part is not None else [{} for _ in view.players]

        def gain(option: TakePassenger) -> int:
            before = [c.get(option.colour, 0) for c in counts]
            after = list(before)
            after[seat] += 1
            return majority_points(after, 20, 10).get(seat, 0) - majority_points(before, 20, 10).get(seat, 0)

        return max(options, key=gain)

    def _ticket_cost(self, view: View, game_map: GameMap, seat: int, ticket_id: str) -> int | None:
        ticket = game_map.tickets[ticket_id]
        found = shortest_open_path(view, game_map, seat, ticket.a, ticket.b)
        return None if found is None else found[0]

    # --- routes -------------------------------------------------------------------------
    def _wanted_routes(self, view: View, game_map: GameMap, seat: int) -> set[str]:
        wanted: set[str] = set()
        for ticket_id in view.players[seat].tickets or ():
            ticket = game_map.tickets[ticket_id]
            found = shortest_open_path(view, game_map, seat, ticket.a, ticket.b)
            if found is None or found[0] == 0:
                continue
            wanted.update(r for r in found[1] if view.route_owner.get(r) is None)
        wanted.update(tourist_wanted(view, game_map, seat))  # Alsace tourist cards
        return wanted

    @staticmethod
    def _best_claim(game_map: GameMap, claims: list[ClaimRoute]) -> ClaimRoute:
        return max(claims, key=lambda a: (game_map.routes[a.route].length, -_card_cost(a.payment), a.route))

    def _draw(self, view: View, game_map: GameMap, draws: list[DrawCard], wanted: set[str]) -> Action:
        needed = {game_map.routes[r].color for r in wanted}
        display = view.display
        for action in draws:
            if action.slot is not None and display[action.slot] in needed:
                return action
        blind = [a for a in draws if a.slot is None]
        if blind:
            return blind[0]
        non_loco = [a for a in draws if a.slot is not None and display[a.slot] != LOCO]
        return (non_loco or draws)[0]


def _dear(route: Route) -> bool:
    """A route worth a Controller rather than cards."""
    return route.tunnel or route.is_ferry or route.length >= 3


def _card_cost(payment: Sequence[tuple[str, int]]) -> int:
    """Locomotives are worth more than coloured cards."""
    return sum(n * (3 if name == LOCO else 1) for name, n in payment)


def shortest_open_path(
    view: View, game_map: GameMap, seat: int, start: str, goal: str
) -> tuple[int, list[str]] | None:
    """The fewest trains still to place to join two cities, over routes that are open or the
    player's own (own routes cost nothing), and the routes of that path; None if impossible.
    Country spaces are dead ends: a path may end in one but never pass through it."""
    owner = view.route_owner
    doubles_open = len(view.players) >= view.doubles_from_players
    blocked_groups = set()
    for rid, who in owner.items():
        group = game_map.routes[rid].parallel_group
        if group and (who == seat or not doubles_open):
            blocked_groups.add(group)
    best: dict[str, int] = {start: 0}
    prev: dict[str, tuple[str, str]] = {}
    heap = [(0, start)]
    while heap:
        dist, city = heapq.heappop(heap)
        if city == goal:
            path = []
            while city != start:
                city, rid = prev[city]
                path.append(rid)
            return dist, path
        if dist > best.get(city, 1 << 30):
            continue
        if city != start and game_map.cities[city].is_country:
            continue
        for route in game_map.routes_at(city):
            holder = owner.get(route.id)
            if holder is not None and holder != seat:
                continue
            if holder is None and route.parallel_group in blocked_groups:
                continue
            cost = 0 if holder == seat else route.length
            nxt = route.b if route.a == city else route.a
            nd = dist + cost
            if nd < best.get(nxt, 1 << 30):
                best[nxt] = nd
                prev[nxt] = (city, route.id)
                heapq.heappush(heap, (nd, nxt))
    return None


class ComputerPlayer(Protocol):
    """What every computer player offers: `choose` one of the legal actions from the view
    (`uses_view` False: it never looks, so callers may pass None)."""

    level: str
    uses_view: bool

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action: ...


def _agent(name: str) -> Callable[[int], ComputerPlayer]:
    """A factory for an agent of engine/agents (imported when first built)."""

    def build(seed: int = 0) -> ComputerPlayer:
        from engine.agents import make_agent

        agent: ComputerPlayer = make_agent(name, seed)
        return agent

    return build


# The levels a host chooses from (/ttr admin addai, the stand-in for absent players): easy is
# a baseline agent of the 2017 playtesting study, normal the greedy AI, hard the search AI.
OFFERED_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
EASY_AGENT = "one_step"
# Every level name a seat may carry: the offered ones, then "random" and "greedy", which
# games stored before the levels existed still name.
AI_LEVELS: dict[str, Callable[[int], ComputerPlayer]] = {
    "easy": _agent(EASY_AGENT),
    "normal": GreedyAI,
    "hard": _agent("search"),
    "random": RandomAI,
    "greedy": GreedyAI,
}


def decision_seed(state: GameState, seat: int) -> int:
    """The seed of an AI's decision for `seat`, derived from the game's own seed and where the
    game stands (turn, generator, piles, what is pending): the same game and moment give the
    same seed, so the AI's choice — and the game — replay exactly. The caller derives it; the
    AI sees only the number and the view, never the state."""
    parts = (state.seed, state.rng, state.turn, seat, len(state.deck), len(state.discard),
             sum(len(d) for d in state.ticket_decks.values()), len(state.route_owner),
             *(p.hand_size() * 64 + len(p.tickets) for p in state.players),
             *(ord(c) for c in str(state.pending.get("kind", ""))))
    rng = Rng(seed_state(0x5EED))
    for part in parts:
        rng = Rng(seed_state(rng.next_u64() ^ part))
    return rng.next_u64() & 0xFFFFFFFF


def make_ai(level: str, seed: int = 0) -> ComputerPlayer:
    """An AI player by level name, or by the name of an agent of engine/agents (the
    tournament's baselines)."""
    factory = AI_LEVELS.get(level)
    if factory is not None:
        return factory(seed)
    from engine.agents import AGENTS

    if level in AGENTS:
        return _agent(level)(seed)
    raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(OFFERED_LEVELS)}")
