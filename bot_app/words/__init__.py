"""Words for Discord, rule by rule: each rule module of engine/rules/ has its words in a file
of this package named after the rule's own file, registered for its class (`base.presents`).
A game's words (`Wording`) loop over its rule set's modules, so a variant is words only through
its rules, never through its name.

Public words are built only from public events and public views; a player's own lines only
from their own view and private events.
"""

from __future__ import annotations

# Each file registers its words on import.
from bot_app.words import (  # noqa: F401
    alsace_bonuses,
    bonuses,
    burn_five,
    call_time,
    claim_route,
    controller,
    core_topics,
    count_bonuses,
    end_of_game,
    nordic_payment,
    passengers,
    payment,
    stations,
    tickets,
    tourist_cards,
    train_cards,
    tunnels,
    used_cards_under_deck,
)
from bot_app.words.base import Ctx, Doing, Said, Words, words_class
from bot_app.words.dice import claims, discard, no_action, roll, tokens  # noqa: F401
from bot_app.words.dice import stations as dice_stations  # noqa: F401
from bot_app.words.dice import tickets as dice_tickets  # noqa: F401
from bot_app.words.dice import tunnels as dice_tunnels  # noqa: F401
from bot_app.words.wording import TOPIC_ORDER, Wording, wording, wording_of

__all__ = ["TOPIC_ORDER", "Ctx", "Doing", "Said", "Words", "Wording", "words_class", "wording", "wording_of"]
