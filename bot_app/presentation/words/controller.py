"""Words for the USSR Controller (engine/rules/controller.py): remove a route or build one."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, presents, public
from bot_app.presentation.words.routes import route_claimed
from engine.actions import Action
from engine.rules.controller import REMOVE, Controller, ControllerPlayed, PlayController, RouteRemoved
from engine.rules.routes import RouteClaimed


def played(e: Event, c: Ctx, who: str) -> str | None:
    play = e.of(ControllerPlayed)
    if play is None:
        return None
    key = "controller.played_remove" if play.mode == REMOVE else "controller.played_build"
    return c.say(key, who, route=c.route(play.route))


def removed(e: Event, c: Ctx, who: str) -> str | None:
    gone = e.of(RouteRemoved)
    if gone is None:
        return None
    owner = c.name(gone.owner)
    trains = c.n("status.trains", gone.trains)
    points = c.n("final.points", gone.points)
    return c.t("controller.removed", route=c.route(gone.route), owner=owner, trains=trains, points=points)


def played_then_removed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    play, gone = first.of(ControllerPlayed), second.of(RouteRemoved)
    if play is None or gone is None or play.route != gone.route:
        return None
    return f"{played(first, c, who)}: {removed(second, c, who)}"


def played_then_built(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    play, claim = first.of(ControllerPlayed), second.of(RouteClaimed)
    if play is None or claim is None or play.route != claim.route:
        return None
    return c.say("controller.played_built", who, route=c.route(claim.route))


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
