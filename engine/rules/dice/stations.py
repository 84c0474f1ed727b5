"""Building a station with dice: the 1st, 2nd and 3rd station take 1, 2 and 3 station faces,
wilds standing in (D3). The board's own `Stations` module keeps the costs, the count and the
scoring; on a board without stations the action is refused in plain words."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, BuildStation
from engine.cards import cards, count
from engine.errors import IllegalAction
from engine.rules.dice.faces import STATION, WILD, face_counts, payment_words
from engine.rules.dice.purse import spend, this_turn, unused_dice
from engine.rules.module import RuleModule
from engine.rules.routes import find_city
from engine.rules.stations import StationBuilt, Stations, _station_cities

if TYPE_CHECKING:
    from engine.core import Game


def board_stations(game: Game) -> Stations | None:
    """The board's stations module, if the board has stations."""
    module = game.rules.module("stations")
    return module if isinstance(module, Stations) else None


# The station builds per (seat, map, cost, station faces, wild faces), city by city.
_BUILDS: dict[tuple[int, str, int, int, int], tuple[tuple[str, list[Action]], ...]] = {}


@dataclasses.dataclass(frozen=True)
class DiceStations(RuleModule):
    """`build_station` paid with station/wild faces as the turn's action."""

    name: ClassVar[str] = "dice_stations"
    events: ClassVar[tuple[str, ...]] = ("station_built",)
    actions: ClassVar = {"dice_roll": (BuildStation,), "dice_action": (BuildStation,)}

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        stations = board_stations(game)
        if stations is None or game.player(seat).stations <= 0:
            return []
        n = stations.cost(game, seat)
        have = face_counts(unused_dice(game, seat))
        n_station, n_wild = min(have.get(STATION, 0), n), min(have.get(WILD, 0), n)
        # Made once per seat, map, cost and faces, and reused (actions are values): every
        # decision of a dice turn asks.
        key = (seat, game.map.id, n, n_station, n_wild)
        by_city = _BUILDS.get(key)
        if by_city is None:
            payments = [cards({STATION: n - w, WILD: w}) for w in range(n_wild + 1) if n - w <= n_station]
            by_city = _BUILDS[key] = tuple((city, [BuildStation(seat, city, p) for p in payments])
                                           for city in _station_cities(game)) if payments else ()
        taken = game.state.stations
        out: list[Action] = []
        for city, builds in by_city:
            if city not in taken:
                out.extend(builds)
        return out

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, BuildStation)
        seat = action.player
        stations = board_stations(game)
        if stations is None:
            raise IllegalAction("There are no stations in this game.", "not_in_these_rules")
        player = game.player(seat)
        city = find_city(game, action.city)
        if player.stations <= 0:
            raise IllegalAction("You have built all your stations.", "no_stations")
        owner = game.state.stations.get(city.id)
        if owner is not None:
            raise IllegalAction(f"{game.map.city_label(city.id)} already has {game.name(owner)}'s station.",
                                "station_taken")
        n = stations.cost(game, seat)
        if count(action.payment) != n or any(name not in (STATION, WILD) for name, _ in action.payment):
            raise IllegalAction(f"This station costs {n} station {'die' if n == 1 else 'dice'} (wilds may stand "
                                f"in); you offered {payment_words(action.payment)}.", "bad_payment")
        spend(game, seat, action.payment, {STATION, WILD}, None)
        this_turn(game)["acted"] = True
        player.stations -= 1
        game.state.stations[city.id] = seat
        game.emit(StationBuilt(player=seat, city=city.id, payment=dict(action.payment)))
        game.end_turn()
