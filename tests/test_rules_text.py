"""/ttr rules follows the rules a table plays: every variant with and without dice, its map's
route points and tunnels, the topics it has, a short "first turn"."""

from __future__ import annotations

import re

import pytest

from bot_app.rules_text import rules_for, topics_for
from engine.maps import load_map
from engine.rulesets import available_variants, build_ruleset

TABLES = [(v, dice) for v in available_variants() for dice in (False, True)]


def _opts(dice: bool) -> dict[str, bool]:
    return {"dice": True} if dice else {}


@pytest.mark.parametrize(("variant", "dice"), TABLES)
def test_every_table_has_an_overview_a_first_turn_a_turn_and_scoring(variant, dice):
    topics = topics_for(variant, _opts(dice))
    assert {"overview", "first-turn", "turn", "tickets", "scoring", "end", "timers"} <= set(topics)
    assert ("dice" in topics) == dice
    for name, body in topics.items():
        assert body.strip() and "_" not in body.replace("topic:first-turn", ""), (variant, name)


@pytest.mark.parametrize(("variant", "dice"), TABLES)
def test_the_scoring_table_is_the_maps(variant, dice):
    """Routes score by the map's own table, for every length the board has (USSR 7 and 8,
    Nordic 9 — or 8 with dice —, Germany 7)."""
    rules = build_ruleset(variant, 2, _opts(dice))
    gmap = load_map(rules.map_id)
    scoring = topics_for(variant, _opts(dice))["scoring"]
    for length in {rules.length(r) for r in gmap.routes.values()}:
        assert f"{length} → {gmap.points_for(length)}" in scoring, (variant, length)


@pytest.mark.parametrize(("variant", "tunnels"), [("ussr", 15), ("alsace", 12), ("europe", 18), ("nordic", 10)])
def test_boards_with_tunnels_say_how_many(variant, tunnels):
    for dice in (False, True):
        topics = topics_for(variant, _opts(dice))
        assert f"This board has {tunnels} tunnels" in topics["tunnels"]
        assert "No tunnels" not in "\n".join(topics.values())


@pytest.mark.parametrize("variant", ["usa", "germany"])
def test_boards_without_tunnels_have_no_tunnel_topic(variant):
    assert "tunnels" not in topics_for(variant)
    assert "tunnels" not in topics_for(variant, {"dice": True})


def test_nordic_turn_text_says_a_face_up_locomotive_is_an_ordinary_card():
    turn = topics_for("nordic")["turn"]
    assert "counts as both" not in turn and "whole draw" not in turn
    assert "ordinary card" in turn
    assert "whole draw" in topics_for("europe")["turn"]


@pytest.mark.parametrize("variant", available_variants())
def test_a_dice_table_is_never_told_to_draw_train_cards(variant):
    text = "\n".join(topics_for(variant, {"dice": True}).values())
    assert "Draw 2 train cards" not in text and "train cards**" not in text
    assert "rolled" in topics_for(variant, {"dice": True})["turn"]
    assert "cards" not in topics_for(variant, {"dice": True})


def test_topics_fit_the_variant():
    assert "controller" in topics_for("ussr") and "controller" not in topics_for("ussr", {"dice": True})
    assert "passengers" in topics_for("germany") and "passengers" in topics_for("germany", {"dice": True})
    assert "tourist" in topics_for("alsace")
    for variant in available_variants():
        if variant != "ussr":
            assert "controller" not in topics_for(variant)
        if variant != "alsace":
            assert "tourist" not in topics_for(variant)
    assert "stations" not in topics_for("usa") and "stations" in topics_for("europe")
    assert "stations" not in topics_for("alsace")
    assert "stations" in topics_for("alsace", {"alsace_stations": True})
    assert "ferries" in topics_for("nordic") and "ferries" not in topics_for("germany")


def test_rules_text_follows_each_rule_sets_settings():
    assert "3 stations" in topics_for("ussr")["stations"] and "colour of a route into that city" in \
        topics_for("ussr")["stations"]
    assert "any 3 cards" in topics_for("nordic")["ferries"]
    assert "any 4 cards" in topics_for("nordic")["claiming"]
    assert "8 spaces" in topics_for("nordic", {"dice": True})["claiming"]
    assert "call time" in topics_for("alsace")["end"]
    assert "one long and one short" in topics_for("ussr")["tickets"]
    assert "Equal totals share the win" in topics_for("ussr")["scoring"]
    assert "most completed tickets" in topics_for("europe")["scoring"]
    for bonus, points in (("Longest journey", 15), ("North-South tunnel", 30), ("Most foreign countries", 25)):
        assert f"{bonus}: +{points}" in topics_for("alsace")["scoring"]


def test_an_unknown_topic_lists_the_topics_of_that_game():
    answer = rules_for("germany", "controller")
    assert answer.startswith("Topics for this game:") and "passengers" in answer and "controller" not in answer
    assert rules_for("europe", "first turn").startswith("1. ")
    assert "There is no variant" in rules_for("atlantis", None)


def test_first_turn_is_short_and_says_where_to_press():
    for variant, dice in TABLES:
        first = topics_for(variant, _opts(dice))["first-turn"]
        assert len(first) < 1200 and "**Choose tickets**" in first and "/ttr hand" in first
        assert len(re.findall(r"^\d\. ", first, re.M)) == 4
