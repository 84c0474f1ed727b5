"""Words for claiming a route with train cards (engine/rules/claim_route.py), and the reveal a
tunnel starts with (engine/rules/tunnels.py `begin_tunnel`, which the claim calls)."""

from __future__ import annotations

from bot_app.words.base import Ctx, Doing, Event, Words, cards_text, count_of, data, joined, plural, presents, public
from bot_app.words.routes import points, route_claimed
from engine.actions import Action, ClaimRoute
from engine.cards import card_word
from engine.rules.claim_route import ClaimRoutes


def revealed(e: Event) -> str:
    shown = [card_word(x) for x in data(e, "cards") or [] if isinstance(x, str)]
    return joined(shown) or "nothing (the deck was empty)"


def owed(e: Event) -> str:
    extra = count_of(data(e, "extra"))
    locos = count_of(data(e, "locos_only"))
    if not extra:
        return "nothing more to pay"
    more = f"{plural(extra, 'more card')} to pay"
    return more + (f", {plural(locos, 'of them a locomotive', 'of them locomotives')}" if locos else "")


def tunnel_revealed(e: Event, c: Ctx, who: str) -> str:
    return f"{who} tried the tunnel {c.route(data(e, 'route'))}: the deck showed {revealed(e)} — {owed(e)}"


def tunnel_then_claimed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    if data(first, "route") != data(second, "route") or count_of(data(first, "extra")):
        return None
    return (f"{who} claimed the tunnel {c.route(data(second, 'route'))} with "
            f"{cards_text(data(second, 'payment') or {})} ({points(second)}); the deck showed {revealed(first)}, "
            "nothing more to pay")


def claim_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, ClaimRoute)
    return c.t("claim.label", route=c.route(a.route), cards=c.cards(a.payment))


@presents(ClaimRoutes)
class ClaimWords(Words):
    events = {"tunnel_revealed": public(tunnel_revealed), "route_claimed": public(route_claimed)}
    folds = {("tunnel_revealed", "route_claimed"): tunnel_then_claimed}
    actions = {"claim_route": Doing(claim_label, "Claim", "🚂", "success", key="button.claim")}

    def turn_options(self, c: Ctx) -> list[str]:
        return ["**Claim a route** with train cards (see claiming)."]
