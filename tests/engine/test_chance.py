"""The one seam for chance (engine/chance.py): every random draw of the rules goes through
it, the default is the game's own seeded generator (replay stays bit for bit), and a test can
rig the dice without leaving anything in the game state."""

from __future__ import annotations

import json
import re
from collections.abc import MutableSequence, Sequence
from pathlib import Path
from typing import Any

import pytest

from ai.levels import make_ai
from engine.chance import Chance, DiceExhausted, RiggedDice
from engine.game import actors, apply, legal_actions, load_game, new_game, replay
from engine.rng import Rng, seed_state
from engine.rules.dice.roll import roll
from engine.rulesets import available_variants
from tools.selfplay import MAX_DECISIONS, play_game

ENGINE = Path(__file__).resolve().parents[2] / "engine"
DICE = {"dice": True}
TRAIN = ("single", "single", "double", "double", "station", "wild")


class OwnGenerator:
    """A chance source that never touches the game's generator: if every draw of the rules
    goes through the seam, the state's generator never moves."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed_state(seed))
        self.calls: list[str] = []

    def over(self, seeded: Chance) -> Chance:
        return _Counting(self.rng, self.calls)


class _Counting:
    def __init__(self, rng: Rng, calls: list[str]) -> None:
        self.rng, self.calls = rng, calls

    def below(self, n: int) -> int:
        self.calls.append("below")
        return self.rng.below(n)

    def shuffle(self, items: MutableSequence[Any]) -> None:
        self.calls.append("shuffle")
        self.rng.shuffle(items)

    def roll(self, faces: Sequence[str]) -> str:
        self.calls.append("roll")
        return self.rng.roll(faces)


def test_the_default_chance_is_the_games_own_generator() -> None:
    state, _ = new_game("europe", 3, 4, DICE)
    game = load_game(state)
    assert game.chance is game.rng
    assert isinstance(game.rng, Rng)


def test_rigged_faces_take_nothing_from_the_generator_then_it_rolls() -> None:
    state, _ = new_game("usa", 2, 5, DICE)
    game = load_game(state.clone(), RiggedDice(["wild", "station", "single"]))
    rolled = roll(game, 3, TRAIN)
    assert rolled == ["wild", "station", "single"]
    assert game.rng.state == state.rng  # rigged faces are not drawn from the generator
    # Once they run out the generator rolls, from where it stood.
    assert roll(game, 4, TRAIN) == roll(load_game(state.clone()), 4, TRAIN)


def test_rigged_dice_fail_loudly_when_told_to() -> None:
    state, _ = new_game("usa", 2, 5, DICE)
    game = load_game(state.clone(), RiggedDice(["double"], then="fail"))
    assert roll(game, 1, TRAIN) == ["double"]
    with pytest.raises(DiceExhausted):
        roll(game, 1, TRAIN)
    with pytest.raises(ValueError, match="not on this die"):
        roll(load_game(state.clone(), RiggedDice(["tunnel"])), 1, TRAIN)
    with pytest.raises(ValueError):
        RiggedDice([], then="later")  # type: ignore[arg-type]


def test_rigged_dice_leave_no_trace_in_the_state_and_replay_with_the_same_rigging() -> None:
    faces = ["single"] * 5 + ["double"] * 5 + ["wild"] * 5
    state, _ = new_game("europe", 2, 9, DICE, first_player=0)
    rigged = RiggedDice(faces)
    actions = []
    while len(actions) < 40 and not state.game_over:
        seat = next(s for s in range(2) if legal_actions(state, s))
        action = legal_actions(state, seat)[-1]  # keep every ticket offered, then pass (no action, no token)
        state, _ = apply(state, action, rigged)
        actions.append(action)
        assert state.secret == {}  # nothing of the rigging is kept in the game
    assert rigged.left == ()
    again = replay("europe", 2, 9, actions, DICE, first_player=0, chance=RiggedDice(faces))
    assert again.to_canonical() == state.to_canonical()
    # The two opening ticket choices start the first turn: its dice are the rigged ones.
    opening = replay("europe", 2, 9, actions[:2], DICE, first_player=0, chance=RiggedDice(faces))
    assert opening.players[0].public["dice"] == ["single"] * 5


@pytest.mark.parametrize("variant", available_variants())
def test_every_draw_goes_through_the_seam(variant: str) -> None:
    """Deal and play a whole game, with dice and with cards, drawing only from another source:
    the game's own generator never moves, so nothing reached around the seam."""
    for options in (DICE, {}):
        source = OwnGenerator(3)
        state, _ = new_game(variant, 3, 7, options, chance=source)
        start = state.rng
        players = [make_ai("random", seat) for seat in range(3)]
        steps = 0
        while not state.game_over and steps < MAX_DECISIONS:
            seat = actors(state)[0]
            state, _ = apply(state, players[seat].choose(None, legal_actions(state, seat)), source)
            steps += 1
            assert state.rng == start
        assert state.game_over
        assert {"below", "shuffle"} <= set(source.calls)
        assert ("roll" in source.calls) == bool(options)


@pytest.mark.parametrize("variant", available_variants())
def test_a_dice_game_replays_bit_for_bit_from_its_seed_and_actions(variant: str) -> None:
    """The state and every event, step by step, with dice on every board."""
    record = play_game(variant, 3, 21, ("greedy", "random"), DICE)
    assert record.state.game_over
    state, events = new_game(variant, 3, 21, DICE)
    for action in record.actions:
        state, events = apply(state, action)
        json.dumps([e.to_json() for e in events])
    assert state.to_canonical() == record.state.to_canonical()
    assert replay(variant, 3, 21, record.actions, DICE).to_canonical() == record.state.to_canonical()


def test_no_rule_draws_from_the_generator_directly() -> None:
    """The generator is read by the core for saving and for the hidden shuffle records only;
    every draw is `game.chance` (the AIs keep generators of their own)."""
    draws = re.compile(r"\b(game|self)\.rng\.(?!state\b)\w+")
    offenders = [
        f"{p.relative_to(ENGINE)}: {m.group(0)}"
        for p in ENGINE.rglob("*.py")
        if p.name not in ("ai.py", "rng.py")
        for m in draws.finditer(p.read_text(encoding="utf-8"))
    ]
    assert offenders == []
