"""Words for a tunnel under dice (engine/rules/dice/tunnels.py): pay the extra, or give up."""

from __future__ import annotations

from bot_app.presentation.words.base import Ctx, Doing, Event, Words, presents, public
from bot_app.presentation.words.dice.claims import dice_claimed, kind_of, paid_text, tunnel_abandoned
from bot_app.presentation.words.dice_faces import faces_paid
from bot_app.presentation.words.routes import points
from bot_app.presentation.words.tunnels import tunnel_count
from engine.actions import Action, PayTunnel
from engine.rules.dice.faces import N_TUNNEL_DICE, tunnel_faces
from engine.rules.dice.tunnels import DiceTunnel, DiceTunnels, TunnelExtraPaid
from engine.rules.routes import RouteClaimed

TUNNEL_DIE_SIDES = len(tunnel_faces(0))


def pay_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, PayTunnel)
    decision = c.view.pending.decision if c.view is not None else None
    route = decision.route if isinstance(decision, DiceTunnel) else None
    return c.t("dice.label.pay", paid=faces_paid(a.payment, kind_of(c, route), c.lang))


def extra_paid(e: Event, c: Ctx, who: str) -> str | None:
    paid = e.of(TunnelExtraPaid)
    if paid is None:
        return None
    return c.say("dice.tunnel_extra_paid", who, route=c.route(paid.route), paid=paid_text(c, paid))


def extra_paid_then_claimed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    paid, claim = first.of(TunnelExtraPaid), second.of(RouteClaimed)
    if paid is None or claim is None or paid.route != claim.route:
        return None
    return c.say("dice.tunnel_extra_paid_claimed", who, paid=paid_text(c, paid), route=c.route(claim.route),
                 points=points(claim))


def tunnel_faces_text(c: Ctx, faces: int) -> str:
    """How many of a tunnel die's faces show a tunnel at this table (option tunnel_die_faces,
    D10): "(2 of their 6 faces show ⛰️)"."""
    if faces <= 0:
        return c.t("rules.dice.tunnel_faces.none", sides=TUNNEL_DIE_SIDES)
    if faces >= TUNNEL_DIE_SIDES:
        return c.t("rules.dice.tunnel_faces.all", sides=TUNNEL_DIE_SIDES, more=N_TUNNEL_DICE)
    return c.n("rules.dice.tunnel_faces", faces, sides=TUNNEL_DIE_SIDES)


@presents(DiceTunnels)
class DiceTunnelWords(Words):
    events = {"tunnel_extra_paid": public(extra_paid), "route_claimed": public(dice_claimed),
              "tunnel_abandoned": public(tunnel_abandoned)}
    folds = {("tunnel_extra_paid", "route_claimed"): extra_paid_then_claimed}
    actions = {
        "pay_tunnel": Doing(pay_label, "Pay", "⛰️", "success", key="button.pay"),
        "give_up_tunnel": Doing(lambda a, c: c.t("dice.label.give_up"), "Give up", "↩️",
                                "danger", each=True, short=lambda a, c: c.t("button.give_up"), key="button.give_up"),
    }
    waiting = {"dice_tunnel": lambda c, who: c.t("waiting.dice_tunnel", who=who)}

    def topics(self, c: Ctx) -> dict[str, list[str]]:
        module = self.module
        assert isinstance(module, DiceTunnels)
        if not tunnel_count(c):
            return {}
        return {"tunnels": [c.n("rules.tunnels.count", tunnel_count(c)) + " " + c.t(
            "rules.dice.tunnels", dice=N_TUNNEL_DICE, faces=tunnel_faces_text(c, module.tunnel_die_faces))]}

    def overview(self, c: Ctx) -> list[str]:
        return [c.n("rules.overview.tunnels", tunnel_count(c))] if tunnel_count(c) else []
