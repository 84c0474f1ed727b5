"""Tie-breaks for equal totals, applied in the order a rule set lists them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.core import Game


@dataclass(frozen=True)
class TieBreak:
    """Among tied players, those with the highest `key` stay in the running."""

    label: str

    def key(self, game: Game, sheet: dict[str, Any]) -> int:
        raise NotImplementedError


@dataclass(frozen=True)
class MostCompletedTickets(TieBreak):
    label: str = "most completed tickets"

    def key(self, game: Game, sheet: dict[str, Any]) -> int:
        # A score sheet is a dict (rule modules add their own lines); this line is a count.
        completed: int = sheet.get("tickets_completed", 0)
        return completed


@dataclass(frozen=True)
class FewestStationsUsed(TieBreak):
    """Europe: "the player who used the least number of Stations" — stations placed on the
    board, whether or not a ticket needed them (S-EU3 compares stations left)."""

    label: str = "fewest stations used"

    def key(self, game: Game, sheet: dict[str, Any]) -> int:
        return game.player(sheet["seat"]).stations


@dataclass(frozen=True)
class HoldsBonus(TieBreak):
    """The holder of a bonus card (e.g. the European Express) wins the tie."""

    bonus: str = ""

    def key(self, game: Game, sheet: dict[str, Any]) -> int:
        return 1 if self.bonus in sheet["bonuses"] else 0


@dataclass(frozen=True)
class LongestPath(TieBreak):
    """The longest continuous path, counted even where no bonus is given for it (Nordic)."""

    label: str = "longest path"

    def key(self, game: Game, sheet: dict[str, Any]) -> int:
        if "longest_path" not in sheet:
            from engine.rules.bonuses import longest_path_length

            sheet["longest_path"] = longest_path_length(game, sheet["seat"])
        length: int = sheet["longest_path"]
        return length
