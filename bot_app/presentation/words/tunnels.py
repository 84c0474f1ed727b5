"""Words for a tunnel's decision (engine/rules/tunnels.py): pay the extra cards, or give up."""

from __future__ import annotations

from bot_app.presentation.words.base import (
    Ctx,
    Doing,
    Event,
    Words,
    presents,
    private,
    public,
    words_class,
)
from bot_app.presentation.words.payment import PaymentWords
from bot_app.presentation.words.routes import route_claimed
from engine.actions import Action, PayTunnel
from engine.rules.tunnels import CardsReturned, TunnelAbandoned, Tunnels


def tunnel_abandoned(e: Event, c: Ctx, who: str) -> str | None:
    gave_up = e.of(TunnelAbandoned)
    if gave_up is None:
        return None
    return c.say("tunnels.gave_up", who, route=c.route(gave_up.route))


def cards_returned(e: Event, c: Ctx, who: str) -> str | None:
    back = e.of(CardsReturned)
    if back is None:
        return None
    return c.t("tunnels.returned", cards=c.cards(back.cards))


def abandoned_returned(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    gave_up, back = first.of(TunnelAbandoned), second.of(CardsReturned)
    if gave_up is None or back is None:
        return None
    return c.say("tunnels.gave_up_returned", who, route=c.route(gave_up.route), cards=c.cards(back.cards))


def pay_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, PayTunnel)
    return c.t("tunnels.pay_label", cards=c.cards(a.payment))


def tunnel_count(c: Ctx) -> int:
    return sum(1 for r in c.gmap.routes.values() if r.tunnel)


@presents(Tunnels)
class TunnelWords(Words):
    events = {"route_claimed": public(route_claimed), "tunnel_abandoned": public(tunnel_abandoned),
              "cards_returned": private(cards_returned)}
    folds = {("tunnel_abandoned", "cards_returned"): abandoned_returned}
    actions = {
        "pay_tunnel": Doing(pay_label, "Pay", "⛰️", "success", key="button.pay"),
        "give_up_tunnel": Doing(lambda a, c: c.t("tunnels.give_up_label"), "Give up", "↩️",
                                "danger", each=True, short=lambda a, c: c.t("button.give_up")),
    }
    waiting = {"tunnel": lambda c, who: c.t("waiting.tunnel", who=who)}

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        if not tunnel_count(c):
            return {}
        payment = words_class(type(c.rules.payment))(c.rules.payment)
        text: list[str] = payment.tunnel_text(c) if isinstance(payment, PaymentWords) else []
        return {"tunnels": [c.n("rules.tunnels.count", tunnel_count(c)), *text]}

    def overview(self, c: Ctx) -> list[str]:
        return [c.n("rules.overview.tunnels", tunnel_count(c))] if tunnel_count(c) else []
