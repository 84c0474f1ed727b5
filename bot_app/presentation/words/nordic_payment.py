"""Words for Nordic Countries payment (engine/rules/nordic_payment.py): locomotives only on
ferries and tunnels, 3-card sets for a ferry's locomotive, 4-card sets on the long route."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, presents
from bot_app.presentation.words.payment import PaymentWords, ferries
from engine.rules.nordic_payment import NordicPayment


@presents(NordicPayment)
class NordicPaymentWords(PaymentWords):
    def topics(self, c: Ctx) -> dict[str, list[str]]:
        if c.dice:
            return {}
        r = self.module
        assert isinstance(r, NordicPayment)
        joker = [route for route in c.gmap.routes.values() if r.joker_tag in route.tags]
        claiming = [c.t("rules.nordic.claiming")]
        for route in joker:
            claiming.append(c.t("rules.nordic.joker_route", route=f"{c.gmap.city_label(route.a)} – "
                                f"{c.gmap.city_label(route.b)}", spaces=route.length,
                                points=c.gmap.points_for(route.length), n=r.route_joker))
        out = {"claiming": claiming}
        if ferries(c):
            out["ferries"] = [c.n("rules.nordic.ferries", ferries(c), cards=r.ferry_joker)]
        return out

    def tunnel_text(self, c: Ctx) -> list[str]:
        return [c.t("rules.nordic.tunnels")]
