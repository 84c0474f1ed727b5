"""`with_dice(rules, options)`: a board's rule set turned into its Dice Expansion version.

Modules that need train cards (`needs_train_cards = True`: the card draw, card claims, card
tunnels, the USSR Controller, Alsace "burn 5") are dropped, the payment rule becomes the plain
one (so no Nordic jokers), ticket draws may keep 0 (D7), routes take their dice lengths (D13),
and the dice modules come first. Everything else of the board stays (stations, passengers,
bonuses, tourist cards, D15).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from engine.errors import IllegalAction
from engine.maps import load_map
from engine.options import LONG_ROUTE, TUNNELS, TableOption
from engine.rules.dice.claims import DiceClaims
from engine.rules.dice.discard import DiceTokenDiscard
from engine.rules.dice.faces import dice_length
from engine.rules.dice.no_action import DiceNoAction
from engine.rules.dice.roll import DiceRoll
from engine.rules.dice.stations import DiceStations
from engine.rules.dice.tickets import DiceTickets
from engine.rules.dice.tokens import DiceTokens
from engine.rules.dice.tunnels import DiceTunnels
from engine.rules.module import RuleModule
from engine.rules.payment import PaymentRule
from engine.rules.tickets import DestinationTickets

if TYPE_CHECKING:
    from engine.ruleset import RuleSet

# Table options of the Dice Expansion: D10 (UNVERIFIED: tunnel faces out of 6), D5, D13.
DICE_TABLE_OPTIONS: tuple[TableOption, ...] = (
    TableOption(
        "dice_token_exchanges_per_turn", 1, ((1, "1 token per turn"), (2, "up to 2 tokens per turn")),
        name="dice_tokens", title="tokens", describe="tokens a player may buy per turn, 2 dice each"),
    TableOption(
        "tunnel_die_faces", 2, tuple((n, f"{n} tunnel face{'' if n == 1 else 's'} of 6") for n in range(7)),
        name="tunnel_dice", title="tunnel dice", needs=TUNNELS,
        describe="how many of a tunnel die's 6 faces show a tunnel (the count is not printed; 2 by default)"),
    TableOption(
        "dice_nordic_9_route", "as_8", (("as_8", "counts as an 8-space route"), ("disabled", "cannot be claimed")),
        name="nine_route", title="the 9-space route", needs=LONG_ROUTE,
        describe="a 9-space route, too long for 8 dice and tokens"),
)
# The same options with their defaults.
DICE_OPTIONS: dict[str, Any] = {option.key: option.default for option in DICE_TABLE_OPTIONS}


def with_dice(rules: RuleSet, options: Mapping[str, Any]) -> RuleSet:
    """The dice version of a board's rule set (see the module docstring)."""
    faces = options.get("tunnel_die_faces", DICE_OPTIONS["tunnel_die_faces"])
    exchanges = options.get("dice_token_exchanges_per_turn", DICE_OPTIONS["dice_token_exchanges_per_turn"])
    nine = options.get("dice_nordic_9_route", DICE_OPTIONS["dice_nordic_9_route"])
    if not isinstance(faces, int) or isinstance(faces, bool) or not 0 <= faces <= 6:
        raise IllegalAction("tunnel_die_faces must be a whole number from 0 to 6.", "bad_option")
    if exchanges not in (1, 2):
        raise IllegalAction("dice_token_exchanges_per_turn must be 1 or 2.", "bad_option")
    if nine not in ("as_8", "disabled"):
        raise IllegalAction("dice_nordic_9_route must be as_8 or disabled.", "bad_option")
    # First, so that the dice are rolled before any other turn-start rule opens a decision
    # that resumes the turn afterwards (Alsace calling time). Within the turn's decisions the
    # legal actions are listed in this order: re-rolls, claims, ticket draws, stations, token
    # purchases, token discards, pass.
    modules: list[RuleModule] = [
        DiceRoll(),
        DiceClaims(),
        DiceTunnels(tunnel_die_faces=faces),
        DiceTickets(),
        DiceStations(),
        DiceTokens(exchanges=exchanges),
        DiceTokenDiscard(),
        DiceNoAction(),
    ]
    for module in rules.modules:
        if getattr(module, "needs_train_cards", False):
            continue
        if isinstance(module, DestinationTickets):
            module = dataclasses.replace(module, draw_keep=0)  # D7
        modules.append(module)
    # D13: the routes whose dice length differs from the map's (Nordic's 9-route as 8); a
    # route longer than 8 that keeps its length cannot be paid (`faces.claim_length`).
    table = {"dice_nordic_9_route": nine}
    lengths = {}
    for route in load_map(rules.map_id).routes.values():
        n = dice_length(route, table)
        if n is not None and n != route.length:
            lengths[route.id] = n
    return dataclasses.replace(
        rules,
        modules=tuple(modules),
        payment=PaymentRule(),
        options={**rules.options, "dice": True},
        route_lengths={**rules.route_lengths, **lengths},
    )
