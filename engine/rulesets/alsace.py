"""The Alsace rule set (seed: alsace-fan-expansion.txt; AMBIGUITIES A1-A26, X1-X5).

The base game on the project's reconstructed Alsace board (maps/alsace.json) with:

- 45 wagons each; 110 train cards; 4 dealt; 5 face up with the base 3-locomotive flush; a
  face-up locomotive is a whole draw and never the second card; face-up + blind in either
  order (A10).
- Tickets and tourist cards (engine/rules/tourist_cards.py): 5 + 5 dealt, keep at least 3 of
  each (A6); the draw action takes 3 tickets plus 3 tourist cards, keep at least 1 of each kind
  drawn (A7); returns to the bottom. Lucky Devils are played at once (A4); Visitor Passes are
  wild attractions (A5); a town is visited when the player owns a route into it (A3, A17).
- "Burn 5" (A8); the used train cards go under the deck at the end of every turn (A9).
- Tunnels as in Europe (A15); the map has no ferries. Double routes: base rule, one track only
  in 2-3 player games, never both by one player (A14). Route points: master table (A16).
- Calling time at 2 wagons or fewer, compulsory at 0; one more turn each, the caller
  included; final turns may be passed (A11).
- The nine bonus cards (A18-A24). Tied totals share the win (A25: no tie-breaker).
- Option `alsace_stations` (default off): Europe's stations, 3 each, cost 1/2/3, +4 each
  unbuilt; ticket-only, never a visit (A12, A3).
- Players 2-5 (A13). First player: random by seed unless the host picks (core). A26 (the start
  seat moves clockwise in a rematch) belongs to the bot's rematch, not to the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.options import TableOption
from engine.rules.alsace_bonuses import (
    MOST_COUNTRIES,
    MOST_FRENCH_CITIES,
    MOST_REGIONS,
    MOST_TICKETS,
    MOST_TUNNELS,
    LeastIncompleteTicketsBonus,
    LongestTaggedPathBonus,
    MostVisitedBonus,
    TaggedRouteOwnerBonus,
)
from engine.rules.bonuses import LongestPathBonus, MostTicketsBonus
from engine.rules.burn_five import BurnFiveCards
from engine.rules.call_time import CallTimeEnd
from engine.rules.claim_route import ClaimRoutes
from engine.rules.count_bonuses import TUNNELS, MostCountBonus
from engine.rules.payment import PaymentRule
from engine.rules.stations import Stations
from engine.rules.tourist_cards import TouristCards
from engine.rules.train_cards import TrainCardDraw
from engine.rules.tunnels import Tunnels
from engine.rules.used_cards_under_deck import UsedCardsUnderDeck
from engine.ruleset import RuleSet
from engine.variant import Variant

STATIONS_OPTION = "alsace_stations"


def build(players: int, options: Mapping[str, Any]) -> RuleSet:
    stations = bool(options.get(STATIONS_OPTION, False))
    return VARIANT.rules(
        trains=45,
        stations=3 if stations else 0,
        doubles_from_players=4,
        modules=(
            TrainCardDraw(),
            ClaimRoutes(),
            Tunnels(),
            *((Stations(costs=(1, 2, 3), unused_points=4),) if stations else ()),
            BurnFiveCards(),
            TouristCards(),
            UsedCardsUnderDeck(),
            CallTimeEnd(),
            LongestPathBonus(points=15, label="Longest journey"),
            LongestTaggedPathBonus(tag="perimeter", points=20),
            MostCountBonus(counts=TUNNELS, points=20, label=MOST_TUNNELS),
            MostVisitedBonus(counts="foreign_countries", points=25, label=MOST_COUNTRIES),
            MostVisitedBonus(counts="french_cities", points=10, label=MOST_FRENCH_CITIES),
            MostTicketsBonus(points=10, label=MOST_TICKETS),
            LeastIncompleteTicketsBonus(points=15),
            MostVisitedBonus(counts="french_regions", points=20, label=MOST_REGIONS),
            TaggedRouteOwnerBonus(tag="north_south_tunnel", points=30),
        ),
        payment=PaymentRule(),
        tie_breaks=(),
    )


VARIANT = Variant(
    id="alsace",
    title="Alsace",
    map_id="alsace",
    min_players=2,
    max_players=5,
    build=build,
    order=6,
    options=(
        TableOption(STATIONS_OPTION, False, ((False, "no stations"), (True, "with stations, as in Europe")),
                    name="stations", title="stations",
                    describe="play with stations (Europe's rules: 3 each, +4 for each one unbuilt)"),
    ),
)
