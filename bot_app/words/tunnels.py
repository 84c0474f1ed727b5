"""Words for a tunnel's decision (engine/rules/tunnels.py): pay the extra cards, or give up."""

from __future__ import annotations

from bot_app.words.base import (
    Ctx,
    Doing,
    Event,
    Words,
    cards_text,
    data,
    plural,
    presents,
    private,
    public,
    their,
    words_class,
)
from bot_app.words.payment import PaymentWords
from bot_app.words.routes import route_claimed
from engine.actions import Action, PayTunnel
from engine.rules.tunnels import Tunnels


def tunnel_abandoned(e: Event, c: Ctx, who: str) -> str:
    return f"{who} gave up the tunnel {c.route(data(e, 'route'))}; {their(who)} cards went back to {their(who)} hand"


def cards_returned(e: Event, c: Ctx, who: str) -> str:
    return f"{cards_text(data(e, 'cards') or {})} went back to your hand"


def abandoned_returned(first: Event, second: Event, c: Ctx, who: str) -> str:
    return (f"{who} gave up the tunnel {c.route(data(first, 'route'))}; {cards_text(data(second, 'cards') or {})} "
            "went back to your hand")


def pay_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, PayTunnel)
    return f"pay {cards_text(a.payment)} more and take the tunnel"


def tunnel_count(c: Ctx) -> int:
    return sum(1 for r in c.gmap.routes.values() if r.tunnel)


@presents(Tunnels)
class TunnelWords(Words):
    events = {"route_claimed": public(route_claimed), "tunnel_abandoned": public(tunnel_abandoned),
              "cards_returned": private(cards_returned)}
    folds = {("tunnel_abandoned", "cards_returned"): abandoned_returned}
    actions = {
        "pay_tunnel": Doing(pay_label, "Pay", "⛰️", "success"),
        "give_up_tunnel": Doing(lambda a, c: "give up the tunnel (your cards come back)", "Give up", "↩️",
                                "danger", each=True, short=lambda a, c: "Give up"),
    }
    waiting = {"tunnel": "⛰️ {who}: pay for the tunnel, or give it up."}

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        if not tunnel_count(c):
            return {}
        payment = words_class(type(c.rules.payment))(c.rules.payment)
        text: list[str] = payment.tunnel_text() if isinstance(payment, PaymentWords) else []
        return {"tunnels": [f"This board has {plural(tunnel_count(c), 'tunnel')}.",
                            *text]}

    def overview(self, c: Ctx) -> list[str]:
        return [plural(tunnel_count(c), "tunnel")] if tunnel_count(c) else []
