"""The dice listings reuse the actions they made before (engine/rules/dice/: claims, re-rolls,
token purchases and discards, ticket draws, stations): a listing from warm caches must be the
very list a listing from empty ones makes, in the same order, and claims come in map order."""

from __future__ import annotations

import pytest

from ai.levels import make_ai
from engine.actions import Action, ClaimRoute
from engine.game import actors, apply, legal_actions, new_game
from engine.maps import load_map
from engine.rules.dice import claims, discard, purse, roll, stations, tickets, tokens


def _forget_every_cache() -> None:
    claims._forget()
    for cache in (tokens._BUYS, roll._REROLLS, tickets._DRAWS, stations._BUILDS, discard._DISCARDS,
                  purse._PAYMENTS):
        cache.clear()


def _as_data(actions: list[Action]) -> list[dict]:
    return [a.to_json() for a in actions]


@pytest.mark.parametrize("variant", ["europe", "germany", "nordic"])
def test_warm_listings_equal_fresh_ones(variant: str) -> None:
    players = 3 if variant == "nordic" else 4
    state, _ = new_game(variant, players, 77, {"dice": True})
    ai = make_ai("random", 5)
    order = {rid: i for i, rid in enumerate(load_map(state.map_id).routes)}
    checked = 0
    while not state.game_over and checked < 300:
        seat = actors(state)[0]
        warm = legal_actions(state, seat)
        _forget_every_cache()
        fresh = legal_actions(state, seat)
        assert _as_data(warm) == _as_data(fresh)
        places = [order[a.route] for a in warm if isinstance(a, ClaimRoute)]
        assert places == sorted(places)  # claims in map order
        state, _ = apply(state, ai.choose(None, warm))
        checked += 1
    assert checked == 300 or state.game_over
