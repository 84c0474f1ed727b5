"""The Germany rule set (seed: germany.txt; AMBIGUITIES G1-G14).

2-5 players, 45 trains, no stations, no tunnels or ferries. The standard card draw (a face-up
locomotive taken first is the whole draw, never the second card; 3 face-up locomotives flush
the display, G2). Two ticket decks named by kind, `short` and `long` (G4): at setup every
player announces a mix of 4, draws it and keeps at least 2, and the returns are shuffled back
(G5, G6); in play a player announces a mix of 4, keeps at least 1, and the returns go under
their own deck. Passengers on the board, collected after claims and scored by majorities
(`Passengers`, G3, G7-G10). Country spaces are dead ends (G11, in the graph code). Double and
triple routes take a second player from 4 players on (G12). Globetrotter 15, no longest-path
bonus (G1, G13); ties: most completed tickets, then most passengers, then shared.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.rules.bonuses import MostTicketsBonus
from engine.rules.claim_route import ClaimRoutes
from engine.rules.end_of_game import TrainsEndTrigger
from engine.rules.passengers import MostPassengers, Passengers
from engine.rules.payment import PaymentRule
from engine.rules.tickets import BOTTOM, SHUFFLE, DestinationTickets
from engine.rules.tie_breaks import MostCompletedTickets
from engine.rules.train_cards import TrainCardDraw
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
            DestinationTickets(
                setup_announced=4,
                setup_keep=2,
                setup_returns=SHUFFLE,
                draw=(),
                announced_draw=4,
                draw_keep=1,
                draw_returns=BOTTOM,
            ),
            Passengers(most_points=20, second_points=10),
            TrainsEndTrigger(threshold=2),
            MostTicketsBonus(points=15, label="Globetrotter"),
        ),
        payment=PaymentRule(),
        tie_breaks=(MostCompletedTickets(), MostPassengers()),
    )


VARIANT = Variant(
    id="germany",
    title="Germany",
    map_id="germany",
    min_players=2,
    max_players=5,
    build=build,
    order=4,
)
