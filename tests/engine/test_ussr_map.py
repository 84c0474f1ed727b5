"""The USSR board (maps/ussr.json), a reconstruction authored by the project: its figures,
its special routes, its tickets, and that the generator still produces it.

Ticket rule (as on the official boards): a ticket is worth the trains of the shortest
connection between its cities; short tickets are worth 5-13, long ones 17-25.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from bot_app.presentation.names import find_city, find_route
from engine.cards import COLOURS
from engine.graph import train_distances
from engine.maps import load_map

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def board():
    return load_map("ussr")


def _generator():
    return importlib.import_module("tools.maps.build_ussr")


def _shortest(board, start: str) -> dict[str, int]:
    # The engine's own Dijkstra, while the generator uses networkx's: two implementations agree.
    return train_distances([(r.id, r.a, r.b, r.length) for r in board.routes.values()], start)


def test_the_generator_reproduces_the_shipped_file():
    gen = _generator()
    data = gen.build()
    assert json.loads((ROOT / "maps" / "ussr.json").read_text(encoding="utf-8")) == data
    assert gen.dump(data) == (ROOT / "maps" / "ussr.json").read_text(encoding="utf-8")


def test_counts_as_the_issue_asks(board):
    assert 40 <= len(board.cities) <= 50
    assert 90 <= len(board.routes) <= 110
    assert {r.length for r in board.routes.values()} == set(range(1, 9))
    assert dict(board.route_points) == {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}


def test_colours_are_balanced_as_on_the_official_boards(board):
    routes = Counter(r.color for r in board.routes.values())
    trains = Counter()
    for r in board.routes.values():
        trains[r.color] += r.length
    assert set(routes) == set(COLOURS) | {"gray"}
    assert len({routes[c] for c in COLOURS}) == 1, routes
    assert max(trains[c] for c in COLOURS) - min(trains[c] for c in COLOURS) <= 2, trains
    assert 0.25 <= routes["gray"] / len(board.routes) <= 0.45


def test_the_triple_route_and_the_doubles(board):
    groups = defaultdict(list)
    for r in board.routes.values():
        if r.parallel_group:
            groups[r.parallel_group].append(r)
    sizes = Counter(len(tracks) for tracks in groups.values())
    assert sizes[3] == 1 and sizes[2] >= 5
    triple = [g for g, tracks in groups.items() if len(tracks) == 3][0]
    assert {triple.split("-")[0], triple.split("-")[1]} == {"novosibirsk", "krasnoyarsk"}
    for tracks in groups.values():
        colours = [t.color for t in tracks if t.color != "gray"]
        assert len(colours) == len(set(colours)), tracks  # parallel tracks differ in colour
        assert len({(t.length, t.tunnel, t.ferry_locos) for t in tracks}) == 1
    assert all("triple_route" in t.tags for t in groups[triple])


def test_tunnels_cross_real_mountains_and_ferries_real_water(board):
    tunnels = [r for r in board.routes.values() if r.tunnel]
    ferries = [r for r in board.routes.values() if r.is_ferry]
    assert 12 <= len(tunnels) <= 20 and 10 <= len(ferries) <= 15
    notes = " ".join(r.note or "" for r in tunnels)
    for mountains in ("Caucasus", "Urals", "Carpathians", "Tian Shan", "Pamir"):
        assert mountains in notes
    notes = " ".join(r.note or "" for r in ferries)
    for water in ("Caspian", "Black Sea", "Baikal", "Tatar Strait", "Aral", "Okhotsk"):
        assert water in notes
    assert all(r.color == "gray" for r in ferries)  # seed: "Ferries are special Grey routes"
    assert all(r.note for r in board.routes.values())


def test_cities_are_placed_from_their_latitude_and_longitude(board):
    gen = _generator()
    for city in board.cities.values():
        lat, lon = city.tags["lat"], city.tags["lon"]
        assert 35 <= lat <= 72 and 20 <= lon <= 180
        assert gen.project(lat, lon) == (city.x, city.y)
    # far enough apart for labels
    pos = [(c.x, c.y) for c in board.cities.values()]
    assert min(math.dist(p, q) for p, q in itertools.combinations(pos, 2)) >= 60
    # west is left, north is up
    c = board.cities
    assert c["riga"].x < c["moskva"].x < c["sverdlovsk"].x < c["novosibirsk"].x < c["vladivostok"].x
    assert c["murmansk"].y < c["leningrad"].y < c["moskva"].y < c["rostov"].y < c["tbilisi"].y
    assert {"Leningrad", "Gorky", "Kuibyshev", "Sverdlovsk", "Alma-Ata", "Krasnovodsk"} <= {
        city.name for city in c.values()}


def test_57_tickets_worth_their_shortest_connection(board):
    decks = Counter(t.deck for t in board.tickets.values())
    assert decks == {"short": 45, "long": 12}
    pairs = [frozenset((t.a, t.b)) for t in board.tickets.values()]
    assert len(pairs) == len(set(pairs))
    for ticket in board.tickets.values():
        trains = _shortest(board, ticket.a)[ticket.b]
        assert ticket.points == trains, ticket
        low, high = (17, 25) if ticket.deck == "long" else (5, 13)
        assert low <= ticket.points <= high, ticket


def test_every_ticket_is_completable_and_every_city_has_a_ticket(board):
    for ticket in board.tickets.values():
        # one player's 45 trains are enough, even with every double route closed to them
        assert _shortest(board, ticket.a)[ticket.b] <= 45
    ends = {c for t in board.tickets.values() for c in (t.a, t.b)}
    assert ends == set(board.cities)


def test_every_route_lies_on_a_shortest_connection_of_some_ticket(board):
    """So that a player working on tickets has a reason to claim every route."""
    dist = {c: _shortest(board, c) for c in board.cities}
    used = set()
    for t in board.tickets.values():
        for r in board.routes.values():
            for x, y in ((r.a, r.b), (r.b, r.a)):
                if dist[t.a][x] + r.length + dist[y][t.b] == dist[t.a][t.b]:
                    used.add(r.parallel_group or r.id)
    assert {r.parallel_group or r.id for r in board.routes.values()} == used


def test_every_route_label_finds_its_route(board):
    for rid in board.routes:
        assert find_route(board, board.route_label(rid)).id == rid
    assert find_city(board, "Moscow").id == "moskva"
    assert find_city(board, "Stalingrad").id == "volgograd"
    assert find_city(board, "St Petersburg").id == "leningrad"


def test_the_board_says_it_is_a_reconstruction(board):
    assert "reconstruction" in board.provenance["note"]
    assert board.provenance["generated_by"] == "tools/maps/build_ussr.py"
    readme = (ROOT / "maps" / "README.md").read_text(encoding="utf-8")
    assert "## USSR" in readme and "reconstruction" in readme.split("## USSR", 1)[1]
