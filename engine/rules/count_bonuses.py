""""Most X" bonuses that count what a player holds on the board at the end of the game: the
USSR's most routes, most tunnels and most ferries; usable by any variant (e.g. Alsace's most
tunnels).

Counts are taken from the routes each player holds when the game ends, so routes built with
a Controller count and routes removed by one do not (U6, U8, U11). Every player tied for the
highest count gets the full bonus; a count of 0 never wins (U12, X3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.maps import Route
from engine.rules.bonuses import award_most
from engine.rules.module import RuleModule

if TYPE_CHECKING:
    from engine.core import Game

ROUTES = "routes"
TUNNELS = "tunnels"
FERRIES = "ferries"

# What can be counted, and the score-sheet field that shows each player's count.
_TESTS: dict[str, Callable[[Route], bool]] = {
    ROUTES: lambda route: True,
    TUNNELS: lambda route: route.tunnel,
    FERRIES: lambda route: route.is_ferry,
}
_FIELDS = {ROUTES: "route_count", TUNNELS: "tunnel_count", FERRIES: "ferry_count"}


def count_routes(game: Game, seat: int, what: str) -> int:
    """How many of `seat`'s routes are `what`: "routes" (all), "tunnels", "ferries", or
    "tag:<word>" (routes carrying that map tag)."""
    routes = game.map.routes
    return sum(1 for rid in game.player(seat).routes if _matches(routes[rid], what))


def _matches(route: Route, what: str) -> bool:
    if what.startswith("tag:"):
        return what[4:] in route.tags
    return _TESTS[what](route)


def sheet_field(what: str) -> str:
    return _FIELDS.get(what) or f"{what[4:] if what.startswith('tag:') else what}_count"


@dataclass(frozen=True)
class MostCountBonus(RuleModule):
    """`points` to the player(s) holding the most routes of a kind at the end (`counts`:
    "routes", "tunnels", "ferries" or "tag:<word>"); the count is shown on every score
    sheet."""

    name: ClassVar[str] = "most_count"

    counts: str = ROUTES
    points: int = 15
    label: str = "Most routes"

    def __post_init__(self) -> None:
        if self.counts not in _TESTS and not self.counts.startswith("tag:"):
            raise ValueError(f"cannot count {self.counts!r}")

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        field = sheet_field(self.counts)
        values = []
        for sheet in sheets:
            sheet[field] = count_routes(game, sheet["seat"], self.counts)
            values.append(sheet[field])
        award_most(sheets, values, self.label, self.points)
