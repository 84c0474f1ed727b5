"""Words for Alsace's calling time (engine/rules/call_time.py): the question after a turn
with few wagons, and passing a final turn."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, presents, public
from engine.actions import Action
from engine.rules.call_time import CallTime, CallTimeEnd


def not_called(e: Event, c: Ctx, who: str) -> str:
    return c.say("call.not_called", who)


def passed(e: Event, c: Ctx, who: str) -> str:
    return c.say("call.passed", who)


def call_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, CallTime)
    if a.call:
        return c.t("call.label.call")
    return c.t("call.label.play_on")


def call_short(a: Action, c: Ctx) -> str:
    assert isinstance(a, CallTime)
    return c.t("button.call_time" if a.call else "button.play_on")


def waiting(c: Ctx, who: str) -> str:
    return c.t("waiting.call_time", who=who)


@presents(CallTimeEnd)
class CallTimeWords(Words):
    events = {"time_not_called": public(not_called), "passed": public(passed)}
    actions = {
        "call_time": Doing(call_label, "Call time", "⏰", "primary", each=True, short=call_short),
        "pass": Doing(lambda a, c: c.t("call.label.pass"), "Pass", "⏭️", each=True,
                      short=lambda a, c: c.t("button.pass")),
    }
    waiting = {"call_time": waiting}

    @property
    def r(self) -> CallTimeEnd:
        assert isinstance(self.module, CallTimeEnd)
        return self.module

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        n = self.r.may_at
        return {"end": [c.n("rules.call_time", n)]}
