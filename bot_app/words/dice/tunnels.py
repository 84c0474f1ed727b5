"""Words for a tunnel under dice (engine/rules/dice/tunnels.py): pay the extra, or give up."""

from __future__ import annotations

from bot_app.words.base import Ctx, Doing, Event, Words, data, plural, presents, public
from bot_app.words.dice.claims import dice_claimed, kind_of, paid_text, tunnel_abandoned
from bot_app.words.dice.faces import faces_paid
from bot_app.words.routes import points
from bot_app.words.tunnels import tunnel_count
from engine.actions import Action, PayTunnel
from engine.rules.dice.tunnels import DiceTunnels


def pay_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, PayTunnel)
    route = c.view.pending.data.get("route") if c.view is not None else None
    return f"pay {faces_paid(a.payment, kind_of(c, route))} more and take the tunnel"


def extra_paid(e: Event, c: Ctx, who: str) -> str:
    return f"{who} paid the extra for the tunnel {c.route(data(e, 'route'))} with {paid_text(c, e)}"


def extra_paid_then_claimed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    if data(first, "route") != data(second, "route"):
        return None
    return (f"{who} paid the extra with {paid_text(c, first)} and claimed the tunnel "
            f"{c.route(data(second, 'route'))} ({points(second)})")


@presents(DiceTunnels)
class DiceTunnelWords(Words):
    events = {"tunnel_extra_paid": public(extra_paid), "route_claimed": public(dice_claimed),
              "tunnel_abandoned": public(tunnel_abandoned)}
    folds = {("tunnel_extra_paid", "route_claimed"): extra_paid_then_claimed}
    actions = {
        "pay_tunnel": Doing(pay_label, "Pay", "⛰️", "success"),
        "give_up_tunnel": Doing(lambda a, c: "give up the tunnel (your tokens come back)", "Give up", "↩️",
                                "danger", each=True, short=lambda a, c: "Give up"),
    }
    waiting = {"dice_tunnel": "⛰️ {who}: pay the tunnel's extra dice, or give it up."}

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        module = self.module
        assert isinstance(module, DiceTunnels)
        if not tunnel_count(c):
            return {}
        return {"tunnels": [
            f"This board has {plural(tunnel_count(c), 'tunnel')}. After you lay the dice for one, 3 tunnel dice are "
            f"rolled ({module.tunnel_die_faces} of their 6 faces show ⛰️); each ⛰️ costs one more die of the route's "
            "type, a wild die or a token. No re-roll after the tunnel dice. If you cannot or will not pay, nothing is "
            "claimed, the tokens you laid come back, and your turn ends without a token."]}

    def overview(self, c: Ctx) -> list[str]:
        return [plural(tunnel_count(c), "tunnel")] if tunnel_count(c) else []
