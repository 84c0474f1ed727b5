"""Words for Nordic Countries payment (engine/rules/nordic_payment.py): locomotives only on
ferries and tunnels, 3-card sets for a ferry's locomotive, 4-card sets on the long route."""

from __future__ import annotations

from bot_app.words.base import Ctx, plural, presents
from bot_app.words.payment import PaymentWords, ferries
from engine.rules.nordic_payment import NordicPayment


@presents(NordicPayment)
class NordicPaymentWords(PaymentWords):
    def topics(self, c: Ctx) -> dict[str, list[str]]:
        if c.dice:
            return {}
        r = self.module
        assert isinstance(r, NordicPayment)
        joker = [route for route in c.gmap.routes.values() if r.joker_tag in route.tags]
        claiming = ["A route of N spaces takes N cards of its colour; a grey route N cards of any one colour. "
                    "Locomotives pay only for ferries and tunnels."]
        for route in joker:
            claiming.append(
                f"{c.gmap.city_label(route.a)} – {c.gmap.city_label(route.b)} ({route.length} spaces, "
                f"{c.gmap.points_for(route.length)} points): any {r.route_joker} cards (locomotives included) may "
                "stand in for each card of the colour you choose.")
        out = {"claiming": claiming}
        if ferries(c):
            out["ferries"] = [f"This board has {plural(ferries(c), 'ferry', 'ferries')}. Each locomotive mark "
                              f"takes a locomotive or any {r.ferry_joker} cards; each other space a card of the "
                              "ferry's colour (grey: one colour you choose) or a locomotive."]
        return out

    def tunnel_text(self) -> list[str]:
        return ["After you lay the cards for a tunnel (cards of one colour, locomotives standing in for any of them), "
                "the top 3 cards of the deck are turned over; each card of your colour, and each locomotive, costs "
                "one more card of that colour or a locomotive (no 3- or 4-card sets here). A tunnel paid only with "
                "locomotives asks only for the revealed locomotives, in locomotives. Pay, or give up: your cards "
                "come back and the turn ends."]
