"""Words for a tunnel under dice (engine/rules/dice/tunnels.py): pay the extra, or give up."""

from __future__ import annotations

from bot_app.words.base import Ctx, Doing, Event, Words, data, plural, presents, public
from bot_app.words.dice.claims import dice_claimed, kind_of, paid_text, tunnel_abandoned
from bot_app.words.dice.faces import faces_paid
from bot_app.words.routes import points
from bot_app.words.tunnels import tunnel_count
from engine.actions import Action, PayTunnel
from engine.rules.dice.faces import N_TUNNEL_DICE, tunnel_faces
from engine.rules.dice.tunnels import DiceTunnels

TUNNEL_DIE_SIDES = len(tunnel_faces(0))


def pay_label(a: Action, c: Ctx) -> str:
    assert isinstance(a, PayTunnel)
    route = c.view.pending.data.get("route") if c.view is not None else None
    return c.t("dice.label.pay", paid=faces_paid(a.payment, kind_of(c, route), c.lang))


def extra_paid(e: Event, c: Ctx, who: str) -> str:
    return c.say("dice.tunnel_extra_paid", who, route=c.route(data(e, "route")), paid=paid_text(c, e))


def extra_paid_then_claimed(first: Event, second: Event, c: Ctx, who: str) -> str | None:
    if data(first, "route") != data(second, "route"):
        return None
    return c.say("dice.tunnel_extra_paid_claimed", who, paid=paid_text(c, first), route=c.route(data(second, "route")),
                 points=points(second))


def tunnel_faces_text(faces: int) -> str:
    """How many of a tunnel die's faces show a tunnel at this table (option tunnel_die_faces,
    D10): "(2 of their 6 faces show ⛰️)"."""
    if faces <= 0:
        return "(but none of their 6 faces shows ⛰️ at this table: a tunnel costs only its spaces)"
    if faces >= TUNNEL_DIE_SIDES:
        return f"(all {TUNNEL_DIE_SIDES} faces show ⛰️ at this table: every tunnel costs {N_TUNNEL_DICE} more)"
    return f"({faces} of their {TUNNEL_DIE_SIDES} faces {'shows' if faces == 1 else 'show'} ⛰️)"


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
        return {"tunnels": [
            f"This board has {plural(tunnel_count(c), 'tunnel')}. After you lay the dice for one, {N_TUNNEL_DICE} "
            f"tunnel dice are rolled {tunnel_faces_text(module.tunnel_die_faces)}; each ⛰️ costs one more die of the "
            "route's type, a wild die or a token. No re-roll after the tunnel dice. If you cannot or will not pay, "
            "nothing is claimed, the tokens you laid come back, and your turn ends: no token is bought after it (one "
            "bought before stays yours), but you may still discard tokens you hold."]}

    def overview(self, c: Ctx) -> list[str]:
        return [plural(tunnel_count(c), "tunnel")] if tunnel_count(c) else []
