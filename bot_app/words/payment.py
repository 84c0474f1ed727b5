"""Words for paying with train cards (engine/rules/payment.py): what a route, a ferry and a
tunnel's extra take. Silent under the Dice Expansion, whose claims say how dice pay."""

from __future__ import annotations

from bot_app.words.base import Ctx, Words, plural, presents
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
        out = {"claiming": [
            "A route of N spaces takes N cards of its colour; a grey route takes N cards of any one colour. "
            "Locomotives are wild. Claim one route per turn; /ttr claim lists only the routes and payments "
            "you can afford."]}
        if ferries(c):
            out["ferries"] = [f"This board has {plural(ferries(c), 'ferry', 'ferries')} (grey routes with "
                              "locomotive marks): each locomotive mark must be paid with a locomotive, the other "
                              "spaces with cards of one colour."]
        return out

    def tunnel_text(self) -> list[str]:
        """What a tunnel's revealed cards cost under these payment rules."""
        r = self.r
        out = [f"After you lay the cards for a tunnel, the top {r.tunnel_reveal} cards of the deck are turned over; "
               "each card of your colour, and each locomotive, costs one more card of that colour or a locomotive "
               "(a tunnel paid only with locomotives asks only for the revealed locomotives, in locomotives). Pay, "
               "or give up: your cards come back and the turn ends."]
        if r.tunnel_loco_only:
            out.append("A Controller card turned over costs one more locomotive (only a locomotive will do).")
        if r.tunnel_match_as_loco:
            out.append("A Controller card turned over counts like a revealed locomotive: one more card of your "
                       "colour, or a locomotive.")
        return out
