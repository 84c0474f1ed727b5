"""The Nordic Countries rule set (seed: nordic-countries.txt; AMBIGUITIES N1-N11).

2-3 players, 40 trains, no stations (N8, N11). Face-up locomotives are ordinary cards and the
display is never flushed (N7). Locomotives pay only for tunnels and ferries, with 3-card sets
on ferry locomotive spaces and 4-card sets on Murmansk-Lieksa (`NordicPayment`, N1-N6).
Double routes, parallel routes of different length or type included, take a second player from
3 players on. Five tickets dealt, keep at least 2; returned tickets leave the game, at setup
and in play. Globetrotter 10, no longest-path bonus (N9); ties: most completed tickets, then
the longest continuous path (N10), then shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.rules.bonuses import MostTicketsBonus
from engine.rules.claim_route import ClaimRoutes
from engine.rules.end_of_game import TrainsEndTrigger
from engine.rules.nordic_payment import NordicPayment
from engine.rules.tickets import BOX, DestinationTickets
from engine.rules.tie_breaks import LongestPath, MostCompletedTickets
from engine.rules.train_cards import TrainCardDraw
from engine.rules.tunnels import Tunnels
from engine.ruleset import RuleSet
from engine.variant import Variant


def build(players: int, options: Mapping[str, Any]) -> RuleSet:
    return VARIANT.rules(
        trains=40,
        stations=0,
        doubles_from_players=3,
        modules=(
            TrainCardDraw(faceup_loco_whole_draw=False, faceup_loco_second=True, flush_locos=None),
            ClaimRoutes(),
            Tunnels(),
            DestinationTickets(
                setup_deal=(("main", 5),),
                setup_keep=2,
                setup_returns=BOX,
                draw=(("main", 3),),
                draw_keep=1,
                draw_returns=BOX,
            ),
            TrainsEndTrigger(threshold=2),
            MostTicketsBonus(points=10, label="Globetrotter"),
        ),
        payment=NordicPayment(),
        tie_breaks=(MostCompletedTickets(), LongestPath()),
    )


VARIANT = Variant(
    id="nordic",
    title="Nordic Countries",
    map_id="nordic",
    min_players=2,
    max_players=3,
    build=build,
    order=3,
)
