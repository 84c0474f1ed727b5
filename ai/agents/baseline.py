"""What the four baseline agents share: the greedy AI's answers to every variant decision, and
a few small tools for the decisions where their styles differ (the turn, keeping tickets).

A baseline handles a decision itself only on a plain turn (draw, claim, tickets) or a plain
choice of tickets; everything else — tunnels, stations, passengers, the Controller, Alsace's
tourist cards and calls, the Dice Expansion's dice — goes to `GreedyAI.choose` and the rules'
advice (ai/advice/), which ask the agent's own `_wanted_routes`, so each style still shows there.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from ai.agents.planning import MapInfo, closed_groups, map_info, payment_cost, shortest_path
from ai.blunders import sensible
from ai.greedy import GreedyAI
from engine.actions import Action, ClaimRoute, DrawCard, DrawTickets, KeepTickets
from engine.cards import GRAY, LOCO, Cards
from engine.core import Turn
from engine.rules.train_cards import SecondCard
from engine.view import View


@dataclass
class TurnChoices:
    """The legal moves of a plain turn, by kind."""

    claims: dict[str, list[ClaimRoute]] = field(default_factory=dict)
    slots: dict[int, DrawCard] = field(default_factory=dict)
    blind: DrawCard | None = None
    tickets: DrawTickets | None = None

    @property
    def draws(self) -> list[DrawCard]:
        return list(self.slots.values()) + ([self.blind] if self.blind else [])


def turn_choices(legal: Iterable[Action]) -> TurnChoices:
    out = TurnChoices()
    for a in legal:
        if isinstance(a, ClaimRoute):
            out.claims.setdefault(a.route, []).append(a)
        elif isinstance(a, DrawCard):
            if a.slot is None:
                out.blind = a
            else:
                out.slots[a.slot] = a
        elif isinstance(a, DrawTickets) and out.tickets is None:
            out.tickets = a
    return out


def info_of(view: View) -> MapInfo:
    return map_info(view.variant, len(view.players), view.options)


def ticket_path(view: View, info: MapInfo, ticket_id: str, free: Iterable[str] = ()) -> tuple[float, list[str]] | None:
    """The cheapest open path for one of the viewer's tickets (own routes and `free` ones cost
    nothing)."""
    seat = view.you
    assert seat is not None
    t = info.game_map.tickets[ticket_id]
    closed = closed_groups(info, view.route_owner, seat, len(view.players) >= view.doubles_from_players)
    return shortest_path(info, view.route_owner, seat, closed, t.a, t.b, free)


def trains_of(info: MapInfo, routes: Iterable[str]) -> int:
    return sum(info.lengths[r] for r in routes)


def cheapest_payment(claims: Sequence[ClaimRoute], hand: dict[str, int] | None = None) -> ClaimRoute:
    """The payment that spends the fewest locomotives (then the colour held most)."""
    hand = hand or {}
    return min(claims, key=lambda a: (payment_cost(a.payment, {}, hand), _spare_key(a.payment, hand), a.payment))


def _spare_key(payment: Cards, hand: dict[str, int]) -> int:
    return -sum(hand.get(name, 0) for name, _ in payment if name != LOCO)


def draw_colour(view: View, choices: TurnChoices, colours: Sequence[str], loco_ok: bool = False) -> DrawCard | None:
    """The face-up card of the first wanted colour on show (a locomotive only if `loco_ok`), else
    a blind card, else any face-up card."""
    display = view.display
    for colour in colours:
        for slot, action in sorted(choices.slots.items()):
            if display[slot] == colour:
                return action
    if loco_ok:
        for slot, action in sorted(choices.slots.items()):
            if display[slot] == LOCO:
                return action
    if choices.blind is not None:
        return choices.blind
    plain = [a for s, a in sorted(choices.slots.items()) if display[s] != LOCO]
    return plain[0] if plain else (next(iter(choices.slots.values()), None))


def route_colours(info: MapInfo, route_id: str, hand: dict[str, int]) -> list[str]:
    """The colours that pay for a route: its own, or for a grey one the colours held most."""
    r = info.route(route_id)
    if r.color != GRAY:
        return [r.color]
    return [c for c, _ in sorted(hand.items(), key=lambda kv: (-kv[1], kv[0])) if c != LOCO] or []


def plain_turn(view: View) -> bool:
    """A turn of the base game's kind (not a dice turn, not a variant's own decision): what
    a baseline plays in its own style; a move it does not make there (a station, the USSR
    Controller, Alsace's burn 5) is left to the greedy AI and the rules' advice."""
    return isinstance(view.pending.decision, Turn | SecondCard)


def plain_keep(view: View, legal: Sequence[Action]) -> list[KeepTickets]:
    """The keep choices of a plain ticket offer (a list; not Alsace's tickets with tourist
    cards), or [] for any other decision."""
    offers = view.pending.offers
    seat = view.you
    if offers is None or seat is None or not isinstance(offers[seat], list | tuple):
        return []
    return [a for a in legal if isinstance(a, KeepTickets)]


class BaselineAI(GreedyAI):
    """A baseline agent: its own turn and ticket choice, the greedy AI's everything else."""

    level = "baseline"

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        assert view is not None and view.you is not None, "a baseline agent reads its own view"
        legal = sensible(view, legal)  # never absurd: no tunnel it may give up, no late tickets
        keeps = plain_keep(view, legal)
        if keeps:
            return self.keep(view, keeps)
        if plain_turn(view):
            action = self.turn(view, legal, turn_choices(legal))
            if action is not None:
                return action
        return super().choose(view, legal)

    def keep(self, view: View, options: list[KeepTickets]) -> Action:
        return self.keep_tickets(view, info_of(view).game_map, options)

    def turn(self, view: View, legal: Sequence[Action], choices: TurnChoices) -> Action | None:
        """The agent's move on a plain turn (None: the greedy AI's)."""
        return None
