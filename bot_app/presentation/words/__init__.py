"""Words for Discord, rule by rule: each rule module of engine/rules/ has its words in a file
of this package named after the rule's own file, registered for its class (`base.presents`).
A game's words (`Wording`) loop over its rule set's modules, so a variant is words only through
its rules, never through its name.

Public words are built only from public events and public views; a player's own lines only
from their own view and private events.
"""

from __future__ import annotations

import importlib
import pkgutil

from bot_app.presentation.words.base import Ctx, Doing, Said, Words, words_class
from bot_app.presentation.words.wording import TOPIC_ORDER, Wording, wording, wording_of

# Each file registers its words on import; every module of this package (and of words/dice/) is
# imported here, so a rule's words are found by adding their file (docs/architecture.md).
for _found in pkgutil.walk_packages(__path__, f"{__name__}."):
    importlib.import_module(_found.name)

__all__ = ["TOPIC_ORDER", "Ctx", "Doing", "Said", "Words", "Wording", "words_class", "wording", "wording_of"]
