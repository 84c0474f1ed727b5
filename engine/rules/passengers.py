"""Passengers (Ticket to Ride Germany): meeples on the cities, taken by claiming routes, scored
by majorities per colour.

- Setup: the map's `extras` say how many meeples stand on each city and country space and how
  many there are of each colour; the meeples are drawn from the bag onto those spaces with the
  game's generator. They stand face up, so the board is public (`extra["passengers"]`,
  `{space: {colour: count}}`) and no hidden bag is left after setup.
- After every claim the player takes one meeple from each end of the route, if any are left
  there (G8: taking is automatic, as it can never lower a score). Where several colours stand,
  the player chooses: the game waits with `{kind: "choose_passenger", route, cities}` and the
  turn ends once every choice is made. One colour only: taken without asking.
- A player's meeples are public (G3): `public["passengers"]`, `{colour: count}`.
- Scoring per colour: the most scores `most_points`, the second most `second_points`. A tie for
  the most gives each tied player `most_points` and nobody `second_points` (G9); with one
  leader, a tie for second gives each of them `second_points`; no meeple of a colour never
  wins anything (G10, X3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import Action, register
from engine.cards import card_word
from engine.core import Shuffle
from engine.decisions import Decision
from engine.errors import IllegalAction
from engine.events import Payload
from engine.rules.module import RuleModule
from engine.rules.tie_breaks import TieBreak
from engine.scoring import add_bonus

if TYPE_CHECKING:
    from engine.core import Game
    from engine.maps import GameMap
    from engine.state import GameState


# --- the decisions this rule opens -----------------------------------------------------------
@dataclass(frozen=True)
class ChoosePassenger(Decision):
    """The claimer chooses which passenger to take in each city where there is a choice."""

    kind = "choose_passenger"
    route: str
    cities: list[str]  # the cities at the route's ends where a colour is still to choose



# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class PassengersPlaced(Payload):
    kind = "passengers_placed"
    passengers: dict[str, dict[str, int]]  # city → colour → count


@dataclass(frozen=True, kw_only=True)
class PassengerTaken(Payload):
    kind = "passenger_taken"
    player: int
    city: str
    colour: str


KEY = "passengers"


@register
@dataclass(slots=True, unsafe_hash=True)
class TakePassenger(Action):
    """Take one passenger of `colour` from `city` (after a claim, where several colours stand)."""

    TYPE: ClassVar[str] = "take_passenger"
    city: str = ""
    colour: str = ""


@dataclass(frozen=True, slots=True)
class PassengersView:
    """Germany's passengers as anyone may see them: those still waiting on each space
    ({space: {colour: count}}) and those each seat has collected ({colour: count})."""

    waiting: Mapping[str, Mapping[str, int]]
    held: tuple[Mapping[str, int], ...]


def board(game: Game) -> dict[str, dict[str, int]]:
    """The meeples still on the board: {space: {colour: count}} (the state's own dict)."""
    waiting: dict[str, dict[str, int]] = game.state.extra.get(KEY, {})
    return waiting


@dataclass(frozen=True)
class Passengers(RuleModule):
    """Passenger meeples: placed at setup, collected after claims, scored by majorities."""

    name: ClassVar[str] = "passengers"
    events: ClassVar[tuple[str, ...]] = ("shuffle", "passengers_placed", "passenger_taken")
    actions: ClassVar = {"choose_passenger": (TakePassenger,)}
    prompts: ClassVar = {"choose_passenger": "choose which passenger to take"}

    most_points: int = 20

    def view_part(self, state: GameState, seat: int | None, game_map: GameMap) -> PassengersView:
        return PassengersView(
            waiting={space: dict(colours) for space, colours in state.extra.get(KEY, {}).items()},
            held=tuple(dict(p.public.get(KEY, {})) for p in state.players))
    second_points: int = 10
    label: str = "Passengers"

    # --- setup --------------------------------------------------------------------------
    def setup(self, game: Game) -> None:
        spaces = game.map.extras.get("passengers")
        colours = game.map.extras.get("passenger_colors")
        if not spaces or not colours:
            raise IllegalAction(f"The {game.map.name} map has no passenger data, so it cannot be played "
                                f"with passengers.", "no_passengers")
        bag = [colour for colour, n in colours.items() for _ in range(n)]
        game.chance.shuffle(bag)
        game.record(Shuffle(passengers=len(bag), rng=game.rng.state))
        placed: dict[str, dict[str, int]] = {}
        for space, n in spaces.items():
            here: dict[str, int] = {}
            for _ in range(n):
                if bag:
                    colour = bag.pop()
                    here[colour] = here.get(colour, 0) + 1
            if here:
                placed[space] = dict(sorted(here.items()))
        game.state.extra[KEY] = placed
        for p in game.state.players:
            p.public[KEY] = {}
        game.emit(PassengersPlaced(passengers={k: dict(v) for k, v in placed.items()}))

    # --- collecting ---------------------------------------------------------------------
    def on_route_claimed(self, game: Game, seat: int, route_id: str) -> None:
        route = game.map.routes[route_id]
        to_choose = []
        for space in (route.a, route.b):
            colours = sorted(board(game).get(space, {}))
            if len(colours) == 1:
                self._take(game, seat, space, colours[0])
            elif colours:
                to_choose.append(space)
        if to_choose:
            game.set_pending("choose_passenger", route=route_id, cities=to_choose)

    def _take(self, game: Game, seat: int, space: str, colour: str) -> None:
        spaces = board(game)
        here = spaces[space]
        here[colour] -= 1
        if not here[colour]:
            del here[colour]
        if not here:
            del spaces[space]
        mine = dict(game.player(seat).public.get(KEY, {}))
        mine[colour] = mine.get(colour, 0) + 1
        game.player(seat).public[KEY] = dict(sorted(mine.items()))
        game.emit(PassengerTaken(player=seat, city=space, colour=colour))

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        spaces = board(game)
        return [
            TakePassenger(seat, space, colour)
            for space in game.state.pending.get("cities", [])
            for colour in sorted(spaces.get(space, {}))
        ]

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, TakePassenger)
        pending = game.state.pending
        waiting = list(pending.get("cities", []))
        city = game.map.cities.get(action.city) if action.city else None
        if city is None and len(waiting) == 1 and not action.city:
            city = game.map.cities[waiting[0]]
        if city is None or city.id not in waiting:
            where = " or ".join(game.map.city_label(c) for c in waiting)
            raise IllegalAction(f"Choose a passenger in {where}.", "bad_passenger")
        here = board(game).get(city.id, {})
        colour = action.colour.strip().lower()
        if here.get(colour, 0) < 1:
            raise IllegalAction(
                f"There is no {card_word(colour) if colour else 'such'} passenger in {city.name}; choose one of "
                f"{', '.join(sorted(here))}.",
                "bad_passenger",
            )
        self._take(game, action.player, city.id, colour)
        waiting.remove(city.id)
        if waiting:
            game.set_pending("choose_passenger", route=pending["route"], cities=waiting)
        else:
            game.end_turn()

    # --- scoring ------------------------------------------------------------------------
    def colours(self, game: Game) -> list[str]:
        return list(game.map.extras.get("passenger_colors", {}))

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        counts = [dict(game.player(sheet["seat"]).public.get(KEY, {})) for sheet in sheets]
        points: list[dict[str, int]] = [{} for _ in sheets]
        for colour in self.colours(game):
            for i, award in majority_points(
                [c.get(colour, 0) for c in counts], self.most_points, self.second_points
            ).items():
                points[i][colour] = award
        for sheet, mine, won in zip(sheets, counts, points, strict=True):
            total = sum(won.values())
            sheet["passengers"] = mine
            sheet["passengers_total"] = sum(mine.values())
            sheet["passenger_points"] = won
            if total:
                add_bonus(sheet, self.label, total)


def majority_points(values: list[int], most: int, second: int) -> dict[int, int]:
    """Points by index for one colour: every player tied for the most gets `most`; only when
    one player leads alone does the next highest count (every player tied at it) get `second`.
    A count of 0 never scores (G9, G10)."""
    best = max(values, default=0)
    if best < 1:
        return {}
    leaders = [i for i, v in enumerate(values) if v == best]
    out = {i: most for i in leaders}
    if len(leaders) == 1:
        runner_up = max((v for v in values if v < best), default=0)
        if runner_up >= 1:
            out.update({i: second for i, v in enumerate(values) if v == runner_up})
    return out


@dataclass(frozen=True)
class MostPassengers(TieBreak):
    """The tied player with the most passenger meeples (all colours) wins (Germany)."""

    label: str = "most passengers"

    def key(self, game: Game, sheet: dict[str, Any]) -> int:
        return sum(game.player(sheet["seat"]).public.get(KEY, {}).values())
