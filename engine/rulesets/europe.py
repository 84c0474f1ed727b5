"""The Europe rule set."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.rules.bonuses import LongestPathBonus
from engine.rules.claim_route import ClaimRoutes
from engine.rules.end_of_game import TrainsEndTrigger
from engine.rules.payment import PaymentRule
from engine.rules.stations import Stations
from engine.rules.tickets import BOTTOM, BOX, DestinationTickets
from engine.rules.tie_breaks import FewestStationsUsed, HoldsBonus, MostCompletedTickets
from engine.rules.train_cards import TrainCardDraw
from engine.rules.tunnels import Tunnels
from engine.ruleset import RuleSet
from engine.variant import Variant


def build(players: int, options: Mapping[str, Any]) -> RuleSet:
    return VARIANT.rules(
        trains=45,
        stations=3,
        doubles_from_players=4,
        modules=(
            TrainCardDraw(),
            ClaimRoutes(),
            Tunnels(),
            Stations(costs=(1, 2, 3), unused_points=4),
            DestinationTickets(
                setup_deal=(("long", 1), ("short", 3)),
                setup_keep=2,
                setup_returns=BOX,
                boxed_after_deal=("long",),
                draw=(("short", 3),),
                draw_keep=1,
                draw_returns=BOTTOM,
            ),
            TrainsEndTrigger(threshold=2),
            LongestPathBonus(points=10, label="European Express"),
        ),
        payment=PaymentRule(),
        tie_breaks=(
            MostCompletedTickets(),
            FewestStationsUsed(),
            HoldsBonus("European Express holder", "European Express"),
        ),
    )


VARIANT = Variant(
    id="europe",
    title="Europe",
    map_id="europe",
    min_players=2,
    max_players=5,
    build=build,
    order=2,
)
