"""Stations (Europe): build one in a city to borrow one opponent route there for tickets."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action, BuildStation
from engine.cards import COLOURS, GRAY, LOCO, Cards, card_word, colour_and_locos, count, describe, has_cards
from engine.errors import IllegalAction
from engine.events import Payload
from engine.rules.module import RuleModule
from engine.rules.routes import find_city
from engine.scoring import add_points

if TYPE_CHECKING:
    from engine.core import Game


# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class StationBuilt(Payload):
    kind = "station_built"
    player: int
    city: str
    payment: dict[str, int]


ANY_COLOUR = "any"
ROUTE_COLOUR = "route_colour"  # USSR: the colour of a route into the city (any, if one is grey)


_CITIES: dict[str, tuple[str, ...]] = {}


def _station_cities(game: Game) -> tuple[str, ...]:
    """The cities of the map where a station may stand (not country spaces), once per map."""
    cities = _CITIES.get(game.map.id)
    if cities is None:
        cities = _CITIES[game.map.id] = tuple(c.id for c in game.map.cities.values() if not c.is_country)
    return cities


@dataclass(frozen=True)
class Stations(RuleModule):
    """Build a station: the n-th costs `costs[n-1]` cards of one colour (locomotives may stand
    in); one station per city; each unbuilt station scores `unused_points` at the end.
    Which route each station lends is chosen at scoring, to the owner's best (tickets module).
    """

    name: ClassVar[str] = "stations"
    events: ClassVar[tuple[str, ...]] = ("station_built",)
    score_lines: ClassVar[dict[str, str]] = {"stations": "Stations kept"}
    actions: ClassVar = {"turn": (BuildStation,)}

    costs: tuple[int, ...] = (1, 2, 3)
    colour_rule: str = ANY_COLOUR
    unused_points: int = 4

    def allowed_colours(self, game: Game, city: str) -> tuple[str, ...]:
        if self.colour_rule == ANY_COLOUR:
            return COLOURS
        colours = {r.color for r in game.map.routes_at(city)}
        if GRAY in colours:
            return COLOURS
        return tuple(c for c in COLOURS if c in colours)

    def cost(self, game: Game, seat: int) -> int:
        built = len(self.costs) - game.player(seat).stations
        return self.costs[min(built, len(self.costs) - 1)]

    def payment_options(self, game: Game, seat: int, city: str) -> list[Cards]:
        return self._options(game, seat, self.allowed_colours(game, city))

    def _options(self, game: Game, seat: int, colours: tuple[str, ...]) -> list[Cards]:
        hand = game.player(seat).hand
        n = self.cost(game, seat)
        locos = hand.get(LOCO, 0)
        out = []
        for colour in colours:
            have = hand.get(colour, 0)
            for n_colour in range(1, min(have, n) + 1):
                if n - n_colour <= locos:
                    out.append(colour_and_locos(colour, n_colour, n - n_colour))
        if locos >= n:
            out.append(((LOCO, n),))
        return out

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        if game.player(seat).stations <= 0:
            return []
        out: list[Action] = []
        taken = game.state.stations
        # Cities that allow the same colours share one list of payments (with the "any colour"
        # rule, that is every city: this runs for every decision of every AI game).
        by_colours: dict[tuple[str, ...], list[Cards]] = {}
        any_colour = self.colour_rule == ANY_COLOUR
        for city in _station_cities(game):
            if city in taken:
                continue
            colours = COLOURS if any_colour else self.allowed_colours(game, city)
            options = by_colours.get(colours)
            if options is None:
                options = by_colours[colours] = self._options(game, seat, colours)
            out.extend([BuildStation(seat, city, payment) for payment in options])
        return out

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, BuildStation)
        seat = action.player
        player = game.player(seat)
        city = find_city(game, action.city)
        label = game.map.city_label(city.id)
        if player.stations <= 0:
            raise IllegalAction("You have built all your stations.", "no_stations")
        owner = game.state.stations.get(city.id)
        if owner is not None:
            raise IllegalAction(f"{label} already has {game.name(owner)}'s station.", "station_taken")
        n = self.cost(game, seat)
        payment = action.payment
        colours = [c for c, _ in payment if c != LOCO]
        allowed = self.allowed_colours(game, city.id)
        if count(payment) != n or len(colours) > 1 or any(c not in COLOURS for c in colours):
            raise IllegalAction(
                f"This station costs {n} {'card' if n == 1 else 'cards'} of one colour "
                f"(locomotives may stand in); you offered {describe(payment)}.",
                "bad_payment",
            )
        if colours and colours[0] not in allowed:
            raise IllegalAction(
                f"A station in {label} must be paid in the colour of a route into it: "
                f"{', '.join(allowed)} (or locomotives).",
                "bad_payment",
            )
        if not has_cards(player.hand, payment):
            colour = colours[0] if colours else LOCO
            raise IllegalAction(
                f"You do not hold {describe(payment)}; you have {player.hand.get(colour, 0)} "
                f"{card_word(colour, 2)} and {player.hand.get(LOCO, 0)} {card_word(LOCO, 2)}.",
                "not_enough_cards",
            )
        game.take_cards(seat, payment)
        game.discard_cards(payment)
        player.stations -= 1
        game.state.stations[city.id] = seat
        game.emit(StationBuilt(player=seat, city=city.id, payment=dict(payment)))
        game.end_turn()

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        for sheet in sheets:
            left = game.player(sheet["seat"]).stations
            sheet["stations_left"] = left
            sheet["stations"] = left * self.unused_points
            add_points(sheet, "stations", sheet["stations"])
