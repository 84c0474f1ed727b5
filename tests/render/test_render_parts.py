"""Every rule module shows itself in the pictures, and the pictures read at Discord's size.

* Each rule module of every variant, with and without dice, has a picture part (so a new
  rule cannot be silently left out of the pictures).
* The final score picture's columns, read from the layout it drew, add up to every player's
  total, for every variant with and without dice (real self-play games, as many players as the
  rules allow).
* The board legend's text is at least 9 pixels high when the picture is shown 550 wide, never
  overlaps other text and stays in its box; the same for the hand and the final sheet.
* A dice table shows the roll and each player's tokens, never "0 cards"; an Alsace hand shows
  each tourist card with its attraction, town, value and whether it is visited.
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from engine.game import view
from engine.maps import load_map
from engine.rules.tourist_cards import TouristView
from engine.rulesets import available_variants, build_ruleset
from render import render_board, render_hand, render_scores
from render.legend import key_entries, legend_boxes
from render.parts import picture_parts, registered_names
from render.parts.base import part_for
from render.scores import BONUSES, MAX_BONUS_COLUMNS
from render.text import preview_px
from tools.samples import sample_view
from tools.selfplay import play_game

VARIANTS = available_variants()
TABLES = [(v, dice) for v in VARIANTS for dice in (False, True)]


def _players(variant: str, dice: bool) -> int:
    return build_ruleset(variant, 2, {"dice": dice}).max_players


@cache
def _finished(variant: str, dice: bool):
    record = play_game(variant, _players(variant, dice), 7, ("greedy",), options={"dice": dice})
    assert record.state.status == "over"
    return record.state


@pytest.mark.parametrize("variant,dice", TABLES)
def test_every_rule_module_has_a_picture_part(variant: str, dice: bool) -> None:
    rules = build_ruleset(variant, 2, {"dice": dice})
    missing = sorted({m.name for m in rules.modules if part_for(m) is None})
    assert missing == [], f"rule modules without a picture part: {missing}"
    assert {m.name for m in rules.modules} <= registered_names() | {"tickets"}


def test_the_pictures_never_ask_which_variant_is_played() -> None:
    """The pictures loop over the modules: no variant or map id appears in render/."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "render"
    names = set(VARIANTS)
    for path in root.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in names:
            for quote in ('"', "'"):
                assert f"{quote}{name}{quote}" not in text, f"{path.name} mentions {name!r}"


@pytest.mark.parametrize("variant,dice", TABLES)
def test_the_final_sheet_columns_add_up_to_each_total(variant: str, dice: bool) -> None:
    state = _finished(variant, dice)
    pic = render_scores(view(state, None))
    sheets = {s["seat"]: s for s in state.result["sheets"]}
    assert pic.totals is not None and set(pic.totals) == set(sheets)
    assert pic.rows is not None
    for seat, sheet in sheets.items():
        # the numbers as drawn in the player's row: one per column, then the total
        *numbers, total = (int(cell.text) for cell in pic.rows[seat])
        assert len(numbers) == len(pic.columns)
        assert numbers == [col.values[seat] for col in pic.columns]
        assert sum(numbers) == total == pic.totals[seat] == sheet["total"], (seat, numbers, total)
        # on one line, left to right
        boxes = [cell.box for cell in pic.rows[seat]]
        assert all(a[2] <= b[0] for a, b in zip(boxes, boxes[1:], strict=False))
    # every line of every sheet is in exactly one column
    lines = [line for col in pic.columns for line in col.lines]
    assert len(lines) == len(set(lines))
    assert set().union(*(s["lines"] for s in sheets.values())) <= set(lines)
    # gathered bonuses are listed one by one, and the list adds up to the column
    bonus_col = [c for c in pic.columns if c.heading == BONUSES]
    if pic.bonuses:
        assert len(bonus_col) == 1
        for seat in sheets:
            assert sum(row.won[seat] for row in pic.bonuses) == bonus_col[0].values[seat]
    # the column headings are the rulebook's names, drawn whole
    headings = " ".join(t.text for t in pic.texts)
    for col in pic.columns:
        for word in col.heading.split():
            assert word in headings


def test_alsace_gives_tourist_cards_their_own_columns_and_lists_every_bonus_awarded() -> None:
    state = _finished("alsace", False)
    pic = render_scores(view(state, None))
    headings = [c.heading for c in pic.columns]
    assert "Tourist cards completed" in headings and "Tourist cards failed" in headings
    # Alsace has nine bonuses; the list names each one some player was awarded (a bonus nobody
    # won, such as the North-South tunnel nobody claimed, has no line on any sheet), one row each
    bonuses = [name for m in build_ruleset("alsace", 5, {}).modules
               if (part := part_for(m)) is not None and part.bonus for name in m.score_line_names()]
    assert len(bonuses) == 9
    awarded = {line for s in state.result["sheets"] for line in s["lines"]} & set(bonuses)
    assert len(awarded) > MAX_BONUS_COLUMNS
    assert [row.name for row in pic.bonuses] == [b for b in bonuses if b in awarded]
    drawn = {t.text for t in pic.texts}
    assert all(row.name in drawn for row in pic.bonuses)  # whole names, never "Most Fr…"
    right = pic.image.width
    assert all(t.box[2] <= right for t in pic.texts)


def test_an_old_result_without_lines_still_adds_up() -> None:
    v = sample_view("europe", players=3, seed=2, over=True)
    result = dict(v.result or {})
    result["sheets"] = [{k: val for k, val in s.items() if k != "lines"} for s in result["sheets"]]
    import dataclasses

    pic = render_scores(dataclasses.replace(v, result=result))
    assert pic.totals is not None
    for seat, total in pic.totals.items():
        assert sum(col.values[seat] for col in pic.columns) == total


def _check_text(texts, width: int, where: set[str]) -> None:
    least = preview_px(width)
    mine = [t for t in texts if t.where in where]
    assert mine
    small = [(t.text, t.px) for t in mine if t.px < least]
    assert small == [], f"text under {least}px at width {width}: {small}"
    for a, b in itertools.combinations(mine, 2):
        overlap = a.box[0] < b.box[2] and b.box[0] < a.box[2] and a.box[1] < b.box[3] and b.box[1] < a.box[3]
        assert not overlap, f"{a.text!r} overlaps {b.text!r}"


@pytest.mark.parametrize("variant,dice", TABLES)
def test_the_legend_reads_at_discords_preview_size(variant: str, dice: bool) -> None:
    players = min(5, _players(variant, dice))
    v = sample_view(load_map(build_ruleset(variant, 2).map_id), players=players, seed=3, dice=dice)
    for width in (1600, 1000):
        pic = render_board(v, width=width)
        _check_text(pic.texts, width, {"legend", "key"})
        x0, y0, x1, y1 = pic.base.layout.legend_box
        for t in pic.texts:
            assert x0 <= t.box[0] and t.box[2] <= x1 and y0 <= t.box[1] and t.box[3] <= y1, t
        boxes = legend_boxes(pic.base.layout, players, key_entries(pic.base.game_map, picture_parts(v)))
        for t in pic.texts:
            if t.where == "legend" and t.box[1] > boxes.info[1] and t.box[0] >= boxes.cells[0][0]:
                assert any(c[0] - 1 <= t.box[0] and t.box[2] <= c[2] + 1 for c in boxes.cells), t


def test_a_dice_table_shows_the_roll_and_each_players_tokens_never_zero_cards() -> None:
    v = sample_view("europe", players=4, seed=3, dice=True)
    parts = picture_parts(v)
    rolls = [r for p in parts for r in p.status(v)]
    assert rolls and len(rolls[0].faces) == 5 and rolls[0].seat == v.current
    for p in v.players:
        badges = [b for part in parts for b in part.badges(v, p.seat)]
        kinds = {b.icon for b in badges}
        assert {"token_single", "token_double", "tickets"} <= kinds
        assert "cards" not in kinds
    plain = sample_view("europe", players=4, seed=3)
    assert all("cards" in {b.icon for part in picture_parts(plain) for b in part.badges(plain, p.seat)}
               for p in plain.players)


def test_an_alsace_hand_shows_every_tourist_card() -> None:
    game_map = load_map("alsace")
    v = sample_view(game_map, players=3, seed=4, seat=1)
    part = v.part(TouristView)
    assert part is not None and part.mine
    pic = render_hand(v)
    drawn = [t.text for t in pic.texts]
    info = {c["id"]: c for c in game_map.extras["tourist_cards"]}
    for card_id in part.mine:
        card = info[card_id]
        name = "Visitor Pass" if card["kind"] == "visitor_pass" else card["name"]
        assert name in drawn
        assert str(card["points"]) in drawn
        if card["city"]:
            assert game_map.city_label(card["city"]) in drawn
    assert drawn.count("visited") == len(part.completed)
    assert drawn.count("not visited yet") == len(part.mine) - len(part.completed)
    assert f"{len(part.mine)} tourist cards" in drawn


@pytest.mark.parametrize("variant,dice", [("alsace", False), ("europe", True), ("germany", False)])
def test_hand_and_sheet_read_at_discords_preview_size(variant: str, dice: bool) -> None:
    game_map = load_map(build_ruleset(variant, 2).map_id)
    hand = render_hand(sample_view(game_map, players=3, seed=4, seat=1, dice=dice))
    _check_text(hand.texts, hand.image.width, {"hand"})
    sheet = render_scores(sample_view(game_map, players=5, seed=2, over=True, dice=dice))
    _check_text(sheet.texts, sheet.image.width, {"sheet"})
