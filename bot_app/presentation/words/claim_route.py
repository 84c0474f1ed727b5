"""Words for claiming a route with train cards (engine/rules/claim_route.py), and the reveal a
tunnel starts with (engine/rules/tunnels.py `begin_tunnel`, which the claim calls)."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, count_of, data, joined, presents, public
from bot_app.presentation.words.routes import points, route_claimed
from engine.actions import Action, ClaimRoute
from engine.cards import card_word
from engine.rules.claim_route import ClaimRoutes


def revealed(e: Event, c: Ctx | None = None) -> str:
    if c is not None and c.lang.code != "en":
        return c.joined(c.card(x) for x in data(e, "cards") or [] if isinstance(x, str)) or c.t("tunnels.nothing")
    shown = [card_word(x) for x in data(e, "cards") or [] if isinstance(x, str)]
    return joined(shown) or "nothing (the deck was empty)"


def owed(e: Event, c: Ctx) -> str:
    extra = count_of(data(e, "extra"))
    locos = count_of(data(e, "locos_only"))
    if not extra:
        return c.t("tunnels.nothing_more")
    more = c.n("tunnels.more", extra)
    return more + (", " + c.n("tunnels.of_them_locos", locos) if locos else "")


def tunnel_revealed(e: Event, c: Ctx, who: str) -> str:
    return c.say("tunnels.tried", who, route=c.route(data(e, "route")), shown=revealed(e, c), owed=owed(e, c))


def tunnel_then_claimed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    if data(first, "route") != data(second, "route") or count_of(data(first, "extra")):
        return None
    return c.say("tunnels.claimed", who, route=c.route(data(second, "route")),
                 cards=c.cards(data(second, "payment") or {}), points=points(second), shown=revealed(first, c))


def claim_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, ClaimRoute)
    return c.t("claim.label", route=c.route(a.route), cards=c.cards(a.payment))


@presents(ClaimRoutes)
class ClaimWords(Words):
    events = {"tunnel_revealed": public(tunnel_revealed), "route_claimed": public(route_claimed)}
    folds = {("tunnel_revealed", "route_claimed"): tunnel_then_claimed}
    actions = {"claim_route": Doing(claim_label, "Claim", "🚂", "success", key="button.claim")}

    def turn_options(self, c: Ctx) -> list[str]:
        return [c.t("rules.option.claim")]
