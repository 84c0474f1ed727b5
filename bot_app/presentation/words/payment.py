"""Words for paying with train cards (engine/rules/payment.py): what a route, a ferry and a
tunnel's extra take. Silent under the Dice Expansion, whose claims say how dice pay."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Words, presents
from engine.rules.payment import PaymentRule


def ferries(c: Ctx) -> int:
    return sum(1 for r in c.gmap.routes.values() if r.is_ferry)


def tunnels(c: Ctx) -> int:
    return sum(1 for r in c.gmap.routes.values() if r.tunnel)


@presents(PaymentRule)
class PaymentWords(Words):
    @property
    def r(self) -> PaymentRule:
        assert isinstance(self.module, PaymentRule)
        return self.module

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        if c.dice:
            return {}
        out = {"claiming": [c.t("rules.payment.claiming")]}
        if ferries(c):
            out["ferries"] = [c.n("rules.payment.ferries", ferries(c))]
        return out

    def tunnel_text(self, c: Ctx) -> list[str]:
        """What a tunnel's revealed cards cost under these payment rules."""
        r = self.r
        out = [c.n("rules.tunnels.reveal", r.tunnel_reveal)]
        if r.tunnel_loco_only:
            out.append(c.t("rules.tunnels.controller_loco"))
        if r.tunnel_match_as_loco:
            out.append(c.t("rules.tunnels.controller_match"))
        return out
