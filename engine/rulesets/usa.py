"""The base game (USA) rule set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.rules.bonuses import LongestPathBonus
from engine.rules.claim_route import ClaimRoutes
from engine.rules.end_of_game import TrainsEndTrigger
from engine.rules.payment import PaymentRule
from engine.rules.tickets import DestinationTickets
from engine.rules.tie_breaks import HoldsBonus, MostCompletedTickets
from engine.rules.train_cards import TrainCardDraw
from engine.rules.tunnels import Tunnels
from engine.ruleset import RuleSet
from engine.variant import Variant


def build(players: int, options: Mapping[str, Any]) -> RuleSet:
    return VARIANT.rules(
        trains=45,
        stations=0,
        doubles_from_players=4,
        modules=(
            TrainCardDraw(),
            ClaimRoutes(),
            Tunnels(),
            DestinationTickets(setup_deal=(("main", 3),), setup_keep=2, draw=(("main", 3),), draw_keep=1),
            TrainsEndTrigger(threshold=2),
            LongestPathBonus(points=10, label="Longest Path"),
        ),
        payment=PaymentRule(),
        tie_breaks=(MostCompletedTickets(), HoldsBonus("Longest Path holder", "Longest Path")),
    )


VARIANT = Variant(
    id="usa",
    title="USA",
    map_id="usa",
    min_players=2,
    max_players=5,
    build=build,
    order=1,
)
