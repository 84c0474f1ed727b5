"""/ttr rules: a rule set's rules, short, by topic. The text is the rule modules' own words
(`bot_app.words`), so it follows the rules a table really plays — its map's route points and
tunnels, its options, the Dice Expansion — and lists only the topics that rule set has."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot_app.words import TOPIC_ORDER, wording_of
from engine.errors import IllegalAction
from engine.rulesets import available_variants

# Every topic some rule set has (for an autocomplete before the variant is known).
TOPICS = TOPIC_ORDER
DEFAULT_VARIANT = "usa"


def _players(variant: str, options: Mapping[str, Any]) -> int:
    from engine.rulesets import build_ruleset

    for n in range(2, 7):
        try:
            build_ruleset(variant, n, options)
            return n
        except IllegalAction as refusal:
            if refusal.code != "bad_player_count":
                raise
    return 2


def topics_for(variant: str, options: Mapping[str, Any] | None = None) -> dict[str, str]:
    """The topics of a rule set (with these table options), in reading order."""
    opts = dict(options or {})
    return wording_of(variant, _players(variant, opts), opts).topics()


def rules_for(variant: str, topic: str | None, options: Mapping[str, Any] | None = None) -> str:
    """One topic of a rule set's rules; for a topic it does not have, the list of those it
    has."""
    if variant not in available_variants():
        return f"There is no variant called {variant[:30]!r}; choose one of {', '.join(available_variants())}."
    topics = topics_for(variant, options)
    wanted = (topic or "overview").strip().lower().replace(" ", "-")
    if wanted in ("first", "first-turn", "firstturn", "start"):
        wanted = "first-turn"
    if wanted not in topics:
        return f"Topics for this game: {', '.join(topics)}."
    return topics[wanted] + f"\n\n*Topics: {', '.join(t for t in topics if t != wanted)}.*"
