"""Taking back a move (engine/undo.py), over whole games of every variant with and without
dice: every move that can be taken back is taken back once to check that the game is exactly
as before it, then played on; the log with its undo entries replays to the same state; the
kept state never reaches a view. The rule cases themselves are scenarios
(tests/scenarios/*/undo.yaml)."""

from __future__ import annotations

import random

import pytest

from ai.levels import make_ai
from engine.actions import Action, ClaimRoute, DrawCard, Undo
from engine.events import PUBLIC
from engine.game import actors, apply, legal_actions, new_game, replay, view
from engine.rulesets import available_variants, ruleset_for
from engine.state import GameState
from engine.undo import KEY, can_undo

TABLES = [(variant, options) for variant in available_variants()
          for options in ({"undo": True}, {"undo": True, "dice": True})]


def _without_undo_point(state: GameState) -> str:
    copy = state.clone()
    copy.secret.pop(KEY, None)
    return copy.to_canonical()


@pytest.mark.parametrize("variant,options", TABLES, ids=[f"{v}{'-dice' if o.get('dice') else ''}" for v, o in TABLES])
def test_every_undoable_move_of_a_game_comes_back_exactly_and_the_log_replays(variant: str, options) -> None:
    players = 3 if variant != "nordic" else 2
    seed = 20261201
    state, _ = new_game(variant, players, seed, options)
    ais = [make_ai("greedy", seed + i) for i in range(players)]
    log = []
    undone = 0
    for _ in range(3000):
        if state.game_over:
            break
        seat = actors(state)[0]
        action = ais[seat].choose(view(state, seat), legal_actions(state, seat))
        after, _ = apply(state, action)
        log.append(action)
        if can_undo(after, action.player):
            # The undo point is a secret: no view, of anyone, carries it.
            for who in (None, *range(players)):
                assert "\"undo\"" not in repr(view(after, who)), "the kept state reached a view"
            back, events = apply(after, Undo(action.player))
            assert _without_undo_point(back) == _without_undo_point(state)
            assert [e.kind for e in events] == ["move_undone"] and all(e.visibility == PUBLIC for e in events)
            assert not can_undo(back, action.player), "a move is taken back once"
            log.append(Undo(action.player))
            after, _ = apply(back, action)  # and played again
            log.append(action)
            undone += 1
        state = after
    assert state.game_over
    assert undone > 0, "no move of the game could be taken back"
    again = replay(variant, players, seed, log, options)
    assert again.to_canonical() == state.to_canonical()


# Events that show a card or a die that nobody knew: a move causing one is never taken back.
SHOWING = {"card_drawn", "deck_reshuffled", "tunnel_revealed", "tickets_drawn", "dice_rolled", "tunnel_dice_rolled"}


def _hoarder(state: GameState, seat: int, rnd: random.Random) -> Action:
    """Draws blind most of the time and claims every tunnel it can: the deck runs dry, and
    tunnels are revealed from the reshuffled discards."""
    legal = legal_actions(state, seat)
    routes = ruleset_for(state).game_map.routes
    tunnels = [a for a in legal if isinstance(a, ClaimRoute) and routes[a.route].tunnel]
    blind = [a for a in legal if isinstance(a, DrawCard) and a.slot is None]
    if tunnels:
        return rnd.choice(tunnels)
    if blind and rnd.random() < 0.8:
        return blind[0]
    return rnd.choice(legal)


@pytest.mark.parametrize("variant", ["europe", "nordic", "ussr"])
def test_no_move_that_showed_a_card_can_be_taken_back_even_from_reshuffled_discards(variant: str) -> None:
    """Issue 24 item 1: with an empty deck, a tunnel's reveal came from the reshuffled
    discards and the deck looked untouched, so the undo was accepted."""
    players = 2 if variant == "nordic" else 3
    reshuffled_claims = 0
    for seed in range(12):
        state, _ = new_game(variant, players, seed, {"undo": True})
        rnd = random.Random(seed)
        while not state.game_over:
            seat = actors(state)[0]
            action = _hoarder(state, seat, rnd)
            after, events = apply(state, action)
            kinds = {e.kind for e in events}
            if isinstance(action, ClaimRoute) and "deck_reshuffled" in kinds:
                reshuffled_claims += 1
            if can_undo(after, seat):
                assert not kinds & SHOWING, f"seed {seed}: {action} could be taken back after {sorted(kinds)}"
            state = after
    assert reshuffled_claims > 0, "no claim revealed cards from the reshuffled discards"


def test_only_claims_stations_and_controller_cards_declare_themselves_undoable() -> None:
    from engine.actions import ACTION_TYPES

    undoable = sorted(name for name, cls in ACTION_TYPES.items() if cls.UNDOABLE)
    assert undoable == ["build_station", "claim_route", "play_controller"]


def test_without_the_undo_option_no_move_can_be_taken_back() -> None:
    state, _ = new_game("usa", 2, 7)
    while not state.game_over:
        seat = actors(state)[0]
        action = make_ai("greedy", 7).choose(view(state, seat), legal_actions(state, seat))
        state, _ = apply(state, action)
        assert KEY not in state.secret and not can_undo(state, action.player)


def test_the_movers_view_says_they_may_take_the_move_back_and_nobody_elses_does() -> None:
    state, _ = new_game("usa", 3, 11, {"undo": True})
    while True:
        seat = actors(state)[0]
        legal = legal_actions(state, seat)
        claims = [a for a in legal if a.TYPE == "claim_route"]
        action = claims[0] if claims else make_ai("greedy", 11).choose(view(state, seat), legal)
        state, _ = apply(state, action)
        if claims:
            break
    assert view(state, action.player).can_undo
    assert not any(view(state, s).can_undo for s in range(3) if s != action.player)
    assert not view(state, None).can_undo
