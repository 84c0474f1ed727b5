"""The order of a state's dicts is not part of the game. A live game's dicts keep the order
their keys were added in (the order stations were built, cards drawn, routes claimed); a game
read back from its snapshot after a restart has them sorted (canonical JSON). If any rule
depended on that order, a restart would change the game, and its snapshot would differ from a
replay of its log. So: every variant, with and without dice, is played with every move also
applied to a copy of the state whose every dict is reversed, and both must give the same
state and the same events."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine.actions import Action
from engine.events import Event
from engine.game import apply, load_game, new_game
from engine.rules.tickets import ticket_outcomes
from engine.rulesets import available_variants, build_ruleset
from engine.state import GameState, PlayerState, canonical_json
from tools.selfplay import play_game


def reversed_dicts(value: Any) -> Any:
    """`value` with the keys of every dict in it, at any depth, in reverse order."""
    if isinstance(value, dict):
        return {k: reversed_dicts(value[k]) for k in reversed(list(value))}
    if isinstance(value, list):
        return [reversed_dicts(v) for v in value]
    return value


def with_dicts_reversed(state: GameState) -> GameState:
    """A copy of `state` equal to it in every value, its dicts' keys in reverse order."""
    out = state.clone()
    for f in dataclasses.fields(GameState):
        if f.name != "players":
            setattr(out, f.name, reversed_dicts(getattr(out, f.name)))
    for player in out.players:
        for f in dataclasses.fields(PlayerState):
            setattr(player, f.name, reversed_dicts(getattr(player, f.name)))
    return out


def _events(events: list[Event]) -> str:
    return canonical_json([[e.kind, e.payload.to_data(), e.visibility, e.seat] for e in events])


def _tables() -> list[tuple[str, int, bool]]:
    out = []
    for variant in available_variants():
        for dice in (False, True):
            options = {"dice": True} if dice else {}
            for players in (2, 3):
                build_ruleset(variant, players, options)  # every variant seats 2 and 3
            out.append((variant, 3 if variant in ("europe", "ussr", "alsace") else 2, dice))
    return out


@pytest.mark.parametrize(("variant", "players", "dice"), _tables())
def test_no_rule_depends_on_the_order_of_the_states_dicts(variant: str, players: int, dice: bool) -> None:
    checked = 0

    def check(before: GameState, action: Action | None, after: GameState, events: list[Event]) -> None:
        nonlocal checked
        if action is None:
            return
        other, other_events = apply(with_dicts_reversed(before), action)
        assert other.to_canonical() == after.to_canonical(), f"{action} gave another state with the dicts reversed"
        assert _events(other_events) == _events(events), f"{action} gave other events with the dicts reversed"
        checked += 1

    options = {"undo": True, **({"dice": True} if dice else {})}
    for seed in (1, 2, 3):
        record = play_game(variant, players, seed, ("greedy", "random"), options, check)
        assert record.ended != "stalled" and record.state.status == "over"
    assert checked > 100


def test_equal_station_loans_go_to_the_same_station_whatever_order_they_were_built_in() -> None:
    """The case that a restart once changed (X2): one route that either of two stations of
    the same player could lend."""
    state, _ = new_game("europe", 2, 7)
    state.players[0].routes = ["munchen-zurich", "munchen-wien"]
    state.players[0].tickets = ["zurich-budapest"]
    state.route_owner = {"munchen-zurich": 0, "munchen-wien": 0, "budapest-wien-1": 1}
    outcomes = []
    for built in (["wien", "budapest"], ["budapest", "wien"]):
        state.stations = {city: 0 for city in built}
        outcomes.append(ticket_outcomes(load_game(state), 0))
    assert outcomes[0] == outcomes[1]
    assert [dict(o.loans) for o in outcomes[0]] == [{"budapest": None, "wien": "budapest-wien-1"}]
