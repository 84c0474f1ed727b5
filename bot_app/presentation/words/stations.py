"""Words for stations (engine/rules/stations.py): building one, what it lends, what an unused
one scores."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, presents, public
from bot_app.presentation.words.dice_faces import faces_paid
from engine.actions import Action, BuildStation
from engine.rules.stations import ANY_COLOUR, StationBuilt, Stations


def station_built(e: Event, c: Ctx, who: str) -> str | None:
    built = e.of(StationBuilt)
    if built is None:
        return None
    if built.payment:
        return c.say("stations.built_with", who, city=c.city(built.city), paid=c_payment(c, built.payment))
    return c.say("stations.built", who, city=c.city(built.city))


def c_payment(c: Ctx, payment: object) -> str:
    """Cards, or dice faces under the Dice Expansion."""
    if c.dice:
        return faces_paid(payment, words=c.lang)
    return c.cards(payment)  # type: ignore[arg-type]


def station_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, BuildStation)
    return c.t("stations.label", city=c.city(a.city), paid=c_payment(c, a.payment))


def ordinal(c: Ctx, n: int) -> str:
    """"1st", "2nd", … in the reader's language ("1.", "1re", "1-й", "1:a")."""
    key = f"rules.ordinal.{n}"
    return c.t(key) if c.lang.has(key) else c.t("rules.ordinal.n", n=n)


def costs_text(c: Ctx, costs: tuple[int, ...], key: str = "rules.stations.cost") -> str:
    """"the 1st 1 card, the 2nd 2 cards and the 3rd 3 cards" (`key`: the words of one cost)."""
    return c.joined(c.n(key, n, nth=ordinal(c, i + 1)) for i, n in enumerate(costs))


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
        return [c.t("rules.option.station")]

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        r = self.r
        n = c.rules.stations
        if c.dice:
            pay = c.t("rules.stations.pay_dice", costs=costs_text(c, r.costs, "rules.stations.cost_dice"))
        else:
            colour = c.t("rules.stations.one_colour" if r.colour_rule == ANY_COLOUR else "rules.stations.route_colour")
            pay = c.t("rules.stations.pay_cards", costs=costs_text(c, r.costs), colour=colour)
        # With dice a station is the turn's one action, and two other dice may still buy a token (D14).
        turn = c.t("rules.stations.turn_dice" if c.dice else "rules.stations.turn_cards")
        return {"stations": [
            c.n("rules.stations.each", n, turn=turn, pay=pay), c.t("rules.stations.lend"),
            c.t("rules.stations.unused", points=r.unused_points)]}

    def overview(self, c: Ctx) -> list[str]:
        return [c.n("rules.overview.stations", c.rules.stations)]
