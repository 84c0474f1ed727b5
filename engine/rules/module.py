"""The shape of a rule module: hooks the core calls, each doing nothing by default."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from engine import core
from engine.actions import Action

if TYPE_CHECKING:
    from engine.core import Game
    from engine.maps import GameMap
    from engine.state import GameState

# The event kinds the core (engine/core.py, engine/undo.py) emits itself, whatever the rule set:
# the payloads engine/core.py declares.
CORE_EVENTS: tuple[str, ...] = core.CORE_EVENTS


class RuleModule:
    """One rule of the game with its settings.

    `events` lists the kinds of event the module emits (itself or through a helper it calls,
    whatever their audience), so the words for them can be checked. `score_lines` names the
    fixed lines this module adds to the final score sheet (a bonus module's line is its
    `label`). `actions` maps a pending decision kind ("turn",
    "second_card", "tunnel", …) to the action types this module handles while the game waits
    for that decision; `prompts` says, for the decision kinds this module creates, what the
    player must do ("pay for the tunnel or give it up"), so the core can refuse a wrong action in plain words.
    """

    name: ClassVar[str] = "module"
    events: ClassVar[tuple[str, ...]] = ()
    actions: ClassVar[dict[str, tuple[type[Action], ...]]] = {}
    prompts: ClassVar[dict[str, str]] = {}
    score_lines: ClassVar[dict[str, str]] = {}

    def setup(self, game: Game) -> None:
        """Prepare the game (deal, shuffle, place pieces)."""

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        """The actions of this module that `seat` may take in the current decision."""
        return ()

    def apply(self, game: Game, action: Action) -> None:
        """Carry out one of this module's actions (raise IllegalAction if it is not legal)."""
        raise NotImplementedError

    def on_turn_start(self, game: Game) -> None:
        """A turn has just begun."""

    def before_turn_end(self, game: Game) -> bool:
        """The turn is about to end: return True after opening one more decision of this
        turn (the module calls `game.end_turn()` again once it is resolved)."""
        return False

    def on_turn_end(self, game: Game) -> None:
        """The current player's turn is ending."""

    def on_route_claimed(self, game: Game, seat: int, route_id: str) -> None:
        """`seat` has just claimed a route."""

    def score(self, game: Game, sheets: list[dict[str, Any]]) -> None:
        """Add this module's lines to the final score sheets (one dict per seat), through
        engine.scoring.add_points / add_bonus."""

    def score_line_names(self) -> dict[str, str]:
        """The lines this module may add to a score sheet: line id -> its name as the rulebook
        prints it. A bonus's id is its name."""
        label = getattr(self, "label", None)
        if isinstance(label, str) and type(self).score is not RuleModule.score:
            return {**self.score_lines, label: label}
        return dict(self.score_lines)

    def view_part(self, state: GameState, seat: int | None, game_map: GameMap) -> object | None:
        """This module's own data as `seat` may see it (None: anyone), as a small frozen
        dataclass defined beside the rule; None when the module keeps no data of its own."""
        return None
