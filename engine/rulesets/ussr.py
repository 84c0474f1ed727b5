"""The USSR rule set (seed: ussr-fan-expansion.txt; AMBIGUITIES U1-U14, X1-X5).

Europe's mechanics (tunnels, ferries, stations) on the project's reconstructed USSR board
(maps/ussr.json), with:

- 45 trains and 3 stations each; 110 train cards plus 2 Controller cards in the deck (U2).
  A face-up Controller flushes the display (U3); played as a whole turn it removes or builds
  a route of up to 4 trains (U6, U8: `Controller`); revealed in a tunnel check it must be
  matched by a locomotive (U7, option `ussr_controller_tunnel_payment`).
- Setup: 2 long and 2 short tickets each, keep at least 1 of each; the undealt long tickets
  and every returned ticket leave the game; later draws take 3 from the short deck, keep at
  least 1 (U13).
- Stations are paid in the colour of a route into the city, any colour where a grey route
  enters (U9); +4 for each station never built (U10).
- Double and triple routes are closed only in 2-player games (U4); nobody owns two tracks of
  one connection (U5).
- Bonuses: most routes 15 (U11), longest railway 10, most tunnels 7, most ferries 7; ties
  share, a count of 0 never wins (U12). No tie-break: tied totals are joint winners.
- Route points: the master table kept in the map (U1). First player: random by the game's
  seed unless the host picks one (U14, handled by the core).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import IllegalAction
from engine.options import TableOption
from engine.rules.bonuses import LongestPathBonus
from engine.rules.claim_route import ClaimRoutes
from engine.rules.controller import CONTROLLER, Controller
from engine.rules.count_bonuses import FERRIES, ROUTES, TUNNELS, MostCountBonus
from engine.rules.end_of_game import TrainsEndTrigger
from engine.rules.payment import PaymentRule
from engine.rules.stations import ROUTE_COLOUR, Stations
from engine.rules.tickets import BOX, DestinationTickets
from engine.rules.train_cards import STANDARD_DECK, TrainCardDraw
from engine.rules.tunnels import Tunnels
from engine.ruleset import RuleSet
from engine.variant import Variant

# U7: a Controller revealed in a tunnel check costs one more locomotive ("locomotive_only",
# the Controller-specific rule [U:41]), or counts like a revealed locomotive, payable in the
# tunnel's colour or a locomotive ("as_locomotive_reveal", [U:62] read alone).
TUNNEL_PAYMENT = "ussr_controller_tunnel_payment"
LOCOMOTIVE_ONLY = "locomotive_only"
AS_LOCOMOTIVE_REVEAL = "as_locomotive_reveal"

BONUS_ROUTES = "Viva to the Soviet Railroad"
BONUS_LONGEST = "The Longest Railway in the Soviet Union"
BONUS_TUNNELS = "Viva to the Soviet Tunnel Builders"
BONUS_FERRIES = "Viva to the Soviet Sailors"


def payment_rule(options: Mapping[str, Any]) -> PaymentRule:
    reading = options.get(TUNNEL_PAYMENT, LOCOMOTIVE_ONLY)
    if reading == LOCOMOTIVE_ONLY:
        return PaymentRule(tunnel_loco_only=(CONTROLLER,))
    if reading == AS_LOCOMOTIVE_REVEAL:
        return PaymentRule(tunnel_match_as_loco=(CONTROLLER,))
    raise IllegalAction(
        f"The option {TUNNEL_PAYMENT} is {LOCOMOTIVE_ONLY!r} or {AS_LOCOMOTIVE_REVEAL!r}, not {reading!r}.",
        "bad_option",
    )


def build(players: int, options: Mapping[str, Any]) -> RuleSet:
    return VARIANT.rules(
        trains=45,
        stations=3,
        doubles_from_players=3,
        modules=(
            TrainCardDraw(deck=STANDARD_DECK + ((CONTROLLER, 2),), flush_cards=(CONTROLLER,)),
            ClaimRoutes(),
            Tunnels(),
            Stations(costs=(1, 2, 3), colour_rule=ROUTE_COLOUR, unused_points=4),
            Controller(card=CONTROLLER, max_length=4),
            DestinationTickets(
                setup_deal=(("long", 2), ("short", 2)),
                setup_keep=2,
                setup_keep_each=("long", "short"),
                setup_returns=BOX,
                boxed_after_deal=("long",),
                draw=(("short", 3),),
                draw_keep=1,
                draw_returns=BOX,
            ),
            TrainsEndTrigger(threshold=2),
            MostCountBonus(counts=ROUTES, points=15, label=BONUS_ROUTES),
            LongestPathBonus(points=10, label=BONUS_LONGEST),
            MostCountBonus(counts=TUNNELS, points=7, label=BONUS_TUNNELS),
            MostCountBonus(counts=FERRIES, points=7, label=BONUS_FERRIES),
        ),
        payment=payment_rule(options),
        tie_breaks=(),
    )


VARIANT = Variant(
    id="ussr",
    title="USSR",
    map_id="ussr",
    min_players=2,
    max_players=5,
    build=build,
    order=5,
    options=(
        TableOption(TUNNEL_PAYMENT, LOCOMOTIVE_ONLY,
                    ((LOCOMOTIVE_ONLY, "one more locomotive"), (AS_LOCOMOTIVE_REVEAL, "like a revealed locomotive")),
                    name="controller_tunnel", title="a Controller in a tunnel check",
                    describe="what a Controller revealed in a tunnel check costs", cards=True),
    ),
)
