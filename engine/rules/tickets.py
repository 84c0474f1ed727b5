"""Destination tickets: the opening deal and choice, drawing more, and scoring them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action, DrawTickets, KeepTickets
from engine.core import Shuffle
from engine.decisions import Decision
from engine.errors import IllegalAction, excerpt
from engine.events import Payload, absent
from engine.graph import TicketOutcome, best_ticket_outcomes, connectivity
from engine.rules.module import RuleModule
from engine.scoring import add_points
from engine.state import copy_data

if TYPE_CHECKING:
    from engine.core import Game
    from engine.maps import GameMap


# --- the decisions this rule opens -----------------------------------------------------------
@dataclass(frozen=True)
class ChooseTickets(Decision):
    """Seats choose which of the tickets offered to keep."""

    kind = "choose_tickets"
    offers: Sequence[Any]  # per seat: the tickets offered (in a view, a count for another seat), or None
    setup: bool = False  # the opening choice
    announce: list[bool] | None = None  # Germany's opening: who still has to announce a mix



# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class TicketsOffered(Payload):
    """A seat's own offer of tickets (private)."""

    kind = "tickets_offered"
    tickets: list[str]
    keep: int | None = absent()  # how many must be kept
    tourist: list[str] | None = absent()  # Alsace: the tourist cards offered
    devils: int | None = absent()  # Alsace: Lucky Devils among them


@dataclass(frozen=True, kw_only=True)
class TicketsBoxed(Payload):
    kind = "tickets_boxed"
    deck: str
    count: int


@dataclass(frozen=True, kw_only=True)
class TicketsDrawn(Payload):
    kind = "tickets_drawn"
    player: int
    count: int
    mix: list[list[Any]] | None = absent()  # the (deck, count) mix asked for
    tourist: int | None = absent()  # Alsace: tourist cards drawn


@dataclass(frozen=True, kw_only=True)
class TicketsKept(Payload):
    kind = "tickets_kept"
    player: int
    kept: int
    returned: int
    tourist_kept: int | None = absent()
    tourist_returned: int | None = absent()


@dataclass(frozen=True, kw_only=True)
class TicketsChosen(Payload):
    """What a seat kept (private)."""

    kind = "tickets_chosen"
    kept: list[str]
    returned: list[str] | None = absent()
    tourist: list[str] | None = absent()  # Alsace: the tourist cards kept


# Where returned tickets go.
BOTTOM = "bottom"  # under their own deck, unseen
BOX = "box"  # out of the game
SHUFFLE = "shuffle"  # back into their own deck, which is then shuffled


@dataclass(frozen=True)
class DestinationTickets(RuleModule):
    """Ticket decks are named by what they are ("main", "short", "long"), never by the colour
    of their backs. The end of each deck list is its top.

    - `setup_deal`: (deck, count) dealt to each player at the start.
    - `setup_keep`: keep at least this many; `setup_keep_each`: and at least one of each of
      these decks (among those offered).
    - `boxed_after_deal`: decks whose undealt tickets leave the game after the deal.
    - `draw`: (deck, count) taken by the draw action; `draw_keep`: keep at least this many.
    - `announced_draw`: if set, the player announces a mix of this many from any decks.
    - `setup_announced`: if set, the opening deal is announced too (Germany, G5): instead of
      `setup_deal`, every player (all at once) announces a mix of this many from any decks,
      draws it and chooses; returned tickets wait until everyone has chosen, then go back.
      While a seat still has to announce, `pending["announce"][seat]` is true and its offer
      is empty.
    - `setup_returns`, `draw_returns`: BOTTOM, BOX or SHUFFLE.
    """

    name: ClassVar[str] = "tickets"
    events: ClassVar[tuple[str, ...]] = (
        "shuffle", "tickets_offered", "tickets_boxed", "tickets_drawn", "tickets_kept", "tickets_chosen")
    score_lines: ClassVar[dict[str, str]] = {"tickets_won": "Tickets completed", "tickets_lost": "Tickets failed"}
    actions: ClassVar = {"turn": (DrawTickets,), "choose_tickets": (KeepTickets, DrawTickets)}
    prompts: ClassVar = {"choose_tickets": "choose which destination tickets to keep"}

    setup_deal: tuple[tuple[str, int], ...] = (("main", 3),)
    setup_keep: int = 2
    setup_keep_each: tuple[str, ...] = ()
    setup_returns: str = BOTTOM
    boxed_after_deal: tuple[str, ...] = ()
    draw: tuple[tuple[str, int], ...] = (("main", 3),)
    draw_keep: int = 1
    draw_returns: str = BOTTOM
    announced_draw: int | None = None
    setup_announced: int | None = None

    # --- setup --------------------------------------------------------------------------
    def setup(self, game: Game) -> None:
        s = game.state
        for deck_name in game.map.deck_names():
            deck = [t.id for t in game.map.ticket_deck(deck_name)]
            game.chance.shuffle(deck)
            s.ticket_decks[deck_name] = deck
        game.record(Shuffle(tickets=len(game.map.tickets), rng=game.rng.state))
        if self.setup_announced:
            n = game.n_players
            game.set_pending("choose_tickets", offers=[[] for _ in range(n)], setup=True, announce=[True] * n)
            return
        offers: list[list[str]] = []
        for p in s.players:
            offer: list[str] = []
            for deck_name, n in self.setup_deal:
                offer.extend(self._take(game, deck_name, n))
            offers.append(offer)
            game.tell(p.seat, TicketsOffered(tickets=list(offer), keep=self._minimum(game, offer, True)))
        for deck_name in self.boxed_after_deal:
            boxed = s.ticket_decks.get(deck_name, [])
            if boxed:
                game.emit(TicketsBoxed(deck=deck_name, count=len(boxed)))
            s.ticket_decks[deck_name] = []
        game.set_pending("choose_tickets", offers=offers, setup=True)

    @staticmethod
    def _take(game: Game, deck_name: str, n: int) -> list[str]:
        deck = game.state.ticket_decks.get(deck_name, [])
        taken = []
        for _ in range(min(n, len(deck))):
            taken.append(game.take_top(deck))
        return taken

    # --- the choice ---------------------------------------------------------------------
    def _minimum(self, game: Game, offer: list[str], setup: bool) -> int:
        return min(self.setup_keep if setup else self.draw_keep, len(offer))

    def _decks_needed(self, game: Game, offer: list[str], setup: bool) -> set[str]:
        if not setup:
            return set()
        offered = {game.map.tickets[t].deck for t in offer}
        return offered & set(self.setup_keep_each)

    def _check_keep(self, game: Game, offer: list[str], keep: tuple[str, ...], setup: bool) -> None:
        if len(set(keep)) != len(keep):
            raise IllegalAction("You named the same ticket twice.", "bad_tickets")
        unknown = [t for t in keep if t not in offer]
        if unknown:
            raise IllegalAction(f"{excerpt(unknown[0])} is not one of the tickets you were offered.", "bad_tickets")
        minimum = self._minimum(game, offer, setup)
        if len(keep) < minimum:
            raise IllegalAction(
                f"Keep at least {minimum} of the {len(offer)} tickets you were offered.", "too_few_tickets"
            )
        kept_decks = {game.map.tickets[t].deck for t in keep}
        missing = sorted(self._decks_needed(game, offer, setup) - kept_decks)
        if missing:
            raise IllegalAction(f"Keep at least one {' and one '.join(missing)} ticket.", "too_few_tickets")

    def keep_choices(self, game: Game, seat: int) -> list[tuple[str, ...]]:
        offer = game.state.pending["offers"][seat]
        setup = game.state.pending.get("setup", False)
        minimum = self._minimum(game, offer, setup)
        needed = self._decks_needed(game, offer, setup)
        out = []
        for size in range(minimum, len(offer) + 1):
            for keep in combinations(offer, size):
                if needed <= {game.map.tickets[t].deck for t in keep}:
                    out.append(keep)
        return out

    # --- drawing ------------------------------------------------------------------------
    def draw_mixes(self, game: Game, size: int | None = None) -> list[tuple[tuple[str, int], ...]]:
        """The mixes a player may announce (announced draws only): `size` tickets in all
        (default `announced_draw`), or every ticket left if there are fewer."""
        size = self.announced_draw if size is None else size
        assert size is not None
        sizes = {name: len(deck) for name, deck in game.state.ticket_decks.items() if deck}
        names = sorted(sizes)
        total = min(size, sum(sizes.values()))
        out = []

        def fill(i: int, left: int, acc: list[tuple[str, int]]) -> None:
            if i == len(names):
                if left == 0:
                    out.append(tuple((n, k) for n, k in acc if k))
                return
            for k in range(min(left, sizes[names[i]]), -1, -1):
                fill(i + 1, left - k, acc + [(names[i], k)])

        if total:
            fill(0, total, [])
        return out

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        s = game.state
        kind = s.pending.get("kind")
        if kind == "choose_tickets":
            if _must_announce(game, seat):
                return [DrawTickets(seat, mix) for mix in self.draw_mixes(game, self.setup_announced)]
            return [KeepTickets(seat, keep) for keep in self.keep_choices(game, seat)]
        if self.announced_draw is not None:
            return [DrawTickets(seat, mix) for mix in self.draw_mixes(game)]
        if any(s.ticket_decks.get(name) for name, _ in self.draw):
            return [DrawTickets(seat)]
        return []

    def apply(self, game: Game, action: Action) -> None:
        if game.state.pending.get("kind") == "choose_tickets":
            must_announce = _must_announce(game, action.player)
            if isinstance(action, DrawTickets) and not must_announce:
                raise IllegalAction("Right now you must choose which destination tickets to keep.", "wrong_step")
            if isinstance(action, KeepTickets) and must_announce:
                raise IllegalAction(
                    f"First announce which {self.setup_announced} tickets you will draw from each deck "
                    f"({' and '.join(sorted(game.state.ticket_decks))}).",
                    "wrong_step",
                )
        if isinstance(action, KeepTickets):
            self._keep(game, action)
        elif game.state.pending.get("kind") == "choose_tickets":
            assert isinstance(action, DrawTickets)
            self._announce_setup(game, action)
        else:
            assert isinstance(action, DrawTickets)
            self._draw(game, action)

    def _draw(self, game: Game, action: DrawTickets) -> None:
        s = game.state
        seat = action.player
        if self.announced_draw is not None:
            mix = parse_mix(action.mix)
            if mix not in self.draw_mixes(game):
                raise IllegalAction(self._mix_refusal(game, mix), "bad_mix")
            plan = mix
        else:
            if action.mix:
                raise IllegalAction("In this game you cannot choose which ticket deck to draw from.", "bad_mix")
            plan = self.draw
        if not any(s.ticket_decks.get(name) for name, _ in plan):
            raise IllegalAction("There are no destination tickets left to draw.", "no_tickets")
        offer: list[str] = []
        for deck_name, n in plan:
            offer.extend(self._take(game, deck_name, n))
        offers: list[list[str] | None] = [None] * game.n_players
        offers[seat] = offer
        game.emit(TicketsDrawn(player=seat, count=len(offer), mix=[list(m) for m in plan]))
        game.tell(seat, TicketsOffered(tickets=list(offer), keep=self._minimum(game, offer, False)))
        game.set_pending("choose_tickets", offers=offers, setup=False)

    def _announce_setup(self, game: Game, action: DrawTickets) -> None:
        """The opening draw of an announced deal: draw the mix, then choose from it."""
        s = game.state
        seat = action.player
        mix = parse_mix(action.mix)
        if mix not in self.draw_mixes(game, self.setup_announced):
            raise IllegalAction(self._mix_refusal(game, mix, self.setup_announced), "bad_mix")
        offer: list[str] = []
        for deck_name, n in mix:
            offer.extend(self._take(game, deck_name, n))
        s.pending["offers"][seat] = offer
        s.pending["announce"][seat] = False
        game.emit(TicketsDrawn(player=seat, count=len(offer), mix=[list(m) for m in mix]))
        game.tell(seat, TicketsOffered(tickets=list(offer), keep=self._minimum(game, offer, True)))

    def _mix_refusal(self, game: Game, mix: tuple[tuple[str, int], ...], size: int | None = None) -> str:
        sizes = {name: len(deck) for name, deck in game.state.ticket_decks.items()}
        for deck_name, n in mix:
            if deck_name not in sizes:
                return f"There is no {excerpt(deck_name)} ticket deck."
            if n > sizes[deck_name]:
                left = sizes[deck_name]
                return f"The {deck_name} deck has only {left} ticket{'' if left == 1 else 's'} left."
        total = min((self.announced_draw if size is None else size) or 0, sum(sizes.values()))
        decks = " and ".join(sorted(sizes))
        return f"Announce {total} tickets in all, from the {decks} decks."

    def _keep(self, game: Game, action: KeepTickets) -> None:
        s = game.state
        seat = action.player
        offers = s.pending["offers"]
        offer = offers[seat]
        setup = bool(s.pending.get("setup"))
        self._check_keep(game, offer, action.keep, setup)
        kept = [t for t in offer if t in action.keep]
        returned = [t for t in offer if t not in action.keep]
        game.player(seat).tickets.extend(kept)
        if setup and self.setup_announced:
            # Others may still be drawing: returns go back once everyone has chosen (G6).
            s.secret.setdefault("returned_tickets", []).extend(returned)
        else:
            self._return(game, returned, self.setup_returns if setup else self.draw_returns)
        offers[seat] = None
        game.emit(TicketsKept(player=seat, kept=len(kept), returned=len(returned)))
        game.tell(seat, TicketsChosen(kept=kept, returned=returned))
        if any(o is not None for o in offers):
            return
        if setup:
            self._return(game, s.secret.pop("returned_tickets", []), self.setup_returns)
            s.pending = {}
            game.begin_play(s.current)
        else:
            game.end_turn()

    def _return(self, game: Game, returned: list[str], where: str) -> None:
        if where == BOX or not returned:
            return
        decks = game.state.ticket_decks
        touched = set()
        for ticket_id in returned:
            deck_name = game.map.tickets[ticket_id].deck
            decks.setdefault(deck_name, []).insert(0, ticket_id)
            touched.add(deck_name)
        if where == SHUFFLE:
            for deck_name in sorted(touched):
                game.chance.shuffle(decks[deck_name])
                game.record(Shuffle(tickets=deck_name, rng=game.rng.state))

    # --- scoring ------------------------------------------------------------------------
    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        choices = [ticket_outcomes(game, sheet["seat"]) for sheet in sheets]
        picks = [_most_completed(outcomes) for outcomes in choices]
        for i, outcomes in enumerate(choices):
            if len(outcomes) > 1:
                picks[i] = self._best_for(game, sheets, choices, picks, i)
        for sheet, outcomes, k in zip(sheets, choices, picks, strict=True):
            self._fill(game, sheet, outcomes[k])

    def _best_for(self, game: Game, sheets: list[dict[str, Any]], choices: list[tuple[TicketOutcome, ...]],
                  picks: list[int], i: int) -> int:
        """X2 (revised): station loans that give the same ticket total with as few stations
        leave seat i a choice of which tickets to complete; he gets the one with the best
        final score (other seats as chosen so far), then the most completed tickets, then
        the first found. Every choice is scored to the end on a copy of the sheets: the
        lines of the modules after this one (bonuses for completed tickets, say) are the
        only ones a choice can change."""
        modules = game.rules.modules
        later = modules[next(j for j, m in enumerate(modules) if m is self) + 1:]

        def key(k: int) -> tuple[int, int, int]:
            trial = copy_data(sheets)
            for sheet, outcomes, pick in zip(trial, choices, picks, strict=True):
                self._fill(game, sheet, outcomes[k if sheet is trial[i] else pick])
            for module in later:
                module.score(game, trial)
            return trial[i]["total"], sum(choices[i][k].completed), -k

        return max(range(len(choices[i])), key=key)

    @staticmethod
    def _fill(game: Game, sheet: dict[str, Any], outcome: TicketOutcome) -> None:
        seat = sheet["seat"]
        tickets = [game.map.tickets[t] for t in game.player(seat).tickets]
        rows: list[dict[str, Any]] = []
        for ticket, done in zip(tickets, outcome.completed, strict=True):
            rows.append({"id": ticket.id, "a": ticket.a, "b": ticket.b, "points": ticket.points,
                         "completed": done})
        sheet["tickets"] = rows
        sheet["tickets_won"] = sum(r["points"] for r in rows if r["completed"])
        sheet["tickets_lost"] = -sum(r["points"] for r in rows if not r["completed"])
        sheet["tickets_completed"] = sum(1 for r in rows if r["completed"])
        sheet["stations_used"] = outcome.stations_used
        sheet["station_loans"] = {c: r for c, r in outcome.loans.items() if r is not None}
        add_points(sheet, "tickets_won", sheet["tickets_won"])
        add_points(sheet, "tickets_lost", sheet["tickets_lost"])


def _most_completed(outcomes: tuple[TicketOutcome, ...]) -> int:
    """The choice that completes the most tickets (the first of those)."""
    return max(range(len(outcomes)), key=lambda k: (sum(outcomes[k].completed), -k))


def parse_mix(mix: Iterable[object]) -> tuple[tuple[str, int], ...]:
    """An announced mix as (deck, count) pairs in deck order, whatever order it was given in."""
    out: dict[str, int] = {}
    for entry in mix:
        if not (isinstance(entry, tuple | list) and len(entry) == 2 and isinstance(entry[0], str)
                and isinstance(entry[1], int) and not isinstance(entry[1], bool) and entry[1] >= 0):
            raise IllegalAction("Announce the mix as decks with counts, e.g. 2 short and 2 long.", "bad_mix")
        out[entry[0]] = out.get(entry[0], 0) + entry[1]
    return tuple(sorted((deck, n) for deck, n in out.items() if n))


def _must_announce(game: Game, seat: int) -> bool:
    """Whether `seat` must still announce its opening mix (announced deals only)."""
    announce = game.state.pending.get("announce")
    return announce is not None and bool(announce) and bool(announce[seat])


def completed_tickets(game_map: GameMap, routes: Iterable[str], tickets: Iterable[str]) -> frozenset[str]:
    """The one answer to "is this ticket complete?" during the game: the player's own routes
    join its two cities (a country is a dead end, as in scoring). Station loans are chosen only
    at the end (the score sheet says what they added)."""
    edges = [(rid, game_map.routes[rid].a, game_map.routes[rid].b, game_map.routes[rid].length)
             for rid in routes if rid in game_map.routes]
    if not edges:
        return frozenset()
    joined = connectivity(edges, game_map.country_ids)
    return frozenset(t for t in tickets if t in game_map.tickets
                     and joined(game_map.tickets[t].a, game_map.tickets[t].b))


def own_edges(game: Game, seat: int) -> list[tuple[str, str, str, int]]:
    """The player's routes as graph edges (id, a, b, length)."""
    routes = game.map.routes
    return [(rid, routes[rid].a, routes[rid].b, game.rules.length(routes[rid])) for rid in game.player(seat).routes]


def country_nodes(game: Game) -> frozenset[str]:
    return game.map.country_ids


def ticket_outcome(game: Game, seat: int) -> TicketOutcome:
    """A best ticket result for `seat`, choosing each station's loan (X2): the first of
    `ticket_outcomes` (scoring picks among them by the final score)."""
    return ticket_outcomes(game, seat)[0]


def ticket_outcomes(game: Game, seat: int) -> tuple[TicketOutcome, ...]:
    """Every best ticket result for `seat` (X2): the station loans that give the highest
    ticket total with the fewest stations, one per set of tickets they complete."""
    s = game.state
    options: dict[str, list[tuple[str, str, str, int]]] = {}
    # In city order, not the order the stations were built: equal loans go to the first
    # station offered, and a state read back from its snapshot (canonical JSON, sorted keys)
    # has lost the building order — a restart must not change who lent what.
    for city, owner in sorted(s.stations.items()):
        if owner != seat:
            continue
        options[city] = [
            (r.id, r.a, r.b, r.length)
            for r in game.map.routes_at(city)
            if s.route_owner.get(r.id) not in (None, seat)
        ]
    tickets = [(t.a, t.b, t.points) for t in (game.map.tickets[i] for i in game.player(seat).tickets)]
    return best_ticket_outcomes(own_edges(game, seat), tickets, options, country_nodes(game))
