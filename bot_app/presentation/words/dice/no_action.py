"""Words for taking no action under dice (engine/rules/dice/no_action.py)."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, presents, public
from bot_app.presentation.words.core import deadlock_line
from engine.rules.dice.no_action import DiceNoAction


def passed(e: Event, c: Ctx, who: str) -> str:
    return c.say("dice.no_action", who)


@presents(DiceNoAction)
class NoActionWords(Words):
    events = {"passed": public(passed), "deadlock": public(deadlock_line)}
    actions = {"pass": Doing(lambda a, c: c.t("dice.label.no_action"), "No action", "⏭️", each=True,
                             short=lambda a, c: c.t("button.no_action"), key="button.no_action")}

    def turn_options(self, c: Ctx) -> list[str]:
        return [c.t("dice.option.no_action")]
