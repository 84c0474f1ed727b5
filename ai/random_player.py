"""The random computer player: legal moves at random, for self-play and fuzzing."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from engine.actions import Action
from engine.rng import Rng, seed_state
from engine.view import View


class RandomAI:
    """Picks a kind of action at random, then one action of that kind at random: uniform
    over all actions would almost never draw cards, since claims come in many payments.

    A side step — an action that leaves the decision open, like discarding dice tokens — is
    one kind among the others on one decision in `SIDE_STEP_ODDS` only: at the rate of the
    other kinds it would be taken at almost every decision of a dice turn, throwing away
    most tokens and lengthening games by a tenth without exercising anything more."""

    level = "random"
    # It never looks at the game, so callers need not build a view for it.
    uses_view = False
    SIDE_STEPS = frozenset({"discard_tokens"})
    SIDE_STEP_ODDS = 4

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed_state(seed))

    def choose(self, view: View | None, legal: Sequence[Action]) -> Action:
        by_kind: dict[str, list[Action]] = defaultdict(list)
        for action in legal:
            by_kind[action.TYPE].append(action)
        kinds = sorted(by_kind)
        side = [k for k in kinds if k in self.SIDE_STEPS]
        if side and len(side) < len(kinds) and self.rng.below(self.SIDE_STEP_ODDS):
            kinds = [k for k in kinds if k not in self.SIDE_STEPS]
        options = by_kind[kinds[self.rng.below(len(kinds))]]
        return options[self.rng.below(len(options))]

