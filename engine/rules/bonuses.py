"""End-of-game bonuses: the longest continuous path and the most completed tickets."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from engine.graph import longest_trail
from engine.rules.module import RuleModule
from engine.rules.tickets import country_nodes, own_edges
from engine.scoring import add_bonus

if TYPE_CHECKING:
    from engine.core import Game


def award_most(sheets: list[dict[str, Any]], values: list[int], label: str, points: int) -> None:
    """Give `points` to every player tied for the highest value; a value of 0 never wins (X3)."""
    best = max(values, default=0)
    if best < 1:
        return
    for sheet, value in zip(sheets, values, strict=True):
        if value == best:
            add_bonus(sheet, label, points)


def longest_path_length(game: Game, seat: int) -> int:
    """The player's longest continuous path of their own trains (X1); stations do not count."""
    return longest_trail(own_edges(game, seat), country_nodes(game))


@dataclass(frozen=True)
class LongestPathBonus(RuleModule):
    """`points` to the player(s) with the longest continuous path."""

    name: ClassVar[str] = "longest_path"
    points: int = 10
    label: str = "Longest Path"

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        values = []
        for sheet in sheets:
            sheet["longest_path"] = longest_path_length(game, sheet["seat"])
            values.append(sheet["longest_path"])
        award_most(sheets, values, self.label, self.points)


@dataclass(frozen=True)
class MostTicketsBonus(RuleModule):
    """`points` to the player(s) with the most completed tickets (Globetrotter)."""

    name: ClassVar[str] = "most_tickets"
    points: int = 10
    label: str = "Globetrotter"

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        award_most(sheets, [s.get("tickets_completed", 0) for s in sheets], self.label, self.points)
