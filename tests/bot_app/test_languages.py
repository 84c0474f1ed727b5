"""The languages (bot_app/lang, docs/languages.md): every catalogue has every key with the same
placeholders, plural forms per language, unknown locales read English, translated command
names and descriptions obey Discord's rules, and a game through the service speaks its
table's language — after a restart too."""

from __future__ import annotations

import random
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from discord import Locale, app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

from ai.levels import make_ai
from app import Actor, GameService, Limits, ServiceError
from bot_app import lang
from bot_app.lang.translator import CatalogueTranslator, translation
from bot_app.presentation import text
from bot_app.presentation.answers import Refusal, refusal_text
from engine.errors import IllegalAction

HOST = 100


def _catalogue(code: str) -> Any:
    with lang.catalogue_path(code).open("rb") as f:
        return read_po(f, locale=code)


def _fields(text_: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text_) if name}


def _forms(message: Any) -> list[str]:
    return list(message.string) if isinstance(message.string, tuple | list) else [message.string]


def test_the_languages_are_the_catalogue_folders_english_first():
    folders = {p.name for p in lang.LOCALES.iterdir() if lang.catalogue_path(p.name).is_file()}
    assert set(lang.codes()) == folders >= {"en", "de", "fr", "ru", "sv"}
    assert lang.codes()[0] == "en"


@pytest.mark.parametrize("code", [c for c in lang.codes() if c != "en"])
def test_every_key_is_in_every_catalogue_with_the_same_placeholders(code):
    english = {m.id if isinstance(m.id, str) else m.id[0]: m for m in _catalogue("en") if m.id}
    other = {m.id if isinstance(m.id, str) else m.id[0]: m for m in _catalogue(code) if m.id}
    assert set(other) == set(english), f"{code}: missing {set(english) - set(other)}, extra {set(other) - set(english)}"
    catalog = _catalogue(code)
    for key, message in other.items():
        want = set().union(*(_fields(f) for f in _forms(english[key])))
        forms = _forms(message)
        assert message.pluralizable == english[key].pluralizable, key
        if message.pluralizable:
            assert len(forms) == catalog.num_plurals, f"{code} {key}: {len(forms)} forms"
        for form in forms:
            if form:  # an empty form is not translated yet: English is shown
                assert _fields(form) == want, f"{code} {key}: {form!r} has {_fields(form)}, English {want}"


def test_english_has_a_you_line_for_every_they_line():
    keys = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalogue("en") if m.id}
    for key in keys:
        if key.endswith(lang.YOU_FORM):
            they = key.removesuffix(lang.YOU_FORM)
            assert they in keys or they.startswith("cards.dealt"), key
            if they in keys:
                assert "who" in _fields(lang.english().raw(they)) and "who" not in _fields(lang.english().raw(key))


def test_plural_forms_follow_each_language():
    ru, de, fr, sv, en = (lang.language(c) for c in ("ru", "de", "fr", "sv", "en"))
    assert [ru.n("status.cards", n) for n in (1, 2, 5, 11, 21, 22, 25, 111)] == [
        "1 карта", "2 карты", "5 карт", "11 карт", "21 карта", "22 карты", "25 карт", "111 карт"]
    assert [ru.n("status.trains", n) for n in (1, 3, 45)] == ["1 вагон", "3 вагона", "45 вагонов"]
    assert [de.n("status.points", n) for n in (1, 2, 0)] == ["1 Punkt", "2 Punkte", "0 Punkte"]
    assert [fr.n("status.cards", n) for n in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]  # French: 0 is singular
    assert [sv.n("status.final_round", n) for n in (1, 2)] == ["🏁 Sista rundan: 1 tur kvar",
                                                              "🏁 Sista rundan: 2 turer kvar"]
    assert en.n("final.points", -1) == "-1 point" and en.n("final.points", 1234) == "1,234 points"
    assert de.n("final.points", 1234) == "1.234 Punkte" and fr.number(1234) == "1\u202f234"


def test_a_line_has_a_you_form_and_a_they_form():
    de = lang.language("de")
    assert de.say("cards.drew_deck", "Ann") == "Ann zog eine Karte vom Stapel"
    assert de.say("cards.drew_deck", "You") == "Du hast eine Karte vom Stapel gezogen"
    assert lang.language("fr").say("core.passed", "You").startswith("Vous avez passé")


def test_an_unknown_locale_reads_english():
    assert lang.code_for("pt-BR") == "en" and lang.code_for(None) == "en" and lang.code_for("xx") == "en"
    assert lang.code_for(Locale.swedish) == "sv" and lang.code_for(Locale.german) == "de"
    assert lang.code_for("en-GB") == "en" and lang.code_for(Locale.russian) == "ru"
    assert lang.for_locale("pt-BR").t("cards.drew_deck", who="Ann") == "Ann drew a card from the deck"
    assert lang.table_language({}).code == "en" and lang.table_language({"language": "de"}).code == "de"
    assert lang.table_language({"language": "klingon"}).code == "en"


def test_a_key_no_catalogue_has_reads_as_itself_and_a_translators_slip_reads_english():
    assert lang.language("de").t("no.such.key") == "no.such.key"
    # A placeholder the German words do not have the value for: the English words instead.
    assert lang.language("de")._fill("{nope}", {}, lambda: "English") == "English"


def test_a_refusal_reads_in_the_readers_language_and_otherwise_in_english():
    turn = Refusal("It's not your turn in game #4; it is waiting for Ann.", key="refusal.panel_not_your_turn",
                   game="#4", who="Ann")
    with lang.reading(lang.language("fr")):
        assert refusal_text(turn) == "Ce n'est pas votre tour dans la partie #4 ; on attend Ann."
        assert refusal_text(IllegalAction("The game is over.", "game_over")) == "La partie est terminée."
        # Not converted yet (no key): the English sentence.
        assert refusal_text(IllegalAction("Oslo – Stockholm needs 4 yellow cards.", "bad_payment")) == \
            "Oslo – Stockholm needs 4 yellow cards."
        # A key whose words need what the exception does not carry: English.
        assert refusal_text(IllegalAction("There is no face-up card in slot 9.", "no_such_card")) == \
            "There is no face-up card in slot 9."
        assert refusal_text(RuntimeError("boom")).startswith("Un problème est survenu")
    assert refusal_text(turn) == "It's not your turn in game #4; it is waiting for Ann."


# --- the commands -------------------------------------------------------------------------------

def _name_ok(name: str) -> bool:
    """Discord's rule for a command or option name, ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$ and
    lowercase (str.isalnum is \\p{L} and \\p{N}, and takes in Devanagari and Thai letters)."""
    return 1 <= len(name) <= 32 and all(ch.isalnum() or ch in "-_" for ch in name) and name == name.lower()


async def test_every_translated_command_name_and_description_obeys_discords_rules(tmp_path):
    from tests.fake_discord import FakeDiscord
    from tests.fake_discord.harness import start_bot
    from tests.fake_discord.renderer import StubRenderer

    fake = FakeDiscord()
    await fake.start()
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=StubRenderer())
    try:
        seen: dict[str, int] = {}

        def walk(item: dict[str, Any]) -> None:
            for loc, name in (item.get("name_localizations") or {}).items():
                assert _name_ok(name), (item["name"], loc, name)
                seen[loc] = seen.get(loc, 0) + 1
            for loc, words in (item.get("description_localizations") or {}).items():
                assert 1 <= len(words) <= 100, (item["name"], loc, words)
            for choice in item.get("choices") or ():
                for loc, name in (choice.get("name_localizations") or {}).items():
                    assert 1 <= len(name) <= 100, (choice["name"], loc, name)
            for child in item.get("options") or ():
                walk(child)

        for command in fake.commands:
            walk(command)

        # Every subcommand and option of /ttr has its name in every language, and every choice
        # too, but the languages' own names and "USA" (the same everywhere).
        untranslated: list[str] = []

        def every(item: dict[str, Any], path: str) -> None:
            for loc in ("de", "fr", "ru", "sv-SE"):
                if loc not in (item.get("name_localizations") or {}):
                    untranslated.append(f"{path} {loc}")
                names = [(o.get("name_localizations") or {}).get(loc, o["name"]) for o in item.get("options") or ()]
                assert len(names) == len(set(names)), (path, loc, names)  # Discord refuses two alike
                for choice in item.get("choices") or ():
                    if choice["name"] not in {*(c.name for c in lang.language_choices()), "USA"} and loc not in (
                            choice.get("name_localizations") or {}):
                        untranslated.append(f"{path} choice {choice['name']} {loc}")
            for child in item.get("options") or ():
                every(child, f"{path} {child['name']}")

        for child in next(c for c in fake.commands if c["name"] == "ttr")["options"]:
            every(child, child["name"])
        assert not untranslated, untranslated
        # German, French, Russian and Swedish clients see translated names; the English names stay.
        assert {"de", "fr", "ru", "sv-SE"} <= set(seen)
        ttr = next(c for c in fake.commands if c["name"] == "ttr")
        draw = next(c for c in ttr["options"] if c["name"] == "draw")
        assert draw["name_localizations"]["de"] == "ziehen" and draw["name_localizations"]["ru"] == "взять"
        assert "en-US" not in draw.get("name_localizations", {})
    finally:
        await running.stop()


async def test_the_translator_answers_only_where_a_catalogue_has_the_words():
    group = app_commands.Group(name="ttr", description="Ticket to Ride")

    @group.command(name="draw", description="Take a train card: the deck or a face-up one")
    async def draw(interaction: Any, game: str | None = None) -> None:
        """A stand-in for the bot's command."""

    tr = CatalogueTranslator()
    name = TranslationContext(location=Where.command_name, data=draw)
    assert await tr.translate(app_commands.locale_str("draw"), Locale.german, name) == "ziehen"
    assert await tr.translate(app_commands.locale_str("draw"), Locale.american_english, name) is None
    assert await tr.translate(app_commands.locale_str("draw"), Locale.brazil_portuguese, name) is None
    param = TranslationContext(location=Where.parameter_name, data=app_commands.Parameter(
        draw._params["game"], draw))
    assert translation(app_commands.locale_str("game"), lang.language("fr"), param) == "partie"  # option.game


# --- a game through the service ----------------------------------------------------------------

ENGLISH_WORDS = ("drew a card from the deck", "took the face-up", " claimed ", "cards from the deck", "Face up:",
                 "it's your turn")


async def _german_game(path: Path, moves: int) -> tuple[GameService, int, list[str], Any]:
    service = await GameService.open(path, limits=Limits.unlimited(), random_bits=random.Random(3).getrandbits)
    lobby = await service.tables.create_lobby(1, 1, HOST, "Host", "usa", {"language": "de"}, seats_wanted=2)
    await service.tables.add_ai(lobby.game_id, HOST, "greedy", 1)
    g = (await service.tables.start(lobby.game_id, HOST)).game_id
    ai = make_ai("greedy", 2)
    lines: list[str] = []
    result = None
    for _ in range(moves):
        summary = await service.reads.game(g)
        if summary.status == "over":
            break
        seat = summary.waiting_for[0]
        user = summary.seats[seat].user_id
        if user is None:
            results = await service.moves.play_bots(g)
        else:
            view = await service.reads.view(g, user)
            legal = await service.reads.legal_actions(g, user)
            results = [await service.moves.submit(g, Actor.user(user), ai.choose(view, legal), summary.seq)]
        for result in results:
            lines += text.log_lines(result.public_events, result.view(None))
    return service, g, lines, result


async def test_a_game_at_a_german_table_speaks_german_and_keeps_it_after_a_restart(tmp_path):
    db = tmp_path / "ttr.sqlite3"
    service, g, lines, result = await _german_game(db, 14)
    try:
        said = "\n".join(lines)
        assert any("vom Stapel" in line or "offene Karte" in line for line in lines), said
        assert any(" baute " in line for line in lines) or any("Zielkarte" in line for line in lines) or lines, said
        for words in ENGLISH_WORDS:
            assert words not in said, f"{words!r} in a German game:\n{said}"
        public = await service.reads.view(g, None)
        status = text.status_block(public)
        assert "Offen:" in status and "Karten" in status and "Wagen" in status, status
    finally:
        await service.close()
    # A restart: the table's language is stored with the game.
    again = await GameService.open(db, limits=Limits.unlimited())
    try:
        public = await again.reads.view(g, None)
        assert public.options.get("language") == "de"
        assert "Offen:" in text.status_block(public)
        # A private answer in the reader's language: a French reader of this German table.
        with lang.reading(lang.language("fr")):
            me = await again.reads.view(g, HOST)
            assert text.hand_text(me, g).startswith(f"**Votre main dans la partie #{g}**")
        assert text.hand_text(me, g).startswith(f"**Deine Hand in Spiel #{g}**")  # a DM: the table's
    finally:
        await again.close()


async def test_a_players_own_language_is_stored_and_auto_clears_it(tmp_path):
    db = tmp_path / "ttr.sqlite3"
    service = await GameService.open(db, limits=Limits.unlimited())
    try:
        assert (await service.settings.settings(HOST)).language is None
        assert await service.settings.user_language(HOST) is None
        assert (await service.settings.change_settings(HOST, language="sv")).language == "sv"
        with pytest.raises(ServiceError):
            await service.settings.change_settings(HOST, language="no such language at all")
    finally:
        await service.close()
    again = await GameService.open(db, limits=Limits.unlimited())
    try:
        assert await again.settings.user_language(HOST) == "sv"  # after a restart
        assert lang.for_reader("sv", lang.english()).code == "sv"
        assert lang.for_reader(None, lang.language("de")).code == "de"  # none chosen: the table's
        assert (await again.settings.change_settings(HOST, language="auto")).language is None
    finally:
        await again.close()


def test_every_key_the_code_names_is_in_the_english_catalogue():
    """A key written in the code (`c.t("…")`, `.n("…", …)`, `.say("…", …)`, `key="…"`) that no
    catalogue has would show as the key itself."""
    import re

    root = Path(__file__).resolve().parents[2]
    english = {m.id if isinstance(m.id, str) else m.id[0] for m in _catalogue("en") if m.id}
    pattern = re.compile(r"""(?:\.(?:t|n|say)\(\s*|key=)"([a-z_]+\.[a-z0-9_.]+)\"""")
    named: dict[str, str] = {}
    for path in [*root.glob("bot_app/**/*.py"), *root.glob("cogs/*.py"), root / "bot.py"]:
        for key in pattern.findall(path.read_text(encoding="utf-8")):
            named.setdefault(key, path.name)
    assert len(named) > 80
    missing = {k: f for k, f in named.items() if k not in english and k + lang.YOU_FORM not in english}
    assert not missing, missing
    for key in named:  # a line said with a subject has both forms
        if key + lang.YOU_FORM in english:
            assert key in english or key.startswith("cards.dealt"), key


def test_dice_and_tokens_read_in_the_readers_language():
    from bot_app.presentation.words.dice_faces import faces_paid, roll_text, tokens_text

    de, fr, ru = lang.language("de"), lang.language("fr"), lang.language("ru")
    assert faces_paid({"single": 2, "wild": 1}, None, de) == "2 Einzelwürfel und 1 Jokerwürfel"
    assert faces_paid({"token": 2}, "double") == "2 double tokens"  # English when no language is given
    assert roll_text(["single", "wild"], fr) == "1️⃣ simple · 🌈 joker"
    assert [ru.n("dice.die.station", n) for n in (1, 3, 5)] == [
        "1 кубик вокзала", "3 кубика вокзала", "5 кубиков вокзала"]
    assert tokens_text({}, ru) == "🪙 нет жетонов"
    assert de.say("dice.rolled", "Ann", faces="1️⃣ einfach") == "Ann würfelte: 1️⃣ einfach"
    assert de.say("dice.rolled", lang.YOU, faces="1️⃣ einfach") == "Du hast gewürfelt: 1️⃣ einfach"


def test_every_boards_score_lines_are_named_in_every_language():
    from bot_app.presentation.words.wording import wording_of

    for variant in ("usa", "europe", "nordic", "germany", "ussr", "alsace"):
        keys = {f"score.{k}" for k in wording_of(variant, 3, {}).line_names}
        for code in lang.codes():
            missing = {k for k in keys if not lang.language(code).has(k)}
            assert not missing, (variant, code, missing)
