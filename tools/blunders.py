"""The blunder list: moves of a computer player that anyone reading the game's thread would
call a mistake, found in a played game by a judge who sees the whole state.

    BLUNDERS: tunnel_retry, late_tickets, hoarding, station_lost, aimless_claim

- `tunnel_retry`: the same tunnel given up a second time with no new train cards since the
  first time (the same reveal can only fail the same way or worse). Under the Dice Expansion
  the dice are rolled afresh each turn, so a second try is a new hand: not counted.
- `late_tickets`: tickets drawn in the final round, or with fewer trains left than the
  cheapest ticket still in the decks would take to finish.
- `hoarding`: more than `HOARD` train cards held, and a card or tickets drawn while a route
  a ticket needs could be claimed.
- `station_lost`: at the end, a ticket failed that one station built on the player's last turn
  would have completed (one other player's route borrowed at a city with no station yet), with
  a station left unbuilt.
- `aimless_claim`: a route claimed that serves no ticket while a route a ticket needs, and that
  another player's network touches (contested), could have been claimed instead; the final
  round aside (its last turns are for points).

"A route a ticket needs" is a route on a cheapest open path (fewest trains still to place,
`engine.paths`) of a ticket not yet completed that the trains left can still finish; a claim
is affordable when it is legal and no rule's advice withholds it (a tunnel without spare cards
for the most extra its reveal may ask for). These are the players' own definitions
(ai/blunders.py); the judge reads the state besides (the ticket decks, the final sheet), the
players never do.

`Judge.check` has the signature of the self-play and tournament `check` hook; `Judge.finish`
looks at the final state; `Judge.counts` holds (seat, blunder) → count.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ai.advice.stations import joins
from ai.blunders import HOARD, contested, needed_claims, open_tickets, serves
from engine.actions import Action, ClaimRoute, DrawCard, DrawTickets, GiveUpTunnel
from engine.decisions import decision_of
from engine.events import Event
from engine.game import legal_actions_of, view
from engine.maps import load_map
from engine.paths import shortest_open_path
from engine.rules.tunnels import Tunnel
from engine.state import GameState

BLUNDERS: tuple[str, ...] = ("tunnel_retry", "late_tickets", "hoarding", "station_lost", "aimless_claim")


@dataclass
class Judge:
    """Counts each seat's blunders in one game, move by move."""

    counts: Counter[tuple[int, str]] = field(default_factory=Counter)
    # (seat, route) -> the hand the seat kept when it last gave that tunnel up
    _given_up: dict[tuple[int, str], dict[str, int]] = field(default_factory=dict)
    # seat -> the state of its last plain turn (where it could still have built a station)
    _last_turn: dict[int, GameState] = field(default_factory=dict)

    def check(self, before: GameState, action: Action | None, after: GameState, events: list[Event]) -> None:
        """Look at one move (`before` the state it was chosen in)."""
        if action is None:
            return
        seat = action.player
        decision = decision_of(before.pending)
        if isinstance(action, GiveUpTunnel) and isinstance(decision, Tunnel):
            self._tunnel(seat, decision.route, after)
            return
        if decision is None or not decision.is_turn:
            return
        self._last_turn[seat] = before
        if isinstance(action, DrawTickets):
            if before.final_turns_left is not None or _too_few_trains(before, seat):
                self.counts[(seat, "late_tickets")] += 1
            elif before.players[seat].hand_size() > HOARD and _needed_claims(before, seat):
                self.counts[(seat, "hoarding")] += 1
        elif isinstance(action, DrawCard):
            if before.players[seat].hand_size() > HOARD and _needed_claims(before, seat):
                self.counts[(seat, "hoarding")] += 1
        elif (isinstance(action, ClaimRoute) and before.final_turns_left is None
              and _aimless(before, seat, action.route)):
            self.counts[(seat, "aimless_claim")] += 1

    def _tunnel(self, seat: int, route: str, after: GameState) -> None:
        hand = dict(after.players[seat].hand)
        kept = self._given_up.get((seat, route))
        if kept is not None and all(n <= kept.get(c, 0) for c, n in hand.items()):
            self.counts[(seat, "tunnel_retry")] += 1
        self._given_up[(seat, route)] = hand

    def finish(self, final: GameState) -> None:
        """Look at the end of the game: failed tickets that a station, built on the seat's last
        turn, would have saved."""
        result = final.result or {}
        for sheet in result.get("sheets", []):
            seat = sheet["seat"]
            last = self._last_turn.get(seat)
            if last is None or final.players[seat].stations <= 0:
                continue
            held = set(last.players[seat].tickets)
            failed = [row["id"] for row in sheet.get("tickets", []) if not row["completed"] and row["id"] in held]
            for ticket in failed:
                if _one_station_completes(last, seat, ticket):
                    self.counts[(seat, "station_lost")] += 1

    def of_seat(self, seat: int) -> Counter[str]:
        """One seat's counts by blunder."""
        return Counter({b: n for (s, b), n in self.counts.items() if s == seat})


# --- what a ticket needs (the players' own definitions: ai/blunders.py) -------------------


def _needed_claims(state: GameState, seat: int) -> list[ClaimRoute]:
    """The claims of routes a ticket needs that the seat could make now (a tunnel only with
    the spare cards its extra may ask for: otherwise it is not affordable)."""
    claims = legal_actions_of(state, seat, ClaimRoute)
    if not claims:
        return []
    return needed_claims(view(state, seat), load_map(state.map_id), claims)


def _aimless(state: GameState, seat: int, route: str) -> bool:
    seen = view(state, seat)
    game_map = load_map(state.map_id)
    tickets = open_tickets(seen, game_map, seat)
    if not tickets or serves(seen, game_map, seat, route, tickets):
        return False
    claims = legal_actions_of(state, seat, ClaimRoute)
    return any(contested(seen, game_map, seat, a.route) for a in needed_claims(seen, game_map, claims, tickets))


def _too_few_trains(state: GameState, seat: int) -> bool:
    """Whether the seat's trains cannot finish even the cheapest ticket left in the decks."""
    seen = view(state, seat)
    game_map = load_map(state.map_id)
    trains = seen.players[seat].trains
    for deck in state.ticket_decks.values():
        for t in deck:
            ticket = game_map.tickets[t]
            found = shortest_open_path(seen, game_map, seat, ticket.a, ticket.b)
            if found is not None and found[0] <= trains:
                return False
    return True


def _one_station_completes(state: GameState, seat: int, ticket_id: str) -> bool:
    """Whether borrowing one other player's route, at a city without a station, joins the
    ticket's cities with the seat's own routes."""
    game_map = load_map(state.map_id)
    ticket = game_map.tickets[ticket_id]
    own = list(state.players[seat].routes)
    for rid, who in state.route_owner.items():
        if who == seat:
            continue
        r = game_map.routes[rid]
        if all(c in state.stations or game_map.cities[c].is_country for c in (r.a, r.b)):
            continue
        if joins(game_map, [*own, rid], ticket.a, ticket.b):
            return True
    return False
