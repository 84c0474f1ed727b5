"""The Dice Expansion: a way of paying that any rule set can switch on (options {"dice": true}).

Seed: dice-expansion.txt; AMBIGUITIES D1-D15. One rule per module:

- `faces`: the dice and tokens as values, and what a route asks of them (D1, D9, D13)
- `purse`: where a player's dice and tokens live in the state; paying with them
- `roll`: the roll at the start of a turn and the one re-roll (`reroll_dice`)
- `claims`: claiming a route (and a ferry) with dice and tokens (`claim_route`)
- `tunnels`: the tunnel dice and the extra they ask for (`pay_tunnel`, `give_up_tunnel`)
- `tickets`: drawing destination tickets with station faces (`draw_tickets_dice`)
- `stations`: building a station with station faces (`build_station`)
- `tokens`: buying a token with two unused dice, before or after the action (`buy_token`)
- `discard`: putting tokens back in the supply during one's own turn (`discard_tokens`)
- `no_action`: passing instead of an action, and the end of a game nobody can move in
- `expansion`: `with_dice(rules, options)`, the board's rule set turned into its dice version

A dice turn (all public): turn start rolls 5 dice -> `dice_roll` (re-roll once, or buy a token
-> `dice_action`) -> at most one action, or `pass` (D12) -> a tunnel may wait in `dice_tunnel`
-> if a token can still be bought, `dice_token` (via the `before_turn_end` hook) -> the turn
ends. Tokens may be discarded in any of these decisions, and after a tunnel that failed or was
given up the turn ends in `dice_discard` when the player holds tokens.
"""

from engine.rules.dice.claims import DiceClaims
from engine.rules.dice.discard import DiceTokenDiscard, DiscardTokens
from engine.rules.dice.expansion import DICE_OPTIONS, DICE_TABLE_OPTIONS, with_dice
from engine.rules.dice.faces import (
    BLANK,
    DOUBLE,
    SINGLE,
    STATION,
    TOKEN,
    TRAIN_FACES,
    TUNNEL,
    WILD,
    dice_length,
    route_type,
)
from engine.rules.dice.no_action import DiceNoAction
from engine.rules.dice.purse import DiceView
from engine.rules.dice.roll import DiceRoll, RerollDice
from engine.rules.dice.stations import DiceStations
from engine.rules.dice.tickets import DiceTickets, DrawTicketsWithDice
from engine.rules.dice.tokens import BuyToken, DiceTokens
from engine.rules.dice.tunnels import DiceTunnels

__all__ = [
    "DiceView",
    "BLANK",
    "DICE_OPTIONS",
    "DICE_TABLE_OPTIONS",
    "DOUBLE",
    "SINGLE",
    "STATION",
    "TOKEN",
    "TRAIN_FACES",
    "TUNNEL",
    "WILD",
    "BuyToken",
    "DiceClaims",
    "DiceNoAction",
    "DiceRoll",
    "DiceStations",
    "DiceTickets",
    "DiceTokenDiscard",
    "DiceTokens",
    "DiceTunnels",
    "DiscardTokens",
    "DrawTicketsWithDice",
    "RerollDice",
    "dice_length",
    "route_type",
    "with_dice",
]
