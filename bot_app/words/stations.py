"""Words for stations (engine/rules/stations.py): building one, what it lends, what an unused
one scores."""

from __future__ import annotations

from bot_app.words.base import Ctx, Doing, Event, Words, data, joined, plural, presents, public
from engine.actions import Action, BuildStation
from engine.rules.stations import ANY_COLOUR, Stations


def station_built(e: Event, c: Ctx, who: str) -> str:
    payment = data(e, "payment") or {}
    if payment:
        return c.say("stations.built_with", who, city=c.city(data(e, "city")), paid=c_payment(c, payment))
    return c.say("stations.built", who, city=c.city(data(e, "city")))


def c_payment(c: Ctx, payment: object) -> str:
    """Cards, or dice faces under the Dice Expansion."""
    if c.dice:
        from bot_app.words.dice.faces import faces_paid

        return faces_paid(payment, words=c.lang)
    return c.cards(payment)  # type: ignore[arg-type]


def station_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, BuildStation)
    return c.t("stations.label", city=c.city(a.city), paid=c_payment(c, a.payment))


def costs_text(costs: tuple[int, ...], one: str = "card", many: str | None = None) -> str:
    """"the 1st 1 card, the 2nd 2 cards and the 3rd 3 cards"."""
    ordinals = ["1st", "2nd", "3rd", "4th", "5th"]
    return joined(f"the {ordinals[i] if i < 5 else f'{i + 1}th'} {plural(n, one, many)}" for i, n in enumerate(costs))


@presents(Stations)
class StationWords(Words):
    events = {"station_built": public(station_built)}
    actions = {"build_station": Doing(station_label, "Station", "🏠", key="button.station")}

    @property
    def r(self) -> Stations:
        assert isinstance(self.module, Stations)
        return self.module

    def status(self, c: Ctx, seat: int) -> list[str]:
        return [c.n("status.stations", c.v.players[seat].stations)]

    def hand(self, c: Ctx) -> list[str]:
        me = c.v.me
        if me is None:
            return []
        if not me.stations:
            return [c.t("hand.stations_built")]
        built = len(self.r.costs) - me.stations
        cost = self.r.costs[min(built, len(self.r.costs) - 1)]
        if c.dice:
            return [c.t("hand.stations", left=c.n("status.stations", me.stations), price=c.n("dice.die.station", cost))]
        return [c.t("hand.stations", left=c.n("status.stations", me.stations), price=c.n("status.cards", cost))]

    def turn_options(self, c: Ctx) -> list[str]:
        if c.dice:
            return []
        return ["**Build a station** in a city without one (see stations)."]

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        r = self.r
        n = c.rules.stations
        if c.dice:
            pay = f"{costs_text(r.costs, 'station die', 'station dice')} (a wild die may stand in)"
        else:
            colour = ("of one colour" if r.colour_rule == ANY_COLOUR
                      else "of the colour of a route into that city (any colour if a grey route enters it)")
            pay = f"{costs_text(r.costs)}, {colour}; locomotives may stand in"
        # With dice a station is the turn's one action, and two other dice may still buy a token (D14).
        turn = ("Building one is your action for the turn (two other dice may still buy a token)" if c.dice
                else "Building one is a whole turn")
        return {"stations": [
            f"Each player has {plural(n, 'station')}. {turn}: {pay}. One station per city.",
            "At the end, each station lends its owner ONE route of another player into or out of its city, for "
            "tickets only (never for the longest path); the best choice is made for you.",
            f"Each station you never build scores +{r.unused_points}."]}

    def overview(self, c: Ctx) -> list[str]:
        return [plural(c.rules.stations, "station") + " each"]
