"""Alsace: the reconstructed board (maps/alsace.json) and the rules that need more than a
scenario (AMBIGUITIES A1, A2, A13, secrets, the greedy AI). Rule cases are in
tests/scenarios/alsace/."""

from __future__ import annotations

import dataclasses
import importlib.util
import itertools
import json
import math
from collections import Counter
from pathlib import Path

import msgspec
import pytest

from engine.core import Game
from engine.errors import IllegalAction
from engine.game import apply, legal_actions, new_game, view
from engine.graph import train_distances
from engine.maps import load_map
from engine.rules.tourist_cards import TouristView
from engine.rulesets import build_ruleset
from tools.selfplay import play_game

ROOT = Path(__file__).resolve().parents[2]
SEED = (ROOT.parent / "shared" / "seeds" / "alsace-fan-expansion.txt")
ATTRACTION_TOWNS = {"montbeliard", "mulhouse", "belfort", "thann", "altkirch", "kruth", "muhlbach_sur_munster",
                    "colmar"}


@pytest.fixture(scope="module")
def board():
    return load_map("alsace")


def _generator():
    return importlib.import_module("tools.maps.build_alsace")


def _shortest(board, start: str) -> dict[str, int]:
    # The engine's own Dijkstra, while the generator uses networkx's: two implementations agree.
    return train_distances([(r.id, r.a, r.b, r.length) for r in board.routes.values()], start)


# --- the board --------------------------------------------------------------------------------


def test_the_generator_reproduces_the_shipped_file():
    gen = _generator()
    data = gen.build()
    text = (ROOT / "maps" / "alsace.json").read_text(encoding="utf-8")
    assert json.loads(text) == data
    assert gen.dump(data) == text


def test_the_board_says_it_is_a_reconstruction(board):
    assert board.provenance["generated_by"] == "tools/maps/build_alsace.py"
    assert "reconstruction" in board.provenance["note"]


def test_every_attraction_town_is_on_the_board_and_every_town_is_tagged(board):
    assert set(board.cities) >= ATTRACTION_TOWNS
    countries = Counter(c.tags["country"] for c in board.cities.values())
    assert set(countries) == {"FR", "DE", "CH"}
    for city in board.cities.values():
        if city.tags["country"] == "FR":
            assert city.tags["french_region"] in {"Alsace", "Franche-Comté", "Lorraine"}
        else:
            assert "french_region" not in city.tags


def test_towns_are_placed_from_latitude_and_longitude_and_far_enough_apart(board):
    gen = _generator()
    for city in board.cities.values():
        assert (city.x, city.y) == gen.project(city.tags["lat"], city.tags["lon"])
    for a, b in itertools.combinations(board.cities.values(), 2):
        assert math.dist((a.x, a.y), (b.x, b.y)) >= 60, (a.id, b.id)


def test_the_perimeter_is_a_closed_ring_along_the_edge(board):
    ring = [r for r in board.routes.values() if "perimeter" in r.tags]
    pairs = {frozenset(r.ends) for r in ring}
    degree = Counter(c for p in pairs for c in p)
    assert len(pairs) >= 10 and set(degree.values()) == {2}
    # every town of the ring is outside the board's inner towns: on the convex rim, roughly
    cx = sum(c.x for c in board.cities.values()) / len(board.cities)
    cy = sum(c.y for c in board.cities.values()) / len(board.cities)
    rim = {c for p in pairs for c in p}
    inner = [c for c in board.cities.values() if c.id not in rim]
    far = min(math.dist((cx, cy), (board.cities[c].x, board.cities[c].y)) for c in rim)
    assert far > 0.4 * max(math.dist((cx, cy), (c.x, c.y)) for c in inner)


def test_tunnels_cross_the_vosges_and_the_jura_and_one_is_the_north_south_tunnel(board):
    tunnels = [r for r in board.routes.values() if r.tunnel]
    notes = " ".join(r.note for r in tunnels)
    assert "Vosges" in notes and "Jura" in notes
    assert not any(r.is_ferry for r in board.routes.values())
    ns = [r for r in board.routes.values() if "north_south_tunnel" in r.tags]
    assert ns and all(r.tunnel for r in ns)
    assert len({r.parallel_group or r.id for r in ns}) == 1  # one tunnel (a double route)
    a, b = (board.cities[c] for c in ns[0].ends)
    assert abs(a.x - b.x) < abs(a.y - b.y)  # it runs north-south


def test_tickets_are_worth_their_shortest_connection_and_reachable(board):
    assert len(board.tickets) >= 30
    for ticket in board.tickets.values():
        assert ticket.deck == "main"
        assert _shortest(board, ticket.a)[ticket.b] == ticket.points


def test_the_tourist_deck_is_the_seed_list_plus_passes_and_devils(board):
    """A2: the 15 listed attractions once each + 2 Visitor Passes (10) + 9 Lucky Devils."""
    cards = board.extras["tourist_cards"]
    kinds = Counter(c["kind"] for c in cards)
    assert kinds == {"attraction": 15, "visitor_pass": 2, "lucky_devil": 9}
    assert {c["points"] for c in cards if c["kind"] == "visitor_pass"} == {10}
    attractions = [c for c in cards if c["kind"] == "attraction"]
    assert {c["city"] for c in attractions} == ATTRACTION_TOWNS
    if SEED.exists():
        text = SEED.read_text(encoding="utf-8")
        for c in attractions:
            assert f"{c['name']}: {c['points']}" in text


# --- rules ------------------------------------------------------------------------------------


def test_player_count_is_2_to_5():
    """A13."""
    for n in (2, 5):
        build_ruleset("alsace", n)
    for n in (1, 6):
        with pytest.raises(IllegalAction):
            build_ruleset("alsace", n)


def test_alsace_refuses_to_start_without_its_data():
    """A1: the rules are data-driven; a board without a tourist deck cannot start."""
    rules = build_ruleset("alsace", 2)
    state, _ = new_game("alsace", 2, 1)
    bare = dataclasses.replace(load_map("alsace"), extras={})
    tickets = rules.module("tickets")
    assert tickets is not None
    with pytest.raises(IllegalAction, match="no tourist deck"):
        tickets.setup(Game(state.clone(), rules, bare))


def test_tourist_cards_and_the_tourist_deck_are_secret():
    state, _ = new_game("alsace", 3, 5)
    for seat in range(3):
        keep = legal_actions(state, seat)[-1]
        state, _ = apply(state, keep)
    seen = view(state, 0)
    part = seen.part(TouristView)
    assert part is not None and part.mine == tuple(state.players[0].private["tourist"])
    assert part.counts[1] == len(state.players[1].private["tourist"])
    assert part.deck == len(state.secret["tourist_deck"])
    text = json.dumps(msgspec.to_builtins(seen))
    assert not [c for c in state.players[1].private["tourist"] if f'"{c}"' in text]  # not another's cards
    assert not [c for c in state.secret["tourist_deck"] if f'"{c}"' in text]  # nor the deck


def test_burn_five_and_the_used_card_rule_are_dropped_under_dice():
    """rules/README.md: rules that need train cards are off under the Dice Expansion."""
    rules = build_ruleset("alsace", 2, {"dice": True})
    names = {m.name for m in rules.modules}
    assert "burn_five" not in names and "used_cards_under_deck" not in names
    assert "tickets" in names


def test_greedy_games_finish_and_award_every_bonus():
    bonuses: Counter[str] = Counter()
    for seed in range(1, 31):
        record = play_game("alsace", 4, seed, ("greedy",))
        assert record.state.game_over, record.ended
        for sheet in record.state.result["sheets"]:
            bonuses.update(sheet["bonuses"])
    assert set(bonuses) == {"Longest journey", "Longest perimeter route", "Most tunnels", "Most foreign countries",
                            "Most French cities", "Most completed tickets", "Least incomplete tickets",
                            "Most French regions", "North-South tunnel"}
