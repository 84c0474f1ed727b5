"""The end trigger: a player with few trains left starts the final round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.rules.module import RuleModule

if TYPE_CHECKING:
    from engine.core import Game


@dataclass(frozen=True)
class TrainsEndTrigger(RuleModule):
    """When a player ends a turn with `threshold` trains or fewer, every player (that one
    included) takes one more turn; then the game ends."""

    name: ClassVar[str] = "end_trigger"
    threshold: int = 2

    def on_turn_end(self, game: Game) -> None:
        seat = game.state.current
        trains = game.player(seat).trains
        if game.state.status == "playing" and trains <= self.threshold:
            game.trigger_final_round(seat, f"{game.name(seat)} has {trains} trains left")
