"""/ttr rules and the settings text in every language (issue 28): every topic of every variant,
with and without dice, for every number of players and every table option a host may choose,
reads in German, French, Russian and Swedish — no topic missing or empty, no placeholder left
unfilled, no English word left — and a player is answered through Discord in their language."""

from __future__ import annotations

import re
from functools import cache

import pytest

from app import PlayerSettings
from bot_app.lang import codes, language, reading
from bot_app.presentation.rules_text import options_note, rules_for, topic_name, topics_for
from bot_app.presentation.settings_help import settings_help, settings_text
from bot_app.presentation.words.wording import TOPIC_ORDER
from engine.errors import IllegalAction
from engine.rulesets import available_variants, build_ruleset
from tests.bot_app.test_rules_text import CASES
from tests.english_leftovers import english_leftovers
from tests.fake_discord import FakeDiscord
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer

OTHERS = [code for code in codes() if code != "en"]
TABLES = [(variant, dice) for variant in available_variants() for dice in (False, True)]
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def _opts(dice: bool) -> dict[str, bool]:
    return {"dice": True} if dice else {}


def _topics(variant: str, options: dict, code: str, players: int | None = None,
            undo: bool | None = None) -> dict[str, str]:
    table = dict(options) if undo is None else {**options, "undo": undo}
    with reading(language(code)):
        return topics_for(variant, table, players)


@cache
def _counts(variant: str, dice: bool) -> tuple[int, ...]:
    """Every number of players the rule set allows (double routes read differently by it)."""
    found = []
    for n in range(2, 7):
        try:
            build_ruleset(variant, n, _opts(dice))
            found.append(n)
        except IllegalAction:
            continue
    return tuple(found)


def _problems(text: str, code: str, variant: str) -> list[str]:
    """An empty text, a placeholder left unfilled, an English word left."""
    if not text.strip():
        return ["empty"]
    found = [f"placeholder {m!r}" for m in PLACEHOLDER.findall(text)]
    gmap = build_ruleset(variant, _counts(variant, False)[0]).map_id
    return found + [str(x) for x in english_leftovers(text, code, gmap)]


@pytest.mark.parametrize("code", OTHERS)
@pytest.mark.parametrize(("variant", "dice"), TABLES)
def test_every_topic_reads_in_the_language_for_every_player_count_and_undo_setting(variant, dice, code):
    for players in _counts(variant, dice):
        for undo in (None, True, False):
            english = _topics(variant, _opts(dice), "en", players, undo)
            shown = _topics(variant, _opts(dice), code, players, undo)
            assert list(shown) == list(english), (variant, dice, code, players)
            for topic, text in shown.items():
                assert not _problems(text, code, variant), (variant, dice, players, undo, topic,
                                                            _problems(text, code, variant), text)
                assert text != english[topic], (variant, dice, code, topic)


@pytest.mark.parametrize("code", OTHERS)
@pytest.mark.parametrize(("variant", "dice", "key", "value"), CASES,
                         ids=[f"{v}{'-dice' if d else ''}-{k}={x}" for v, d, k, x in CASES])
def test_each_table_option_changes_the_rules_in_the_language_too(variant, dice, key, value, code):
    """A topic an option changes in English changes in the language as well, and still has no
    English word nor placeholder left."""
    plain_en = _topics(variant, _opts(dice), "en", 3)
    chosen_en = _topics(variant, {**_opts(dice), key: value}, "en", 3)
    plain = _topics(variant, _opts(dice), code, 3)
    chosen = _topics(variant, {**_opts(dice), key: value}, code, 3)
    changed = [t for t in chosen_en if chosen_en[t] != plain_en.get(t)]
    assert changed, (variant, dice, key, value)
    for topic in changed:
        assert chosen[topic] != plain.get(topic), (topic, code)
        assert not _problems(chosen[topic], code, variant), (topic, _problems(chosen[topic], code, variant))
    with reading(language(code)):  # the heading's note on the table's options
        note = options_note({**_opts(dice), key: value, "undo": False})
    assert not _problems(note, code, variant), _problems(note, code, variant)


@pytest.mark.parametrize("code", codes())
def test_every_topic_has_a_name_in_every_language_and_no_two_alike(code):
    names = [topic_name(t, language(code)) for t in (*TOPIC_ORDER, "settings")]
    assert all(language(code).has(f"rules.topic.{t}") for t in (*TOPIC_ORDER, "settings"))
    assert len(set(names)) == len(names), names


def test_a_topic_is_found_by_its_name_in_the_readers_language_and_the_list_uses_those_names():
    with reading(language("de")):
        by_name = rules_for("europe", "Bahnhöfe")
        listed = rules_for("europe", "nichts")
        missing = rules_for("atlantis", None)
    assert by_name.startswith(_topics("europe", {}, "de")["stations"])
    assert "*Themen: Überblick, erster Zug" in by_name
    assert listed.startswith("Themen für dieses Spiel: Überblick, erster Zug, Spielzug") and "Bahnhöfe" in listed
    assert missing.startswith("Es gibt keine Variante namens 'atlantis'")


@pytest.mark.parametrize("code", OTHERS)
def test_the_settings_text_reads_in_the_language(code):
    mine = [PlayerSettings(), PlayerSettings(colorblind=True, hand_picture=False, dms=False, timezone="Europe/Berlin",
                                             quiet=(1380, 480), away_until=1e10, digest_hour=7, digest_due=2e9,
                                             language="de")]
    lang = language(code)
    texts = [settings_help(lang), *(settings_text(m, 5.0, lang) for m in mine)]
    for text in texts:
        assert text != settings_help(language("en"))
        assert not PLACEHOLDER.findall(text), text
        assert not english_leftovers(text, code, None, ["Europe/Berlin", "UTC"]), english_leftovers(text, code)


def test_english_settings_text_is_unchanged():
    assert settings_help(language("en")).splitlines()[0] == "**/ttr settings** (yours, for every game):"
    text = settings_text(PlayerSettings(), 0.0, language("en"))
    assert "• Time zone (`timezone`): UTC (the default)." in text
    assert "• Language (`language`): auto — your Discord client's." in text


async def test_a_german_player_asking_for_the_rules_is_answered_in_german(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    anna = fake.add_user("Anna")
    anna.locale = "de"
    running = await start_bot(fake, tmp_path / "rules.sqlite3", renderer=StubRenderer(), seed=28)
    try:
        it = await fake.answered(await fake.slash(anna, "rules", topic="tickets"))
        reply = fake.reply_messages(it)[-1]["content"]
        head, _, body = reply.partition("\n")
        assert head == "**USA — Zielkarten** (das Grundspiel; `variant:` wählt ein anderes)", head
        with reading(language("de")):
            assert body == rules_for("usa", "tickets")
        assert "Zu Beginn bekommst du 3 Zielkarten und behältst mindestens 2." in body
        assert not english_leftovers(body, "de", "usa")
        it = await fake.answered(await fake.slash(anna, "rules", topic="Bahnhöfe", variant="europe", dice=True))
        head, _, body = fake.reply_messages(it)[-1]["content"].partition("\n")
        assert head == "**Europa + Würfel — Bahnhöfe**", head
        assert body.startswith("Jeder Spieler hat 3 Bahnhöfe. Einen zu bauen ist deine Aktion des Zuges"), body
        it = await fake.answered(await fake.slash(anna, "rules", topic="settings"))
        assert fake.reply_messages(it)[-1]["content"].startswith("**/ttr einstellungen** (deine, für jedes Spiel):")
        it = await fake.answered(await fake.autocomplete(anna, "rules", "topic", topic="", variant="europe"))
        choices = {c["value"]: c["name"] for c in it.callback["data"]["choices"]}
        assert choices["first-turn"] == "erster Zug" and choices["stations"] == "Bahnhöfe", choices
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
