"""Words for the USSR Controller (engine/rules/controller.py): remove a route or build one."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, count_of, data, presents, public
from bot_app.presentation.words.routes import route_claimed
from engine.actions import Action
from engine.rules.controller import REMOVE, Controller, PlayController


def played(e: Event, c: Ctx, who: str) -> str:
    key = "controller.played_remove" if data(e, "mode") == REMOVE else "controller.played_build"
    return c.say(key, who, route=c.route(data(e, "route")))


def removed(e: Event, c: Ctx, who: str) -> str:
    owner = c.name(data(e, "owner"))
    trains = c.n("status.trains", count_of(data(e, "trains")))
    points = c.n("final.points", count_of(data(e, "points")))
    return c.t("controller.removed", route=c.route(data(e, "route")), owner=owner, trains=trains, points=points)


def played_then_removed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    if data(first, "route") != data(second, "route"):
        return None
    return f"{played(first, c, who)}: {removed(second, c, who)}"


def played_then_built(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    if data(first, "route") != data(second, "route"):
        return None
    return c.say("controller.played_built", who, route=c.route(data(second, "route")))


def label(a: Action, c: Ctx) -> str:
    assert isinstance(a, PlayController)
    if a.mode == REMOVE:
        owner = c.view.route_owner.get(a.route) if c.view is not None else None
        if isinstance(owner, int):
            return c.t("controller.label.remove_owned", route=c.route(a.route), owner=c.name(owner))
        return c.t("controller.label.remove", route=c.route(a.route))
    return c.t("controller.label.build", route=c.route(a.route))


@presents(Controller)
class ControllerWords(Words):
    events = {"controller_played": public(played), "route_removed": public(removed),
              "route_claimed": public(route_claimed)}
    folds = {("controller_played", "route_removed"): played_then_removed,
             ("controller_played", "route_claimed"): played_then_built}
    actions = {"play_controller": Doing(label, "Controller", "🛂", key="button.controller")}

    @property
    def r(self) -> Controller:
        assert isinstance(self.module, Controller)
        return self.module

    def turn_options(self, c: Ctx) -> list[str]:
        return [c.t("controller.option", n=self.r.max_length)]

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        n = self.r.max_length
        return {"controller": [c.t("rules.controller.cards"), c.n("rules.controller.play", n)]}

    def overview(self, c: Ctx) -> list[str]:
        return [c.t("rules.overview.controller")]
