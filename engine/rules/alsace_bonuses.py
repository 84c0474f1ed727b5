"""Alsace's nine bonus cards (seed [A:33-43]; AMBIGUITIES A18-A24, X1, X3).

Ties: every tied player gets the full value; a "most" count of 0 never wins (A24, X3).
"Least incomplete tickets" goes to every player with the fewest failed tickets, 0 included.
Tourist cards are not tickets for the two ticket bonuses (A24). Visits follow A3.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.graph import longest_trail
from engine.rules.bonuses import award_most
from engine.rules.module import RuleModule
from engine.rules.tickets import country_nodes
from engine.rules.tourist_cards import visited_cities
from engine.scoring import add_bonus

if TYPE_CHECKING:
    from engine.core import Game

FRANCE = "FR"

LONGEST_JOURNEY = "Longest journey"
LONGEST_PERIMETER = "Longest perimeter route"
MOST_TUNNELS = "Most tunnels"
MOST_COUNTRIES = "Most foreign countries"
MOST_FRENCH_CITIES = "Most French cities"
MOST_TICKETS = "Most completed tickets"
LEAST_INCOMPLETE = "Least incomplete tickets"
MOST_REGIONS = "Most French regions"
NORTH_SOUTH = "North-South tunnel"


@dataclass(frozen=True)
class LongestTaggedPathBonus(RuleModule):
    """A19: the longest continuous path made only of the player's routes carrying `tag`
    (Alsace: "perimeter"), counted as the longest path (X1); length ≥1 required."""

    name: ClassVar[str] = "longest_tagged_path"
    tag: str = "perimeter"
    points: int = 20
    label: str = LONGEST_PERIMETER

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        routes = game.map.routes
        values = []
        for sheet in sheets:
            edges = [(rid, routes[rid].a, routes[rid].b, routes[rid].length)
                     for rid in game.player(sheet["seat"]).routes if self.tag in routes[rid].tags]
            sheet[f"longest_{self.tag}"] = longest_trail(edges, country_nodes(game))
            values.append(sheet[f"longest_{self.tag}"])
        award_most(sheets, values, self.label, self.points)


def _visited_tags(game: Game, seat: int) -> list[dict[str, Any]]:
    return [dict(game.map.cities[c].tags) for c in visited_cities(game, seat)]


def foreign_countries(game: Game, seat: int) -> int:
    """A20: distinct non-French `country` tags among visited towns."""
    return len({t.get("country") for t in _visited_tags(game, seat) if t.get("country") not in (None, FRANCE)})


def french_cities(game: Game, seat: int) -> int:
    """A21: visited French towns."""
    return sum(1 for t in _visited_tags(game, seat) if t.get("country") == FRANCE)


def french_regions(game: Game, seat: int) -> int:
    """A22: distinct `french_region` tags among visited towns."""
    return len({t["french_region"] for t in _visited_tags(game, seat) if t.get("french_region")})


_COUNTS = {"foreign_countries": foreign_countries, "french_cities": french_cities,
           "french_regions": french_regions}


@dataclass(frozen=True)
class MostVisitedBonus(RuleModule):
    """A20-A22: most foreign countries / French cities / French regions visited (A3)."""

    name: ClassVar[str] = "most_visited"
    counts: str = "foreign_countries"
    points: int = 25
    label: str = MOST_COUNTRIES

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        values = []
        for sheet in sheets:
            sheet[self.counts] = _COUNTS[self.counts](game, sheet["seat"])
            values.append(sheet[self.counts])
        award_most(sheets, values, self.label, self.points)


@dataclass(frozen=True)
class LeastIncompleteTicketsBonus(RuleModule):
    """A24: every player with the fewest failed tickets (0 included); tourist cards are not
    tickets. Needs the tickets module's sheet fields (it must come after it)."""

    name: ClassVar[str] = "least_incomplete"
    points: int = 15
    label: str = LEAST_INCOMPLETE

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        failed = [sum(1 for t in s.get("tickets", []) if not t["completed"]) for s in sheets]
        for sheet, n in zip(sheets, failed, strict=True):
            sheet["tickets_incomplete"] = n
        best = min(failed, default=0)
        for sheet, n in zip(sheets, failed, strict=True):
            if n == best:
                add_bonus(sheet, self.label, self.points)


@dataclass(frozen=True)
class TaggedRouteOwnerBonus(RuleModule):
    """A23: every player who owns at least one route tagged `tag` gets `points`, once
    ("any player": not a race)."""

    name: ClassVar[str] = "tagged_route_owner"
    tag: str = "north_south_tunnel"
    points: int = 30
    label: str = NORTH_SOUTH

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        routes = game.map.routes
        for sheet in sheets:
            owns = any(self.tag in routes[r].tags for r in game.player(sheet["seat"]).routes)
            sheet[self.tag] = owns
            if owns:
                add_bonus(sheet, self.label, self.points)
