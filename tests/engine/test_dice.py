"""The Dice Expansion as a transformation of every board's rule set (engine/rules/dice/)."""

from __future__ import annotations

import pytest

from engine.chance import RiggedDice
from engine.errors import IllegalAction
from engine.game import load_game, new_game
from engine.rules.dice import DiceRoll
from engine.rules.dice.roll import roll
from engine.rulesets import available_variants, build_ruleset


@pytest.mark.parametrize("variant", available_variants())
def test_every_board_plays_with_dice_without_card_rules(variant: str) -> None:
    rules = build_ruleset(variant, 3, {"dice": True})
    assert isinstance(rules.modules[0], DiceRoll)
    assert not [m.name for m in rules.modules if getattr(m, "needs_train_cards", False)]
    state, _ = new_game(variant, 3, 1, {"dice": True})
    assert state.deck == [] and state.display == []
    assert all(p.hand == {} for p in state.players)


def test_player_counts_stay_the_maps() -> None:
    with pytest.raises(IllegalAction, match="2 to 3 players"):
        build_ruleset("nordic", 4, {"dice": True})


def test_dice_options_need_dice_and_valid_values() -> None:
    with pytest.raises(IllegalAction, match="needs the Dice Expansion"):
        build_ruleset("europe", 3, {"tunnel_die_faces": 3})
    with pytest.raises(IllegalAction, match="tunnel_die_faces"):
        build_ruleset("europe", 3, {"dice": True, "tunnel_die_faces": 7})
    with pytest.raises(IllegalAction, match="dice_nordic_9_route"):
        build_ruleset("nordic", 3, {"dice": True, "dice_nordic_9_route": "as_9"})


def test_rigged_dice_come_first_then_the_generator() -> None:
    state, _ = new_game("usa", 2, 5, {"dice": True})
    rigged = RiggedDice(["wild", "station"])
    game = load_game(state.clone(), rigged)
    faces = roll(game, 5, ("single", "double", "station", "wild"))
    assert faces[:2] == ["wild", "station"]
    assert rigged.left == ()
    assert game.state.secret == {}  # the rigging is kept outside the game


def test_tunnel_die_faces_setting_shapes_the_odds() -> None:
    state, _ = new_game("europe", 2, 5, {"dice": True})
    game = load_game(state.clone())
    for k in (0, 2, 6):
        faces = ("tunnel",) * k + ("blank",) * (6 - k)
        rolled = roll(game, 600, faces)
        share = rolled.count("tunnel") / 600
        assert abs(share - k / 6) < 0.08


def test_nordic_nine_route_counts_as_eight_in_the_longest_path_under_dice() -> None:
    """D13 "as_8": the route behaves as an 8-space route in every respect."""
    from engine.game import load_game, new_game
    from engine.rules.bonuses import longest_path_length

    for options, expected in (({"dice": True}, 8), ({}, 9)):
        state, _ = new_game("nordic", 2, 1, options)
        state.players[0].routes.append("murmansk-lieksa")
        state.route_owner["murmansk-lieksa"] = 0
        assert longest_path_length(load_game(state), 0) == expected
