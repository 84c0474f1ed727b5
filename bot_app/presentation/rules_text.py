"""/ttr rules: a rule set's rules, short, by topic. The text is the rule modules' own words
(`bot_app.presentation.words`), so it follows the rules a table really plays — its map's route points and
tunnels, every one of its options, the Dice Expansion, its number of players — and lists only
the topics that rule set has. It is written in the reader's language (`bot_app.lang.reader`):
every sentence and every topic's name is a catalogue entry (`rules.…`); a topic is asked for by
its English name (the command's value) or by its name in the reader's language."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from bot_app.lang import Language, reader
from bot_app.presentation.table_options import BY_KEY, UNDO
from bot_app.presentation.words import TOPIC_ORDER, wording_of
from engine.errors import IllegalAction
from engine.rules.dice import DICE_OPTIONS
from engine.rulesets import available_variants

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


def topics_for(variant: str, options: Mapping[str, Any] | None = None, players: int | None = None) -> dict[str, str]:
    """The topics of a rule set (with these table options, for this many players: the fewest
    the rule set allows unless given), in reading order."""
    opts = dict(options or {})
    undo = opts.get(UNDO)
    return wording_of(variant, players or _players(variant, opts), opts).topics(
        undo=undo if isinstance(undo, bool) else None)


@functools.cache
def every_topic() -> tuple[str, ...]:
    """Every topic some rule set has, with or without dice (the autocomplete's list before the
    variant is known), in reading order. Read from the rule sets' words, not kept by hand: a new
    rule's topic is listed with no other change (after the topics whose place is known)."""
    found = {t for variant in available_variants() for dice in (False, True)
             for t in topics_for(variant, {"dice": True} if dice else {})}
    return (*(t for t in TOPIC_ORDER if t in found), *sorted(found - set(TOPIC_ORDER)))


def topic_name(topic: str, lang: Language | None = None) -> str:
    """A topic's name as the reader reads it ("first-turn", "erster Zug")."""
    words = lang or reader()
    key = f"rules.topic.{topic}"
    return words.t(key) if words.has(key) else topic


def wanted_topic(topic: str | None, topics: Mapping[str, str], lang: Language) -> str:
    """The topic asked for: by its English name, a short form of it, or its name in `lang`."""
    wanted = (topic or "overview").strip().lower().replace(" ", "-")
    if wanted in ("first", "first-turn", "firstturn", "start"):
        return "first-turn"
    if wanted in topics:
        return wanted
    spoken = (topic or "").strip().lower()
    return next((t for t in topics if topic_name(t, lang).lower() == spoken), wanted)


def rules_for(variant: str, topic: str | None, options: Mapping[str, Any] | None = None,
              players: int | None = None) -> str:
    """One topic of a rule set's rules; for a topic it does not have, the list of those it
    has."""
    lang = reader()
    if variant not in available_variants():
        return lang.t("rules.no_variant", name=repr(variant[:30]), variants=", ".join(available_variants()))
    topics = topics_for(variant, options, players)
    wanted = wanted_topic(topic, topics, lang)
    if wanted not in topics:
        return lang.t("rules.topics", topics=", ".join(topic_name(t, lang) for t in topics))
    others = ", ".join(topic_name(t, lang) for t in topics if t != wanted)
    return topics[wanted] + "\n\n" + lang.t("rules.topics_other", topics=others)


def game_rules_options(options: Mapping[str, Any], dice: bool | None = None) -> dict[str, Any]:
    """The options a game's rules are shown with: all of the table's (its rule set's options,
    the Dice Expansion and its options); `dice` (the command's own option, None: the table's)
    turns the Dice Expansion on or off — off, without the dice options."""
    out = dict(options)
    if dice is not None:
        out["dice"] = dice
    if not out.get("dice"):
        out = {k: v for k, v in out.items() if k not in DICE_OPTIONS}
    return out


def options_note(options: Mapping[str, Any]) -> str:
    """" (this table: tunnel dice: 3 tunnel faces of 6; tokens: up to 2 tokens per turn)": the
    table options the rules text follows that are not the rule set's defaults."""
    lang = reader()
    parts = [f"{_title(option.key, option.title, lang)}: {option.said(value, lang)}" for key, value in options.items()
             if (option := BY_KEY.get(key)) is not None and value != option.default]
    if options.get(UNDO) is False:
        parts.insert(0, lang.t("rules.table_no_undo"))
    return lang.t("rules.table_note", options="; ".join(parts)) if parts else ""


def _title(key: str, title: str, lang: Language) -> str:
    """A table option's name in the table's summary, in `lang` where a catalogue has it."""
    entry = f"table_option.title.{key}"
    return lang.t(entry) if lang.has(entry) else title
