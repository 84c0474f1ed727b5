"""The greedy computer player ("normal"): it works toward its tickets.

It claims routes on the shortest open path for each ticket it has not finished (fewest trains
still to place), draws the colours those routes need, and keeps the tickets that are cheapest
to finish. What every rule set shares — tickets, claims, the train cards — is decided here;
each other rule's play is its advice (ai/advice/), looped over for the game's rule set, so
this module knows no variant. Like every computer player it sees only what a person in its
seat sees: `view`, `legal_actions` and the public map.
"""

from __future__ import annotations

from collections.abc import Sequence

from ai.advice import Advice, Decision, advice_of_view
from ai.blunders import is_turn, repair, sensible
from ai.costs import card_cost
from engine.actions import Action, BuildStation, ClaimRoute, DrawCard, DrawTickets, KeepTickets
from engine.cards import LOCO
from engine.core import Turn
from engine.maps import GameMap, load_map
from engine.paths import shortest_open_path
from engine.rng import Rng, seed_state
from engine.rules.tickets import ChooseTickets
from engine.view import View


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
        legal = sensible(view, legal)
        return repair(view, legal, self._choose(view, legal))

    def _choose(self, view: View, legal: Sequence[Action]) -> Action:
        game_map = load_map(view.map_id)
        seat = view.you
        assert seat is not None
        decision = Decision(view, game_map, legal, seat)
        advice = advice_of_view(view)
        if is_turn(view):
            for rule in advice:
                action = rule.before_turn(self, decision)
                if action is not None:
                    return action
        for rule in advice:
            action = rule.decide(self, decision)
            if action is not None:
                return action
        kinds = decision.kinds
        if "keep_tickets" in kinds:
            return self.keep_tickets(view, game_map, [a for a in legal if isinstance(a, KeepTickets)])
        if "draw_tickets" in kinds and isinstance(view.pending.decision, ChooseTickets):
            # An announced opening deal (Germany): announce the mix first.
            return self.ticket_draw(view, [a for a in legal if isinstance(a, DrawTickets)])
        return self._turn(decision, advice)

    def _turn(self, decision: Decision, advice: Sequence[Advice]) -> Action:
        view, game_map, legal, seat = decision.view, decision.game_map, decision.legal, decision.seat
        wanted = self._wanted_routes(view, game_map, seat)
        claims = [a for a in legal if isinstance(a, ClaimRoute)]
        wanted_claims = [a for a in claims if a.route in wanted]
        if wanted_claims:
            return self._best_claim(game_map, wanted_claims)
        for rule in advice:
            action = rule.instead_of_drawing(self, decision, wanted)
            if action is not None:
                return action
        draws = [a for a in legal if isinstance(a, DrawCard)]
        me = view.players[seat]
        if not wanted:
            # Every ticket is done (or impossible): take new tickets while there is time,
            # otherwise score points with the longest route the hand allows.
            tickets = [a for a in legal if isinstance(a, DrawTickets)]
            if tickets and me.trains > 12 and isinstance(view.pending.decision, Turn):
                return self.ticket_draw(view, tickets)
            if claims and (me.trains <= 12 or not draws):
                return self._best_claim(game_map, claims)
        if draws:
            return self._draw(view, game_map, draws, wanted)
        if claims:
            return self._best_claim(game_map, claims)
        others = [a for a in legal if not isinstance(a, BuildStation)]
        return (others or list(legal))[0]

    # --- tickets ------------------------------------------------------------------------
    def keep_tickets(self, view: View, game_map: GameMap, options: list[KeepTickets]) -> Action:
        """The tickets to keep of an offer: the most points for the fewest trains still to
        place."""
        seat = view.you
        assert seat is not None
        offer = view.pending.offer_of(seat)
        costs = {t: self.ticket_cost(view, game_map, seat, t) for t in offer}

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
    def ticket_draw(view: View, options: list[DrawTickets]) -> DrawTickets:
        """Where a mix of decks is announced: mostly short tickets (one long one at setup)."""
        want_long = 1 if view.pending.setup else 0

        def key(option: DrawTickets) -> tuple[int, int]:
            mix = dict(option.mix)
            return (-abs(mix.get("long", 0) - want_long), mix.get("short", 0))

        return max(options, key=key)

    def ticket_cost(self, view: View, game_map: GameMap, seat: int, ticket_id: str) -> int | None:
        """The fewest trains still to place to finish a ticket (None: it cannot be)."""
        ticket = game_map.tickets[ticket_id]
        found = shortest_open_path(view, game_map, seat, ticket.a, ticket.b)
        return None if found is None else found[0]

    # --- routes -------------------------------------------------------------------------
    def wanted_routes(self, view: View, game_map: GameMap, seat: int) -> set[str]:
        """The routes this player wants claimed (its own style: `_wanted_routes`)."""
        return self._wanted_routes(view, game_map, seat)

    def _wanted_routes(self, view: View, game_map: GameMap, seat: int) -> set[str]:
        wanted: set[str] = set()
        for ticket_id in view.players[seat].tickets or ():
            ticket = game_map.tickets[ticket_id]
            found = shortest_open_path(view, game_map, seat, ticket.a, ticket.b)
            if found is None or found[0] == 0:
                continue
            wanted.update(r for r in found[1] if view.route_owner.get(r) is None)
        wanted.update(advised_wanted(view, game_map, seat))
        return wanted

    @staticmethod
    def _best_claim(game_map: GameMap, claims: list[ClaimRoute]) -> ClaimRoute:
        return max(claims, key=lambda a: (game_map.routes[a.route].length, -card_cost(a.payment), a.route))

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


def advised_wanted(view: View, game_map: GameMap, seat: int) -> set[str]:
    """The routes the game's other rules want claimed (Alsace's tourist cards), beyond the
    tickets'."""
    wanted: set[str] = set()
    for rule in advice_of_view(view):
        wanted.update(rule.wanted(view, game_map, seat))
    return wanted
