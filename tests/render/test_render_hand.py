"""The hand picture leaves nothing a player holds out of it: every badge the game's rule
modules give the player (trains, cards, tickets, stations, tokens, tourist cards, each colour of
passengers) is drawn in words, inside the picture and clear of the rest, for every variant,
with and without dice, at every player count — also for a Germany player holding all six
passenger colours in two-digit counts. Read from the layout's placed text, not the pixels."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from engine.maps import load_map
from engine.rules.passengers import PassengersView
from engine.rulesets import available_variants, build_ruleset
from engine.view import View
from render.hand import MARGIN, render_hand
from render.parts import picture_parts
from tools.samples import sample_view

TABLES = [(v, dice) for v in available_variants() for dice in (False, True)]


def held_words(view: View, seat: int) -> list[str]:
    """What the player holds, in the words of the line under the picture's title."""
    return [f"{view.players[seat].trains} trains",
            *(b.what for part in picture_parts(view) for b in part.badges(view, seat))]


def assert_everything_held_is_drawn(view: View, seat: int) -> None:
    pic = render_hand(view, seat=seat)
    width, height = pic.image.size
    drawn = [t for t in pic.texts if t.where == "hand"]
    for words in held_words(view, seat):
        boxes = [t.box for t in drawn if t.text == words]
        assert boxes, f"{words!r} is missing from the hand picture"
        x0, y0, x1, y1 = boxes[0]
        assert x0 >= 0 and y0 >= 0 and x1 <= width - MARGIN and y1 <= height, f"{words!r} is cut: {boxes[0]}"
    for a, b in itertools.combinations(drawn, 2):
        overlap = a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]
        assert not overlap, f"{a.text!r} overlaps {b.text!r}"


@pytest.mark.parametrize("variant,dice", TABLES)
def test_every_holding_shows_at_every_player_count(variant: str, dice: bool) -> None:
    rules = build_ruleset(variant, 2, {"dice": dice})
    game_map = load_map(rules.map_id)
    for players in range(rules.min_players, rules.max_players + 1):
        seat = players - 1
        assert_everything_held_is_drawn(sample_view(game_map, players=players, seed=4, seat=seat, dice=dice), seat)


@pytest.mark.parametrize("dice", [False, True])
def test_a_germany_player_holding_every_passenger_colour_sees_them_all(dice: bool) -> None:
    view = sample_view("germany", players=2, seed=4, seat=0, dice=dice)
    part = view.part(PassengersView)
    assert part is not None
    every = {"red": 12, "black": 11, "yellow": 10, "blue": 13, "green": 10, "white": 14}
    rigged = dataclasses.replace(part, held=(every, *part.held[1:]))
    view = dataclasses.replace(view, parts=tuple(rigged if p is part else p for p in view.parts))
    assert sum("passenger" in w for w in held_words(view, 0)) == 6
    assert_everything_held_is_drawn(view, 0)
