"""Alsace: destination tickets and tourist cards, dealt, drawn and chosen together
(seed [A:11-32, 46-48, 57, 65-67]; AMBIGUITIES A2-A7, A17).

The tourist deck is map data (`extras["tourist_cards"]`: attractions, Visitor Passes, Lucky
Devils). It lives in `state.secret["tourist_deck"]` (order hidden; the end of the list is its
top) and its size is public in `state.extra["tourist_deck"]`; a player's tourist cards are
private (`player.private["tourist"]`), their count public (`player.public["tourist_cards"]`).

An offer is a dict {"tickets": [...], "tourist": [...], "devils": [...]}. Lucky Devils are
played before the keep choice (`PlayLuckyDevil`, A4); then one `KeepTickets` names the kept
tickets and tourist cards together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action, DrawTickets, KeepTickets, register
from engine.core import Shuffle
from engine.errors import IllegalAction, excerpt
from engine.events import Payload
from engine.rules.tickets import (
    BOTTOM,
    DestinationTickets,
    TicketsChosen,
    TicketsDrawn,
    TicketsKept,
    TicketsOffered,
)
from engine.scoring import add_points

if TYPE_CHECKING:
    from engine.core import Game
    from engine.maps import GameMap
    from engine.state import GameState


# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class LuckyDevilPlayed(Payload):
    kind = "lucky_devil_played"
    player: int
    discarded: bool  # an attraction went out of the game with the Devil


@dataclass(frozen=True, kw_only=True)
class LuckyDevilResolved(Payload):
    kind = "lucky_devil_resolved"
    devil: str
    discarded: str | None  # the attraction that went with it


TOURIST = "tourist"
DECK_KEY = "tourist_deck"
ATTRACTION, VISITOR_PASS, LUCKY_DEVIL = "attraction", "visitor_pass", "lucky_devil"


@register
@dataclass(slots=True, unsafe_hash=True)
class PlayLuckyDevil(Action):
    """Play a Lucky Devil just received: discard one attraction card (`discard`, from hand or
    from the cards just offered) with no penalty, or none (empty)."""

    TYPE: ClassVar[str] = "play_lucky_devil"
    DOES: ClassVar[str] = "play a Lucky Devil"
    discard: str = ""


def tourist_info(game: Game) -> dict[str, Any]:
    return {c["id"]: c for c in game.map.extras.get("tourist_cards", ())}


def visited_cities(game: Game, seat: int) -> set[str]:
    """A3: a location is visited iff it is an end of at least one route the player owns
    (stations never count)."""
    routes = game.map.routes
    out: set[str] = set()
    for rid in game.player(seat).routes:
        out.update(routes[rid].ends)
    return out


def offer_of(game: Game, seat: int) -> dict[str, list[str]]:
    """The seat's offer as a dict; a plain list (a ticket draw made by another module, e.g. the
    Dice Expansion's dice draw) is tickets only."""
    offer: list[str] | dict[str, list[str]] = game.state.pending["offers"][seat]
    if isinstance(offer, list):
        return {"tickets": list(offer), "tourist": [], "devils": []}
    return offer


def tourist_card_done(card: Mapping[str, Any], visited: set[str] | frozenset[str],
                      attraction_cities: set[str] | frozenset[str]) -> bool:
    """The one answer to "is this tourist card complete?": an attraction when its town is an
    end of one of the player's routes (A3, A17: one visit completes every card of the town);
    a Visitor Pass when any attraction town is (A5)."""
    if card["kind"] == VISITOR_PASS:
        return bool(visited & attraction_cities)
    return card["city"] in visited


@dataclass(frozen=True, slots=True)
class TouristView:
    """Alsace's tourist cards as a seat may see them: the deck's size, the cards out of the
    game, how many each seat holds, and — for the viewer only — their own cards and which of
    those are complete now."""

    deck: int
    out_of_game: int
    counts: tuple[int, ...]
    mine: tuple[str, ...] | None = None
    completed: frozenset[str] = frozenset()


def tourist_hand(game: Game, seat: int) -> list[str]:
    hand: list[str] = game.player(seat).private.setdefault(TOURIST, [])
    return hand


@dataclass(frozen=True)
class TouristCards(DestinationTickets):
    """Tickets plus tourist cards. Setup: `setup_deal` tickets and `setup_tourist` tourist
    cards, keep at least `setup_keep` / `setup_tourist_keep` (A6). Draw action: `draw` tickets
    plus `draw_tourist` tourist cards, keep at least `draw_keep` / `draw_tourist_keep` of each
    kind actually drawn (A7). Returns go to the bottom of their deck."""

    name: ClassVar[str] = "tickets"
    events: ClassVar[tuple[str, ...]] = (
        "shuffle", "tickets_offered", "lucky_devil_played", "lucky_devil_resolved", "tickets_drawn", "tickets_kept",
        "tickets_chosen")
    score_lines: ClassVar[dict[str, str]] = {
        "tickets_won": "Tickets completed", "tickets_lost": "Tickets failed",
        "tourist_won": "Tourist cards completed", "tourist_lost": "Tourist cards failed",
    }
    actions: ClassVar = {"turn": (DrawTickets,), "choose_tickets": (KeepTickets, PlayLuckyDevil)}
    prompts: ClassVar = {"choose_tickets": "play your Lucky Devil, then choose the tickets and tourist cards to keep"}

    setup_deal: tuple[tuple[str, int], ...] = (("main", 5),)
    setup_keep: int = 3
    setup_returns: str = BOTTOM
    draw: tuple[tuple[str, int], ...] = (("main", 3),)
    draw_keep: int = 1
    draw_returns: str = BOTTOM
    setup_tourist: int = 5
    setup_tourist_keep: int = 3
    draw_tourist: int = 3
    draw_tourist_keep: int = 1

    # --- setup --------------------------------------------------------------------------
    def setup(self, game: Game) -> None:
        s = game.state
        for deck_name in game.map.deck_names():
            deck = [t.id for t in game.map.ticket_deck(deck_name)]
            game.chance.shuffle(deck)
            s.ticket_decks[deck_name] = deck
        tourist = [c["id"] for c in game.map.extras.get("tourist_cards", ())]
        if not tourist or not game.map.tickets:
            # A1 (as overridden by rules/README.md): Alsace is data-driven; no data, no game.
            raise IllegalAction("This board has no tourist deck or tickets; Alsace cannot start on it.", "bad_map")
        game.chance.shuffle(tourist)
        s.secret[DECK_KEY] = tourist
        s.extra[DECK_KEY] = len(tourist)
        game.record(Shuffle(tickets=len(game.map.tickets), tourist=len(tourist), rng=game.rng.state))
        offers: list[dict[str, list[str]]] = []
        for p in s.players:
            tourist_hand(game, p.seat)
            p.public["tourist_cards"] = 0
            offer = self._deal(game, self.setup_deal, self.setup_tourist)
            offers.append(offer)
            game.tell(p.seat, TicketsOffered(tickets=list(offer["tickets"]), tourist=list(offer["tourist"]),
                                             devils=len(offer["devils"])))
        game.set_pending("choose_tickets", offers=offers, setup=True)

    def _deal(self, game: Game, tickets: tuple[tuple[str, int], ...], n_tourist: int) -> dict[str, list[str]]:
        offer: dict[str, list[str]] = {"tickets": [], "tourist": [], "devils": []}
        for deck_name, n in tickets:
            offer["tickets"].extend(self._take(game, deck_name, n))
        info = tourist_info(game)
        deck = game.state.secret[DECK_KEY]
        for _ in range(min(n_tourist, len(deck))):
            card = game.take_top(deck)
            offer["devils" if info[card]["kind"] == LUCKY_DEVIL else "tourist"].append(card)
        game.state.extra[DECK_KEY] = len(deck)
        return offer

    # --- the choice ---------------------------------------------------------------------
    def _minimums(self, offer: dict[str, list[str]], setup: bool) -> tuple[int, int]:
        """A4/A6/A7: keep at least N of each kind actually offered (Devils never count)."""
        t_keep = self.setup_keep if setup else self.draw_keep
        c_keep = self.setup_tourist_keep if setup else self.draw_tourist_keep
        return min(t_keep, len(offer["tickets"])), min(c_keep, len(offer["tourist"]))

    def keep_choices(self, game: Game, seat: int) -> list[tuple[str, ...]]:
        offer = offer_of(game, seat)
        t_min, c_min = self._minimums(offer, bool(game.state.pending.get("setup")))
        ticket_sets = [k for n in range(t_min, len(offer["tickets"]) + 1) for k in combinations(offer["tickets"], n)]
        tourist_sets = [k for n in range(c_min, len(offer["tourist"]) + 1) for k in combinations(offer["tourist"], n)]
        return [t + c for t in ticket_sets for c in tourist_sets]

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        s = game.state
        if s.pending.get("kind") == "choose_tickets":
            offer = offer_of(game, seat)
            if offer["devils"]:
                return [PlayLuckyDevil(seat, "")] + [PlayLuckyDevil(seat, c) for c in self._devil_targets(game, seat)]
            return [KeepTickets(seat, keep) for keep in self.keep_choices(game, seat)]
        if any(s.ticket_decks.get(name) for name, _ in self.draw) or s.secret.get(DECK_KEY):
            return [DrawTickets(seat)]
        return []

    def _devil_targets(self, game: Game, seat: int) -> list[str]:
        """A4: any attraction card (not a Visitor Pass) held or just offered."""
        info = tourist_info(game)
        offer = offer_of(game, seat)
        cards = tourist_hand(game, seat) + offer["tourist"]
        return [c for c in cards if info[c]["kind"] == ATTRACTION]

    def apply(self, game: Game, action: Action) -> None:
        if isinstance(action, PlayLuckyDevil):
            self._devil(game, action)
        elif isinstance(action, KeepTickets):
            self._keep(game, action)
        else:
            assert isinstance(action, DrawTickets)
            if game.state.pending.get("kind") == "choose_tickets":
                raise IllegalAction("Right now you must choose which cards to keep.", "wrong_step")
            self._draw(game, action)

    def _devil(self, game: Game, action: PlayLuckyDevil) -> None:
        s = game.state
        seat = action.player
        offer = offer_of(game, seat)
        if not offer["devils"]:
            raise IllegalAction("You have no Lucky Devil to play.", "no_devil")
        if action.discard and action.discard not in self._devil_targets(game, seat):
            raise IllegalAction(f"{excerpt(action.discard)} is not an attraction card you hold or were offered.",
                                "bad_tourist_card")
        devil = offer["devils"].pop(0)
        # A4: the Devil and the discarded attraction leave the game, penalty-free.
        if action.discard in offer["tourist"]:
            offer["tourist"].remove(action.discard)
        elif action.discard:
            tourist_hand(game, seat).remove(action.discard)
            game.player(seat).public["tourist_cards"] = len(tourist_hand(game, seat))
        s.extra["tourist_out_of_game"] = s.extra.get("tourist_out_of_game", 0) + 1 + bool(action.discard)
        game.emit(LuckyDevilPlayed(player=seat, discarded=bool(action.discard)))
        game.tell(seat, LuckyDevilResolved(devil=devil, discarded=action.discard or None))

    def _draw(self, game: Game, action: DrawTickets) -> None:
        s = game.state
        seat = action.player
        if action.mix:
            raise IllegalAction("In this game you cannot choose which ticket deck to draw from.", "bad_mix")
        # A7: always from both decks, up to 3 each; illegal only when both are empty.
        if not (any(s.ticket_decks.get(name) for name, _ in self.draw) or s.secret.get(DECK_KEY)):
            raise IllegalAction("There are no tickets or tourist cards left to draw.", "no_tickets")
        offer = self._deal(game, self.draw, self.draw_tourist)
        offers: list[dict[str, list[str]] | None] = [None] * game.n_players
        offers[seat] = offer
        game.emit(TicketsDrawn(player=seat, count=len(offer["tickets"]),
                               tourist=len(offer["tourist"]) + len(offer["devils"])))
        game.tell(seat, TicketsOffered(tickets=list(offer["tickets"]), tourist=list(offer["tourist"]),
                                       devils=len(offer["devils"])))
        game.set_pending("choose_tickets", offers=offers, setup=False)

    def _keep(self, game: Game, action: KeepTickets) -> None:
        s = game.state
        seat = action.player
        offers = s.pending["offers"]
        offer = offers[seat] = offer_of(game, seat)
        setup = bool(s.pending.get("setup"))
        if offer["devils"]:
            raise IllegalAction("First play your Lucky Devil (A4: it is played at once).", "play_devil_first")
        keep = action.keep
        if len(set(keep)) != len(keep):
            raise IllegalAction("You named the same card twice.", "bad_tickets")
        unknown = [c for c in keep if c not in offer["tickets"] and c not in offer["tourist"]]
        if unknown:
            raise IllegalAction(f"{excerpt(unknown[0])} is not one of the cards you were offered.", "bad_tickets")
        t_min, c_min = self._minimums(offer, setup)
        kept_t = [t for t in offer["tickets"] if t in keep]
        kept_c = [c for c in offer["tourist"] if c in keep]
        if len(kept_t) < t_min:
            raise IllegalAction(f"Keep at least {t_min} of the {len(offer['tickets'])} tickets.", "too_few_tickets")
        if len(kept_c) < c_min:
            raise IllegalAction(f"Keep at least {c_min} of the {len(offer['tourist'])} tourist cards.",
                                "too_few_tourist_cards")
        player = game.player(seat)
        player.tickets.extend(kept_t)
        tourist_hand(game, seat).extend(kept_c)
        player.public["tourist_cards"] = len(tourist_hand(game, seat))
        decks = s.ticket_decks
        # Returns go unseen to the bottom of their own deck ([A:48], "as above" [A:57]).
        for t in offer["tickets"]:
            if t not in keep:
                decks.setdefault(game.map.tickets[t].deck, []).insert(0, t)
        for c in offer["tourist"]:
            if c not in keep:
                s.secret[DECK_KEY].insert(0, c)
        s.extra[DECK_KEY] = len(s.secret[DECK_KEY])
        offers[seat] = None
        game.emit(TicketsKept(player=seat, kept=len(kept_t), returned=len(offer["tickets"]) - len(kept_t),
                              tourist_kept=len(kept_c), tourist_returned=len(offer["tourist"]) - len(kept_c)))
        game.tell(seat, TicketsChosen(kept=kept_t, tourist=kept_c))
        if any(o is not None for o in offers):
            return
        if setup:
            s.pending = {}
            game.begin_play(s.current)
        else:
            game.end_turn()

    def view_part(self, state: GameState, seat: int | None, game_map: GameMap) -> TouristView:
        mine = None
        completed: frozenset[str] = frozenset()
        if seat is not None:
            mine = tuple(state.players[seat].private.get(TOURIST, ()))
            info = {c["id"]: c for c in game_map.extras.get("tourist_cards", ())}
            attractions = {c["city"] for c in info.values() if c["kind"] == ATTRACTION}
            visited = {end for rid in state.players[seat].routes for end in game_map.routes[rid].ends}
            completed = frozenset(c for c in mine if c in info and tourist_card_done(info[c], visited, attractions))
        return TouristView(
            deck=int(state.extra.get(DECK_KEY, 0)),
            out_of_game=int(state.extra.get("tourist_out_of_game", 0)),
            counts=tuple(int(p.public.get("tourist_cards", 0)) for p in state.players),
            mine=mine, completed=completed)

    # --- scoring ------------------------------------------------------------------------
    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        super().score(game, sheets)
        info = tourist_info(game)
        attraction_cities = {c["city"] for c in info.values() if c["kind"] == ATTRACTION}
        for sheet in sheets:
            seat = sheet["seat"]
            visited = visited_cities(game, seat)
            rows = []
            for card_id in tourist_hand(game, seat):
                card = info[card_id]
                done = tourist_card_done(card, visited, attraction_cities)
                rows.append({"id": card_id, "kind": card["kind"], "city": card["city"], "name": card["name"],
                             "points": card["points"], "completed": done})
            sheet["tourist"] = rows
            sheet["tourist_won"] = sum(r["points"] for r in rows if r["completed"])
            sheet["tourist_lost"] = -sum(r["points"] for r in rows if not r["completed"])
            add_points(sheet, "tourist_won", sheet["tourist_won"])
            add_points(sheet, "tourist_lost", sheet["tourist_lost"])
