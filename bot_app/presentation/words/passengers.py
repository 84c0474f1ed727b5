"""Words for Germany's passengers (engine/rules/passengers.py): placed at the start, taken
after claims, scored by majorities per colour."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, count_of, hidden, joined, presents, public
from bot_app.presentation.words.routes import route_claimed
from engine.actions import Action
from engine.rules.passengers import Passengers, PassengersPlaced, PassengersView, PassengerTaken, TakePassenger
from engine.rules.routes import RouteClaimed

MEEPLE = {"red": "🔴", "black": "⚫", "yellow": "🟡", "blue": "🔵", "green": "🟢", "white": "⚪"}


def meeples(held: Mapping[str, int], c: Ctx | None = None) -> str:
    """A collection: "🔴 2 red · ⚫ 1 black" ("none" when empty)."""
    if c is None:
        return " · ".join(f"{MEEPLE.get(k, '')} {n} {k}".strip() for k, n in sorted(held.items()) if n) or "none"
    return " · ".join(f"{MEEPLE.get(k, '')} {c.lang.number(n)} {_colour(c, k)}".strip()
                      for k, n in sorted(held.items()) if n) or c.t("passengers.none_held")


def _colour(c: Ctx, colour: object) -> str:
    key = f"route.colour.{colour}"
    return c.t(key) if c.lang.has(key) else str(colour or "")


def _passenger(c: Ctx, colour: object, city: object) -> str:
    """"a red passenger in Strasbourg"."""
    return c.t("passengers.a", colour=_colour(c, colour), city=c.city(city))


def meeple_marks(held: Mapping[str, int]) -> str:
    """A collection, short, for the status line: "⚫4 🔵2"."""
    return " ".join(f"{MEEPLE.get(k, k)}{n}" for k, n in sorted(held.items()) if n)


def placed(e: Event, c: Ctx, who: str) -> str | None:
    put = e.of(PassengersPlaced)
    if put is None:
        return None
    return c.n("passengers.placed", sum(sum(v.values()) for v in put.passengers.values()))


def taken(e: Event, c: Ctx, who: str) -> str | None:
    took = e.of(PassengerTaken)
    if took is None:
        return None
    return c.say("passengers.taken", who, passenger=_passenger(c, took.colour, took.city))


def claimed_and_taken(es: Sequence[Event], c: Ctx, who: str) -> str | None:
    """A claim and the passengers it brought, in one sentence."""
    first, *rest = es
    claim = first.of(RouteClaimed)
    taken_here = [t for t in (e.of(PassengerTaken) for e in rest) if t is not None]
    if claim is None or len(taken_here) != len(rest):
        return None
    if any(t.player != claim.player for t in taken_here) or c.lang.code != "en":
        return None  # one sentence in English; one line each elsewhere (the verbs differ per person)
    took = joined(f"a {t.colour} passenger in {c.city(t.city)}" for t in taken_here)
    return f"{route_claimed(first, c, who)} and took {took}"


def take_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, TakePassenger)
    return c.t("passengers.label", passenger=_passenger(c, a.colour, a.city))


@presents(Passengers)
class PassengerWords(Words):
    events = {"shuffle": hidden(), "passengers_placed": public(placed), "passenger_taken": public(taken)}
    folds = {("route_claimed", "passenger_taken"): lambda first, second, c, who: claimed_and_taken(
        (first, second), c, who)}
    chains = {("route_claimed", "passenger_taken", "passenger_taken"): claimed_and_taken}
    actions = {"take_passenger": Doing(take_label, "Passenger", "🧍", "primary", key="button.passenger")}
    waiting = {"choose_passenger": lambda c, who: c.t("waiting.choose_passenger", who=who)}

    @property
    def r(self) -> Passengers:
        assert isinstance(self.module, Passengers)
        return self.module

    def status(self, c: Ctx, seat: int) -> list[str]:
        part = c.v.part(PassengersView)
        held = part.held[seat] if part is not None and seat < len(part.held) else {}
        return [c.t("passengers.status", marks=meeple_marks(held)) if any(held.values()) else c.t("passengers.none")]

    def hand(self, c: Ctx) -> list[str]:
        part = c.v.part(PassengersView)
        if part is None or c.v.you is None:
            return []
        return ["🧍 " + c.t("passengers.yours", held=meeples(part.held[c.v.you], c))]

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        r = self.r
        colours = list(c.gmap.extras.get("passenger_colors", {}))
        names = ", ".join(c.t(f"route.colour.{k}") if c.lang.has(f"route.colour.{k}") else k for k in colours)
        return {"passengers": [
            c.n("rules.passengers.where", len(colours), colours=names),
            c.t("rules.passengers.scoring", most=r.most_points, second=r.second_points)]}

    def overview(self, c: Ctx) -> list[str]:
        return [c.t("rules.overview.passengers")]

    def sheet(self, c: Ctx, sheet: Mapping[str, Any]) -> list[str]:
        held = sheet.get("passengers") or {}
        won = sheet.get("passenger_points") or {}
        if not held:
            return []
        if c.lang.code == "en":
            scored = ", ".join(f"{k} +{count_of(v)}" for k, v in won.items() if count_of(v))
            return [f"🧍 {meeples(held)}" + (f" (scored {scored})" if scored else "")]
        scored = ", ".join(f"{_colour(c, k)} +{c.lang.number(count_of(v))}" for k, v in won.items() if count_of(v))
        return [f"🧍 {meeples(held, c)}" + (" " + c.t("passengers.scored", scored=scored) if scored else "")]
