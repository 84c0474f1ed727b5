"""Tests for engine/maps/ (model, validator, loader) and the shipped maps/*.json; the names
players type are read by bot_app/presentation/names.py, tested here on the shipped maps too."""

from __future__ import annotations

import copy
import json
import pickle
import re
from pathlib import Path

import pytest

from bot_app.presentation.names import find_city, find_route, suggest_cities
from engine.maps import (
    COLORS,
    GameMap,
    MapError,
    Route,
    available_maps,
    load_map,
    parse_map,
)

REFERENCE_DIR = Path(__file__).resolve().parents[2] / "maps" / "reference"
SOURCE = "maps/broken.json"


# ---------------------------------------------------------------------------------------------
# The shipped maps
# ---------------------------------------------------------------------------------------------

COUNTS = {  # cities, routes, tickets, {deck: count}
    "usa": (36, 100, 30, {"main": 30}),
    "europe": (47, 101, 46, {"short": 40, "long": 6}),
    "nordic": (39, 81, 46, {"main": 46}),
    "germany": (40, 110, 89, {"short": 55, "long": 34}),
}


def test_available_maps_lists_the_shipped_maps():
    assert set(COUNTS) <= set(available_maps())
    assert available_maps() == sorted(available_maps())


@pytest.mark.parametrize("map_id", sorted(COUNTS))
def test_shipped_map_loads_with_reference_counts(map_id):
    m = load_map(map_id)
    cities, routes, tickets, decks = COUNTS[map_id]
    assert m.id == map_id
    assert (len(m.cities), len(m.routes), len(m.tickets)) == (cities, routes, tickets)
    assert {d: len(m.ticket_deck(d)) for d in m.deck_names()} == decks
    assert dict(m.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}
    assert m.provenance["source"]["repo"] == "thoun/tickettoride"
    assert "verified reference data" in m.provenance["note"]
    for city in m.cities.values():
        assert 0 <= city.x <= m.width and 0 <= city.y <= m.height


def test_load_map_is_cached_per_resolved_path():
    m = load_map("europe")
    assert load_map("europe") is m
    assert load_map(Path(__file__).resolve().parents[2] / "maps" / "europe.json") is m


def test_germany_passengers_and_countries():
    m = load_map("germany")
    passengers = m.extras["passengers"]
    assert sum(passengers.values()) == 60
    assert sum(m.extras["passenger_colors"].values()) == 60
    assert passengers["berlin"] == 5 and passengers["koln"] == 4 and passengers["leipzig"] == 3
    countries = [c.id for c in m.cities.values() if c.is_country]
    assert sorted(countries) == ["danemark", "frankreich", "niederlande", "osterreich", "schweiz"]
    for route in m.routes.values():
        into_country = m.cities[route.a].is_country or m.cities[route.b].is_country
        assert (route.border_point is not None) == into_country
    assert m.routes["freiburg-schweiz"].border_point == (243, 1711)
    # the two triple routes
    assert len(m.parallel_tracks("dortmund-dusseldorf-1")) == 2
    assert len(m.parallel_tracks("dusseldorf-koln-3")) == 2


def test_nordic_parallel_routes_of_different_length_share_a_group():
    m = load_map("nordic")
    one, two = m.routes["kristiansand-stavanger-1"], m.routes["kristiansand-stavanger-2"]
    assert one.parallel_group == two.parallel_group == "kristiansand-stavanger"
    assert (one.length, one.tunnel, two.length, two.ferry_locos) == (2, True, 3, 1)
    assert m.parallel_tracks(one.id) == (two,)
    trondheim = m.routes_between("trondheim", "mo_i_rana")
    assert [r.length for r in trondheim] == [5, 6]


def test_nordic_murmansk_route_keeps_note_and_tag():
    m = load_map("nordic")
    r = m.routes["murmansk-lieksa"]
    assert (r.length, r.color, m.points_for(r.length)) == (9, "gray", 27)
    assert r.note == "any 4 cards may replace one coloured card"
    assert "four_card_joker" in r.tags


def test_every_pair_of_routes_between_two_cities_is_one_group():
    for map_id in COUNTS:
        m = load_map(map_id)
        for route in m.routes.values():
            same_pair = [r for r in m.routes_between(route.a, route.b) if r.id != route.id]
            assert m.parallel_tracks(route.id) == tuple(same_pair)


@pytest.mark.parametrize("map_id", sorted(COUNTS))
def test_shipped_map_matches_reference_data(map_id):
    ref = json.loads((REFERENCE_DIR / f"{map_id}.json").read_text(encoding="utf-8"))
    m = load_map(map_id)
    assert [(c["id"], c["name"], c["x"], c["y"], c.get("kind", "city")) for c in ref["cities"]] \
        == [(c.id, c.name, c.x, c.y, c.kind) for c in m.cities.values()]
    # The converter writes Murmansk-Lieksa's ends the other way round (AMBIGUITIES N1).
    swapped = {("nordic", "lieksa", "murmansk")}

    def ends(r: dict) -> tuple[str, str]:
        return (r["b"], r["a"]) if (map_id, r["a"], r["b"]) in swapped else (r["a"], r["b"])

    assert [(*ends(r), r["length"], r["color"], r["tunnel"], r["ferry_locos"])
            for r in ref["routes"]] \
        == [(r.a, r.b, r.length, r.color, r.tunnel, r.ferry_locos) for r in m.routes.values()]
    assert [(t["a"], t["b"], t["points"], t["deck"] or "main") for t in ref["tickets"]] \
        == [(t.a, t.b, t.points, t.deck) for t in m.tickets.values()]
    assert json.loads(json.dumps(m.provenance["source"])) == ref["source"]
    assert m.extras.get("passengers") == ref.get("passengers")


# ---------------------------------------------------------------------------------------------
# The game map object
# ---------------------------------------------------------------------------------------------


def test_map_is_immutable_and_cheap_to_copy():
    m = load_map("usa")
    with pytest.raises(TypeError):
        m.cities["x"] = None  # type: ignore[index]
    with pytest.raises(AttributeError):
        m.name = "x"  # type: ignore[misc]
    assert copy.deepcopy(m) is m
    assert pickle.loads(pickle.dumps(m)).routes == m.routes
    assert json.loads(json.dumps(load_map("germany").extras))["passengers"]["berlin"] == 5


def test_structure_helpers():
    m = load_map("usa")
    assert [c for c in m.cities][:2] == ["atlanta", "boston"]  # file order
    r = m.routes["atlanta-charleston"]
    assert isinstance(r, Route) and r.index == 0 and not r.is_ferry
    assert r.other_end("atlanta") == "charleston" and r.other_end("charleston") == "atlanta"
    with pytest.raises(ValueError):
        r.other_end("miami")
    assert m.parallel_tracks("atlanta-charleston") == ()
    assert all("atlanta" in (x.a, x.b) for x in m.routes_at("atlanta"))
    assert len(m.routes_at("atlanta")) == 7
    assert m.deck_names() == ("main",) and m.ticket_deck("long") == ()
    assert m.points_for(6) == 15
    with pytest.raises(MapError, match="no route points for length 10"):
        m.points_for(10)
    assert m.city_label("montreal") == "Montréal"


def test_route_labels():
    n = load_map("nordic")
    assert n.route_label("kristiansand-stavanger-1") == \
        "Kristiansand – Stavanger (2 green tunnel)"
    assert n.route_label("kristiansand-stavanger-2") == \
        "Kristiansand – Stavanger (3 orange ferry, 1 locomotive)"
    assert n.route_label("helsinki-stockholm-1") == \
        "Helsinki – Stockholm (4 gray ferry, 2 locomotives)"
    assert n.route_label("norrkoping-stockholm-1") == "Norrköping – Stockholm (1 red)"
    e = load_map("europe")
    assert e.route_label("berlin-frankfurt-1") == "Berlin – Frankfurt (3 red)"
    assert e.route_label("berlin-frankfurt-2") == "Berlin – Frankfurt (3 black)"
    u = load_map("usa")  # identical grey twins are told apart by their track number
    assert u.route_label("dallas-houston-1") == "Dallas – Houston (1 gray, track 1)"
    assert u.route_label("dallas-houston-2") == "Dallas – Houston (1 gray, track 2)"


@pytest.mark.parametrize("map_id", sorted(COUNTS))
def test_route_labels_are_unique_and_find_their_route(map_id):
    m = load_map(map_id)
    labels = [m.route_label(rid) for rid in m.routes]
    assert len(set(labels)) == len(labels)
    for rid, label in zip(m.routes, labels, strict=True):
        assert find_route(m, label).id == rid


def test_find_city_ignores_case_accents_and_spacing():
    n = load_map("nordic")
    assert find_city(n, "Lieska").id == "lieksa"  # alias (the seed rulebook's spelling)
    assert find_city(n, "LIEKSA").id == "lieksa"
    assert find_city(n, "malmo") is None  # not on the map
    assert find_city(n, "Tromso").id == "tromso" and find_city(n, "Tromsø").id == "tromso"
    assert find_city(n, "goteborg").id == find_city(n, "Gothenburg").id == "goteborg"
    assert find_city(n, "  mo   i rana ").id == "mo_i_rana"
    assert find_city(n, "Aarhus").id == "arhus"  # Scandinavian transliteration
    g = load_map("germany")
    for text in ("Köln", "koln", "Koeln", "Cologne", "köln"):
        assert find_city(g, text).id == "koln"
    assert find_city(g, "Munich").id == find_city(g, "Muenchen").id == "munchen"
    assert find_city(g, "Austria").is_country
    u = load_map("usa")
    assert find_city(u, "kansas_city").id == "kansas_city"
    assert find_city(u, "St. Louis").id == find_city(u, "saint louis").id == "saint_louis"
    assert find_city(u, "Montreal").id == "montreal"
    assert find_city(u, "") is None and find_city(u, "Atlantis") is None


def test_suggest_cities():
    n = load_map("nordic")
    assert suggest_cities(n, "Stockhlm") == ["Stockholm"]
    assert "San Francisco" in suggest_cities(load_map("usa"), "san")
    assert len(suggest_cities(load_map("usa"), "san", n=1)) == 1
    assert suggest_cities(n, "") == [] and suggest_cities(n, "qqqqqqqq") == []


def test_find_route_by_id_names_either_order_and_separators():
    n = load_map("nordic")
    for text in ("lieksa-murmansk", "Murmansk - Lieska", "Murmansk – Lieksa", "Lieksa-Murmansk",
                 "murmansk to lieksa", "Lieksa — Murmansk", "murmansk lieksa", "LIEKSA-MURMANSK"):
        assert find_route(n, text).id == "murmansk-lieksa", text
    u = load_map("usa")
    assert find_route(u, "Sault St. Marie - Duluth").id == "duluth-sault_st_marie"
    assert find_route(u, "new york to montreal").id == "montreal-new_york"
    assert find_route(u, "Oslo - Stockholm") is None  # no such cities
    assert find_route(u, "Miami - Seattle") is None  # no such route
    assert find_route(u, "") is None and find_route(u, "Miami") is None


def test_find_route_colour_and_type_pick_a_parallel_track():
    e = load_map("europe")
    assert find_route(e, "Berlin – Frankfurt") is None  # red or black: ambiguous
    assert find_route(e, "Berlin – Frankfurt red").id == "berlin-frankfurt-1"
    assert find_route(e, "frankfurt-berlin BLACK").id == "berlin-frankfurt-2"
    assert find_route(e, "red Berlin-Frankfurt").id == "berlin-frankfurt-1"
    assert find_route(e, "Berlin – Frankfurt (3 black)").id == "berlin-frankfurt-2"
    assert find_route(e, "Berlin – Frankfurt green") is None  # no green track
    assert find_route(e, "Berlin – Frankfurt red black") is None  # contradiction
    n = load_map("nordic")
    assert find_route(n, "Stavanger - Kristiansand") is None
    assert find_route(n, "Stavanger - Kristiansand tunnel").id == "kristiansand-stavanger-1"
    assert find_route(n, "Stavanger - Kristiansand ferry").id == "kristiansand-stavanger-2"
    assert find_route(n, "Stavanger Kristiansand 3").id == "kristiansand-stavanger-2"
    assert find_route(n, "Helsinki - Stockholm grey").id == "helsinki-stockholm-1"
    # a colour that does not match the only route is refused, not ignored
    assert find_route(n, "Lieksa - Murmansk red") is None


def test_find_route_identical_twins():
    u = load_map("usa")
    # identical tracks: either will do, the first is returned (callers pick a free twin)
    assert find_route(u, "Dallas - Houston").id == "dallas-houston-1"
    assert find_route(u, "Dallas - Houston track 2").id == "dallas-houston-2"
    assert find_route(u, "dallas houston #2").id == "dallas-houston-2"
    assert find_route(u, "dallas-houston-2").id == "dallas-houston-2"
    assert find_route(u, "Kansas City - Saint Louis") is None  # blue or pink


# ---------------------------------------------------------------------------------------------
# Validation: one small broken map per rule
# ---------------------------------------------------------------------------------------------


def small_map() -> dict:
    """A valid map: a triangle with a double route, two tickets and passengers."""
    return {
        "id": "broken",
        "name": "Broken",
        "provenance": {"note": "test"},
        "coordinates": {"width": 100, "height": 100},
        "route_points": {"1": 1, "2": 2, "3": 4},
        "cities": [
            {"id": "alpha", "name": "Älpha", "x": 10, "y": 10},
            {"id": "beta", "name": "Beta", "x": 50, "y": 50, "aliases": ["Bee"]},
            {"id": "gamma", "name": "Gamma", "x": 90, "y": 90, "kind": "country", "tags": {}},
        ],
        "routes": [
            {"id": "alpha-beta", "a": "alpha", "b": "beta", "length": 2, "color": "red",
             "tunnel": False, "ferry_locos": 0, "parallel_group": None},
            {"id": "beta-gamma-1", "a": "beta", "b": "gamma", "length": 3, "color": "gray",
             "tunnel": True, "ferry_locos": 0, "parallel_group": "beta-gamma", "tags": []},
            {"id": "beta-gamma-2", "a": "beta", "b": "gamma", "length": 3, "color": "blue",
             "tunnel": False, "ferry_locos": 1, "parallel_group": "beta-gamma",
             "border_point": {"x": 80, "y": 80}, "note": "n"},
        ],
        "tickets": [
            {"id": "alpha-gamma", "a": "alpha", "b": "gamma", "points": 5, "deck": "short"},
            {"id": "alpha-gamma-2", "a": "alpha", "b": "gamma", "points": 6, "deck": "long"},
        ],
        "extras": {"passengers": {"alpha": 2, "gamma": 1},
                   "passenger_colors": {"red": 2, "blue": 1}},
    }


def test_small_map_is_valid():
    m = parse_map(small_map(), SOURCE)
    assert isinstance(m, GameMap)
    assert find_route(m, "Bee - Gamma blue").id == "beta-gamma-2"
    assert find_city(m, "alpha").name == "Älpha"
    assert m.routes["beta-gamma-2"].note == "n" and m.routes["beta-gamma-2"].is_ferry
    assert m.deck_names() == ("short", "long")


def route(data: dict, n: int) -> dict:
    return data["routes"][n]


def city(data: dict, n: int) -> dict:
    return data["cities"][n]


def ticket(data: dict, n: int) -> dict:
    return data["tickets"][n]


BROKEN = [
    # (name, change to the small map, exact text the message must contain)
    ("unknown top-level key", lambda d: d.update(rutes=[]),
     "maps/broken.json: unknown top-level field 'rutes'"),
    ("missing top-level key", lambda d: d.pop("tickets"),
     "maps/broken.json: missing top-level field 'tickets'"),
    ("mistyped top-level key", lambda d: d.update(routes={}),
     "maps/broken.json: top level: field 'routes' must be a list"),
    ("bad coordinates", lambda d: d["coordinates"].update(width=0),
     "maps/broken.json: coordinates: width and height must be greater than 0"),
    ("bad route_points key", lambda d: d["route_points"].update(x=3),
     "maps/broken.json: route_points 'x': lengths must be whole numbers"),
    ("missing city field", lambda d: city(d, 1).pop("x"),
     "maps/broken.json: city 'beta' (#2): missing field 'x'"),
    ("mistyped city field", lambda d: city(d, 1).update(y="50"),
     "maps/broken.json: city 'beta' (#2): field 'y' must be a number, not a string \"50\""),
    ("unknown city field", lambda d: city(d, 1).update(alias=["B"]),
     "maps/broken.json: city 'beta' (#2): unknown field 'alias'"),
    ("city without id", lambda d: city(d, 1).pop("id"),
     "maps/broken.json: city #2: missing field 'id'"),
    ("bad city id", lambda d: city(d, 1).update(id="be-ta"),
     "maps/broken.json: city 'be-ta' (#2): city id 'be-ta' must be lowercase"),
    ("duplicate city id", lambda d: city(d, 2).update(id="beta"),
     "maps/broken.json: city 'beta' (#3): duplicate city id 'beta'"),
    ("unknown city kind", lambda d: city(d, 2).update(kind="region"),
     "maps/broken.json: city 'gamma' (#3): unknown kind 'region'"),
    ("city outside the drawing space", lambda d: city(d, 2).update(x=101),
     "maps/broken.json: city 'gamma' (#3): position (101, 90) lies outside the drawing space"),
    ("negative coordinate", lambda d: city(d, 0).update(y=-1),
     "maps/broken.json: city 'alpha' (#1): position (10, -1) lies outside"),
    ("names that clash", lambda d: city(d, 2).update(aliases=["bee"]),
     "maps/broken.json: city 'gamma' (#3): the name 'bee' also names city 'beta'"),
    ("missing route field", lambda d: route(d, 0).pop("color"),
     "maps/broken.json: route 'alpha-beta' (#1): missing field 'color'"),
    ("mistyped route field", lambda d: route(d, 0).update(length="2"),
     "maps/broken.json: route 'alpha-beta' (#1): field 'length' must be an integer"),
    ("mistyped tunnel", lambda d: route(d, 0).update(tunnel=0),
     "maps/broken.json: route 'alpha-beta' (#1): field 'tunnel' must be true or false"),
    ("unknown route field", lambda d: route(d, 0).update(tunel=True),
     "maps/broken.json: route 'alpha-beta' (#1): unknown field 'tunel'"),
    ("duplicate route id", lambda d: route(d, 2).update(id="beta-gamma-1"),
     "maps/broken.json: route 'beta-gamma-1' (#3): duplicate route id 'beta-gamma-1'"),
    ("unknown city in a route", lambda d: route(d, 0).update(b="zzz"),
     "maps/broken.json: route 'alpha-beta' (#1): unknown city 'zzz'"),
    ("route to itself", lambda d: route(d, 0).update(b="alpha"),
     "maps/broken.json: route 'alpha-beta' (#1): both ends are the same city 'alpha'"),
    ("unknown colour", lambda d: route(d, 0).update(color="purple"),
     "maps/broken.json: route 'alpha-beta' (#1): unknown colour 'purple'"),
    ("length below 1", lambda d: route(d, 0).update(length=0),
     "maps/broken.json: route 'alpha-beta' (#1): length must be at least 1, not 0"),
    ("length without points", lambda d: route(d, 0).update(length=4),
     "maps/broken.json: route 'alpha-beta' (#1): length 4 has no entry in route_points"),
    ("negative ferry locos", lambda d: route(d, 0).update(ferry_locos=-1),
     "maps/broken.json: route 'alpha-beta' (#1): ferry_locos must not be negative"),
    ("ferry locos above length", lambda d: route(d, 0).update(ferry_locos=3),
     "maps/broken.json: route 'alpha-beta' (#1): ferry_locos 3 is more than the length 2"),
    ("bad route tag", lambda d: route(d, 0).update(tags=["Bad Tag"]),
     "maps/broken.json: route 'alpha-beta' (#1): field 'tags' must be a list of lowercase"),
    ("border point outside", lambda d: route(d, 2).update(border_point={"x": 5, "y": 500}),
     "maps/broken.json: route 'beta-gamma-2' (#3): border_point (5, 500) lies outside"),
    ("group joining different pairs",
     lambda d: route(d, 2).update(a="alpha", b="gamma", id="alpha-gamma"),
     ("maps/broken.json: route 'alpha-gamma' (#3): parallel group 'beta-gamma' joins "
     "beta–gamma on route 'beta-gamma-1' but alpha–gamma here")),
    ("group with one track",
     lambda d: route(d, 0).update(parallel_group="alpha-beta", id="alpha-beta-1"),
     ("maps/broken.json: route 'alpha-beta-1' (#1): parallel group 'alpha-beta' has only this "
     "one track")),
    ("same pair without a shared group",
     lambda d: route(d, 2).update(parallel_group=None, id="beta-gamma"),
     ("maps/broken.json: route 'beta-gamma' (#3): joins the same cities as route "
     "'beta-gamma-1' but they do not share a parallel group")),
    ("route id against the convention", lambda d: route(d, 0).update(id="ab"),
     ("maps/broken.json: route 'ab' (#1): a route without parallel tracks must have the id "
     "'alpha-beta'")),
    ("parallel track id against the convention", lambda d: route(d, 1).update(id="bg"),
     "maps/broken.json: route 'bg' (#2): a parallel track must have the id 'beta-gamma-N'"),
    ("disconnected board",
     lambda d: d["cities"].append({"id": "delta", "name": "Delta", "x": 1, "y": 1}),
     ("maps/broken.json: routes: the board is disconnected: 1 city ('delta') cannot be "
     "reached from 'alpha'")),
    ("missing ticket field", lambda d: ticket(d, 0).pop("deck"),
     "maps/broken.json: ticket 'alpha-gamma' (#1): missing field 'deck'"),
    ("duplicate ticket id", lambda d: ticket(d, 1).update(id="alpha-gamma"),
     "maps/broken.json: ticket 'alpha-gamma' (#2): duplicate ticket id 'alpha-gamma'"),
    ("unknown city in a ticket", lambda d: ticket(d, 0).update(b="zzz", id="alpha-zzz"),
     "maps/broken.json: ticket 'alpha-zzz' (#1): unknown city 'zzz'"),
    ("ticket to itself", lambda d: ticket(d, 0).update(b="alpha", id="alpha-alpha"),
     "maps/broken.json: ticket 'alpha-alpha' (#1): both ends are the same city 'alpha'"),
    ("ticket points below 1", lambda d: ticket(d, 0).update(points=0),
     "maps/broken.json: ticket 'alpha-gamma' (#1): points must be at least 1, not 0"),
    ("unknown deck", lambda d: ticket(d, 0).update(deck="blue"),
     "maps/broken.json: ticket 'alpha-gamma' (#1): unknown deck 'blue'"),
    ("ticket id against the convention", lambda d: ticket(d, 1).update(id="alpha-gamma-x"),
     "maps/broken.json: ticket 'alpha-gamma-x' (#2): a ticket must have the id 'alpha-gamma'"),
    ("passengers on an unknown city",
     lambda d: d["extras"]["passengers"].update(zzz=0),
     "maps/broken.json: extras.passengers 'zzz': unknown city 'zzz'"),
    ("passenger totals differ", lambda d: d["extras"]["passengers"].update(beta=1),
     ("maps/broken.json: extras: passengers on the board (4) and passenger_colors (3) must "
     "have the same total")),
    ("passengers without colours", lambda d: d["extras"].pop("passenger_colors"),
     "maps/broken.json: extras: 'passengers' and 'passenger_colors' must both be objects"),
]


@pytest.mark.parametrize(("change", "message"), [case[1:] for case in BROKEN],
                         ids=[case[0] for case in BROKEN])
def test_validation_rule(change, message):
    data = small_map()
    change(data)
    with pytest.raises(MapError, match=re.escape(message)):
        parse_map(data, SOURCE)


def test_map_error_is_a_value_error():
    assert issubclass(MapError, ValueError)


def test_every_route_colour_is_accepted():
    for colour in COLORS:
        data = small_map()
        route(data, 0)["color"] = colour
        assert parse_map(data, SOURCE).routes["alpha-beta"].color == colour


def test_load_map_checks_file_name_json_and_duplicate_keys(tmp_path):
    good = tmp_path / "broken.json"
    good.write_text(json.dumps(small_map()), encoding="utf-8")
    assert load_map(str(good)).id == "broken"

    renamed = tmp_path / "other.json"
    renamed.write_text(json.dumps(small_map()), encoding="utf-8")
    with pytest.raises(MapError, match=re.escape("other.json: top level: map id 'broken' does "
                                                 "not match the file name 'other.json'")):
        load_map(renamed)

    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{", encoding="utf-8")
    with pytest.raises(MapError, match=r"bad\.json: not valid JSON"):
        load_map(bad_json)

    twice = tmp_path / "twice.json"
    twice.write_text('{"id": "twice", "id": "twice"}', encoding="utf-8")
    with pytest.raises(MapError, match=r"twice\.json: key 'id' appears twice"):
        load_map(twice)


def test_load_map_unknown_ids():
    with pytest.raises(MapError, match=r"maps/nowhere\.json: no such map 'nowhere'"):
        load_map("nowhere")
    with pytest.raises(MapError, match=r"is not a map id"):
        load_map("Europe")
