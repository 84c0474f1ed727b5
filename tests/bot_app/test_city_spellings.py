"""City names typed in any spelling (issue 28, item 3): the board prints München, Wien, Moskva;
players type Munich, Vienne, Москва, Köpenhamn, and find the printed city. The spellings are
data (maps/<id>/aliases.json), checked against their map, and never change what is drawn."""

from __future__ import annotations

import json

import pytest

from bot_app.presentation import spelled
from bot_app.presentation.names import find_city, find_route, names_of
from bot_app.presentation.plan_syntax import parse as parse_plan
from bot_app.presentation.plan_syntax import typed as typed_plan
from engine.maps import MapError, available_maps, load_map, parse_map
from engine.maps.load import MAPS_DIR
from engine.maps.spellings import _shipped, parse_spellings, spellings
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer

# typed -> the city as printed on that board, with the language the spelling is from
TYPED = {
    "usa": [("en", "Montreal", "Montréal"), ("ru", "Нью-Йорк", "New York"),
            ("fr", "La Nouvelle-Orléans", "New Orleans"), ("ru", "Сент-Луис", "Saint Louis"),
            ("en", "St. Louis", "Saint Louis"), ("ru", "Лос-Анджелес", "Los Angeles")],
    "europe": [("en", "Munich", "München"), ("en", "Munchen", "München"), ("en", "Vienna", "Wien"),
               ("fr", "Vienne", "Wien"), ("ru", "Вена", "Wien"), ("de", "Moskau", "Moskva"),
               ("fr", "Moscou", "Moskva"), ("ru", "Москва", "Moskva"), ("en", "Moscow", "Moskva"),
               ("de", "Kopenhagen", "Kobenhavn"), ("sv", "Köpenhamn", "Kobenhavn"),
               ("fr", "Copenhague", "Kobenhavn"), ("de", "Warschau", "Warszawa"),
               ("fr", "Varsovie", "Warszawa"), ("en", "Zurich", "Zürich"), ("sv", "Rom", "Roma"),
               ("de", "Venedig", "Venezia"), ("ru", "Стамбул", "Constantinople")],
    "germany": [("en", "Cologne", "Köln"), ("ru", "Кёльн", "Köln"), ("ru", "Кельн", "Köln"),
                ("de", "Koeln", "Köln"), ("fr", "Mayence", "Mainz"), ("en", "Munich", "München"),
                ("sv", "Österrike", "Österreich"), ("fr", "Pays-Bas", "Niederlande"),
                ("ru", "Мюнхен", "München"), ("fr", "Sarrebruck", "Saarbrücken")],
    "alsace": [("fr", "Bâle", "Basel"), ("de", "Mülhausen", "Mulhouse"), ("de", "Schlettstadt", "Sélestat"),
               ("ru", "Кольмар", "Colmar"), ("en", "Freiburg", "Freiburg im Breisgau"),
               ("en", "Besancon", "Besançon"), ("de", "Kolmar", "Colmar")],
    "nordic": [("en", "Copenhagen", "København"), ("sv", "Köpenhamn", "København"),
               ("en", "Gothenburg", "Göteborg"), ("sv", "Helsingfors", "Helsinki"),
               ("ru", "Хельсинки", "Helsinki"), ("en", "Aarhus", "Århus"), ("en", "Tromso", "Tromsø"),
               ("sv", "Uleåborg", "Oulu"), ("fr", "Copenhague", "København"), ("de", "Kopenhagen", "København")],
    "ussr": [("en", "Moscow", "Moskva"), ("de", "Moskau", "Moskva"), ("fr", "Moscou", "Moskva"),
             ("ru", "Москва", "Moskva"), ("sv", "Moskva", "Moskva"), ("ru", "Ленинград", "Leningrad"),
             ("en", "Saint Petersburg", "Leningrad"), ("de", "Taschkent", "Tashkent"),
             ("fr", "Tachkent", "Tashkent"), ("sv", "Tasjkent", "Tashkent"), ("ru", "Горький", "Gorky"),
             ("ru", "Екатеринбург", "Sverdlovsk"), ("de", "Kiew", "Kiev"), ("ru", "Киев", "Kiev")],
}


def test_every_board_has_a_table_of_typed_spellings_in_all_five_languages():
    assert set(TYPED) == set(available_maps())
    for rows in TYPED.values():
        assert len(rows) >= 5
    assert {lang for rows in TYPED.values() for lang, _, _ in rows} == {"en", "de", "fr", "ru", "sv"}


@pytest.mark.parametrize(("map_id", "lang", "typed", "printed"),
                         [(m, lang, t, p) for m, rows in TYPED.items() for lang, t, p in rows])
def test_a_city_typed_in_another_spelling_is_the_printed_city(map_id, lang, typed, printed):
    city = find_city(load_map(map_id), typed)
    assert city is not None and city.name == printed, (lang, typed)


def test_every_shipped_spellings_file_names_cities_of_its_map_and_each_spelling_one_city():
    for map_id in available_maps():
        game_map = load_map(map_id)
        found = spellings(game_map)
        assert found, map_id  # every board has a file, with Cyrillic at least for each city
        assert set(found) == set(game_map.cities), map_id
        for city_id, names in found.items():
            for name in names:
                assert find_city(game_map, name).id == city_id, (map_id, name)


def _europe_file() -> dict:
    return json.loads((MAPS_DIR / "europe" / "aliases.json").read_text(encoding="utf-8"))


def test_a_spelling_that_would_name_two_cities_is_refused():
    europe = load_map("europe")
    data = _europe_file()
    data["cities"]["wien"]["en"].append("berlin")  # Berlin is another city's printed name
    with pytest.raises(MapError, match="'berlin' also names city 'berlin'"):
        parse_spellings(data, europe, "maps/europe/aliases.json")
    data = _europe_file()
    data["cities"]["paris"]["fr"] = ["Vienne"]  # Vienne is already Wien's
    with pytest.raises(MapError, match="the spelling 'Vienne' also names city"):
        parse_spellings(data, europe, "maps/europe/aliases.json")
    data = _europe_file()
    data["cities"]["paris"]["de"] = ["Munchen"]  # folds to München's name: accents do not tell apart
    with pytest.raises(MapError, match="also names city 'munchen'"):
        parse_spellings(data, europe, "maps/europe/aliases.json")


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d["cities"].__setitem__("atlantis", {"en": ["Atlantis"]}), "no such city"),
    (lambda d: d["cities"]["wien"].__setitem__("German", ["Wien"]), "not a language code"),
    (lambda d: d["cities"]["wien"].__setitem__("en", [""]), "list of non-empty strings"),
    (lambda d: d.__setitem__("spellings", {}), "unknown key 'spellings'"),
])
def test_a_spellings_file_with_a_mistake_is_refused(change, message):
    data = _europe_file()
    change(data)
    with pytest.raises(MapError, match=message):
        parse_spellings(data, load_map("europe"), "maps/europe/aliases.json")


def test_spellings_never_change_what_is_drawn():
    """The board is the map file alone: the same GameMap with or without the spellings file,
    printed names and positions as in the file, and no spelling among what a City holds."""
    for map_id in available_maps():
        raw = json.loads((MAPS_DIR / f"{map_id}.json").read_text(encoding="utf-8"))
        game_map = load_map(map_id)
        assert game_map == parse_map(raw, f"maps/{map_id}.json")
        assert [(c.name, c.x, c.y) for c in game_map.cities.values()] == \
            [(c["name"], c["x"], c["y"]) for c in raw["cities"]]
        extra = {name for names in spellings(game_map).values() for name in names}
        held = {t for c in game_map.cities.values() for t in (c.name, *c.aliases)}
        assert extra and not extra & held, map_id


def test_a_board_that_is_not_the_shipped_one_has_no_extra_spellings():
    raw = json.loads((MAPS_DIR / "europe.json").read_text(encoding="utf-8"))
    raw["name"] = "An edited copy"
    assert spellings(parse_map(raw, "edited.json")) == {}


def test_the_spelling_index_is_built_once_per_map():
    europe = load_map("europe")
    assert names_of(europe) is names_of(europe)
    before = _shipped.cache_info().misses
    for _ in range(3):
        spellings(europe)
        find_city(europe, "Vienne")
    assert _shipped.cache_info().misses - before <= 1


def test_a_claim_typed_vienna_munich_finds_wien_munchen():
    europe = load_map("europe")
    for typed in ("Vienna - Munich", "Munich – Vienna", "Вена - Мюнхен", "vienne to munich", "Wien - Munchen"):
        route = find_route(europe, typed)
        assert route is not None and europe.route_label(route.id) == "München – Wien (3 orange)", typed
    moscow = find_route(load_map("ussr"), "Moscou - Arkhangelsk")
    assert moscow is not None and moscow.id == "arkhangelsk-moskva"


def test_autocomplete_matches_any_spelling_and_shows_the_printed_name():
    europe = load_map("europe")
    routes = [(europe.route_label(r), r) for r in europe.routes]
    offered = dict((rid, label) for label, rid in spelled.routes(europe, routes, "Munich"))
    assert set(offered) == {r for r in europe.routes if "munchen" in (europe.routes[r].a, europe.routes[r].b)}
    assert offered["munchen-wien"] == "München – Wien (3 orange) · Munich"
    assert spelled.routes(europe, routes, "wien - mun") == [("München – Wien (3 orange)", "munchen-wien")]
    assert [r for _, r in spelled.routes(europe, routes, "Vienna - Mun")] == ["munchen-wien"]
    cities = [(c.name, c.id) for c in europe.cities.values()]
    assert spelled.cities(europe, cities, "Vienne") == [("Wien (Vienne)", "wien")]
    assert spelled.cities(europe, cities, "Wie") == [("Wien", "wien")]
    assert spelled.cities(europe, cities, "Моск") == [("Moskva (Москва)", "moskva")]


async def test_claim_autocomplete_of_munich_offers_the_routes_of_munchen(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "spell.sqlite3", renderer=StubRenderer(), seed=3)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="europe")
        it = await fake.answered(await fake.autocomplete(alice, "claim", "route", channel_id=table.thread_id,
                                                         route="Munich"))
        choices = it.callback["data"]["choices"]
        assert {"name": "München – Wien (3 orange) · Munich", "value": "munchen-wien"} in choices
        assert choices and all("München" in c["name"] for c in choices)
        # a claim typed in another spelling is the claim of the printed route: the same answer
        summary = await table.summary()
        mover = alice if summary.seats[summary.waiting_for[0]].user_id == alice.id else bob
        answers = []
        for typed in ("Wien – München (3 orange)", "Vienna - Munich", "Atlantis - Munich"):
            it = await fake.answered(await fake.slash(mover, "claim", channel_id=table.thread_id, route=typed))
            await fake.wait_until(lambda: running.bot.desk.busy == 0)
            answers.append(fake.reply_messages(it)[-1]["content"])
        assert answers[0] == answers[1] != answers[2] and "know that route" in answers[2]
        it = await fake.answered(await fake.autocomplete(alice, "board", "zoom", channel_id=table.thread_id,
                                                         zoom="Varsovie"))
        assert it.callback["data"]["choices"] == [{"name": "Warszawa (Varsovie)", "value": "warszawa"}]
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


def test_a_plan_names_routes_in_any_spelling_and_reads_back_printed():
    europe = load_map("europe")
    other = parse_plan("if free Vienna - Munich: claim Munich - Vienne orange3; else: draw blind", europe)
    printed = parse_plan("if free Wien - München: claim München - Wien orange3; else: draw blind", europe)
    assert other == printed
    assert typed_plan(other, europe).startswith("if free München – Wien (3 orange): claim München – Wien")
