"""/ttr rules follows the rules a table plays: every variant with and without dice, its map's
route points and tunnels, the topics it has, a short "first turn"."""

from __future__ import annotations

import re

import pytest

from bot_app.presentation.rules_text import every_topic, rules_for, topics_for
from engine.maps import load_map
from engine.rulesets import available_variants, build_ruleset

TABLES = [(v, dice) for v in available_variants() for dice in (False, True)]


def _opts(dice: bool) -> dict[str, bool]:
    return {"dice": True} if dice else {}


@pytest.mark.parametrize(("variant", "dice"), TABLES)
def test_before_the_variant_is_known_every_topic_of_every_table_is_offered(variant, dice):
    """The list is read from the rule sets' words (a new rule's topic is offered with no other
    file changed), each topic once, the overview first."""
    offered = every_topic()
    assert set(topics_for(variant, _opts(dice))) <= set(offered)
    assert len(offered) == len(set(offered)) and offered[0] == "overview"


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


# --- the table's options (issue 24) --------------------------------------------------------------

def _option_cases() -> list[tuple[str, bool, str, object]]:
    """Every (variant, dice, option, value) a host may choose other than the default."""
    from bot_app.presentation.table_options import OPTIONS, applies

    return [(variant, dice, option.key, value) for variant in available_variants() for dice in (False, True)
            for option in OPTIONS if applies(option, variant, dice=dice)
            for value, _ in option.values if value != option.default]


def _said(key: str, value: object, dice: bool) -> dict[str, str]:
    """What the rules must say at a table with this option: topic -> a fragment."""
    if key == "alsace_stations":
        return {"stations": "Each player has 3 stations", "turn": "**Build a station**"}
    if key == "ussr_controller_tunnel_payment":
        assert not dice, "a train-card option is not offered with dice"
        return {"tunnels": "A Controller card turned over counts like a revealed locomotive: one more card of your "
                           "colour, or a locomotive"}
    if key == "dice_token_exchanges_per_turn":
        return {"turn": f"up to {value} times a turn, **take a token**", "dice": f"In addition, up to {value} times"}
    if key == "tunnel_die_faces":
        if value == 0:
            return {"tunnels": "none of their 6 faces shows ⛰️ at this table: a tunnel costs only its spaces"}
        if value == 6:
            return {"tunnels": "all 6 faces show ⛰️ at this table: every tunnel costs 3 more"}
        return {"tunnels": f"({value} of their 6 faces {'shows' if value == 1 else 'show'} ⛰️)"}
    if key == "dice_nordic_9_route":
        return {"claiming": "Murmansk – Lieksa cannot be claimed with dice",
                "scoring": "Murmansk – Lieksa (9 → 27) cannot be claimed with dice"}
    raise AssertionError(f"no expectation for the option {key}")


CASES = _option_cases()


@pytest.mark.parametrize(("variant", "dice", "key", "value"), CASES,
                         ids=[f"{v}{'-dice' if d else ''}-{k}={x}" for v, d, k, x in CASES])
def test_the_rules_of_a_game_follow_each_of_its_options(variant, dice, key, value):
    """/ttr rules in a game shows the rules with all the table's options (game_rules_options
    keeps every one of them, whatever its value), and each option says what it changes."""
    from bot_app.presentation.rules_text import game_rules_options

    table = {**_opts(dice), key: value, "undo": True, "first_player": 2, "stand_in_level": "greedy"}
    options = game_rules_options(table)
    assert options == table
    shown = topics_for(variant, options, 3)
    default = topics_for(variant, _opts(dice), 3)
    for topic, fragment in _said(key, value, dice).items():
        assert fragment in shown[topic], (topic, shown.get(topic))
        assert fragment not in default.get(topic, ""), (topic, "the default rules say it too")


def test_the_command_can_turn_a_games_dice_off_and_on():
    from bot_app.presentation.rules_text import game_rules_options

    table = {"dice": True, "tunnel_die_faces": 0, "dice_token_exchanges_per_turn": 2, "undo": True}
    assert game_rules_options(table) == table  # 0 tunnel faces is an option like the others
    assert game_rules_options(table, dice=False) == {"dice": False, "undo": True}
    assert game_rules_options({"alsace_stations": True}, dice=True) == {"alsace_stations": True, "dice": True}


def test_the_rules_name_the_tables_options_that_are_not_the_default():
    from bot_app.presentation.rules_text import options_note

    assert options_note({"dice": True, "tunnel_die_faces": 3, "dice_token_exchanges_per_turn": 1}) == \
        " (this table: tunnel dice: 3 tunnel faces of 6)"
    assert options_note({"dice": True, "undo": True}) == ""
    assert options_note({"undo": False, "alsace_stations": True}) == \
        " (this table: no taking back moves; stations: with stations, as in Europe)"


@pytest.mark.parametrize(("variant", "dice"), TABLES)
def test_the_turn_says_which_moves_can_be_taken_back_as_the_table_has_it(variant, dice):
    """The `undo` table option (engine/undo.py): the moves the Undo button takes back, and
    when; a table without it says so; outside a game, the bot's default (on) with the way out."""
    on = topics_for(variant, {**_opts(dice), "undo": True})["turn"]
    off = topics_for(variant, {**_opts(dice), "undo": False})["turn"]
    anywhere = topics_for(variant, _opts(dice))["turn"]
    assert "**Undo** (the button, or /ttr turn undo) takes back your last **Claim**" in on
    assert "until the next player acts" in on and "A table opened with `undo: False`" not in on
    assert ("rolled dice or turned cards over" in on) == dice
    assert "Undo" not in off and "At this table a move cannot be taken back" in off
    assert anywhere.startswith(on) and "A table opened with `undo: False` has no taking back." in anywhere
    stations = "stations" in topics_for(variant, _opts(dice))
    assert ("**Station**" in on) == stations
    assert ("**Controller**" in on) == (variant == "ussr" and not dice)


@pytest.mark.parametrize(("faces", "said"), [
    (1, "(1 of their 6 faces shows ⛰️)"), (2, "(2 of their 6 faces show ⛰️)"),
    (0, "(but none of their 6 faces shows ⛰️ at this table: a tunnel costs only its spaces)"),
    (6, "(all 6 faces show ⛰️ at this table: every tunnel costs 3 more)")])
def test_the_tunnel_dice_are_told_as_the_table_has_them(faces, said):
    assert said in topics_for("europe", {"dice": True, "tunnel_die_faces": faces})["tunnels"]


@pytest.mark.parametrize("variant", available_variants())
def test_with_dice_a_station_is_the_turns_action_and_a_token_may_still_be_bought(variant):
    """D14: building a station with dice is the turn's action, a token purchase still allowed;
    boards without stations never offer one."""
    options = {"dice": True, "alsace_stations": True} if variant == "alsace" else {"dice": True}
    topics = topics_for(variant, options)
    dice = topics["dice"]
    if "stations" in topics:
        assert "Building one is your action for the turn (two other dice may still buy a token)" in topics["stations"]
        assert "or build a station (1, 2 or 3 station dice)" in dice
        assert "whole turn" not in topics["stations"]
    else:
        assert "station (1, 2" not in dice and "where the board has them" not in dice
    assert "Building one is a whole turn" in topics_for("europe")["stations"]


def test_the_tickets_say_which_deck_a_draw_takes_from_and_what_leaves_the_game():
    """Europe and USSR: the long tickets left after the deal leave the game, and every later
    draw (with cards or dice) comes from the short deck; one-deck boards name no deck."""
    for variant in ("europe", "ussr"):
        for dice in (False, True):
            topics = topics_for(variant, _opts(dice))
            assert "The long tickets left after the deal leave the game unseen." in topics["tickets"]
            assert "from the short deck" in topics["tickets"] and "from the short deck" in topics["turn"]
    for variant in ("usa", "nordic", "germany", "alsace"):
        text = "\n".join(topics_for(variant).values()) + "\n".join(topics_for(variant, {"dice": True}).values())
        assert " deck:" not in text and "from the short deck" not in text and "left after the deal" not in text


# --- the corrected sentences (issue 24) ----------------------------------------------------------

@pytest.mark.parametrize("variant", available_variants())
def test_a_token_bought_before_the_claim_pays_for_it_and_discards_follow_a_failed_tunnel(variant):
    """D8 (revised): a token bought before the action pays this turn's claim; [D:28] tokens are
    discarded during the turn and, after a tunnel that failed, at its end."""
    topics = topics_for(variant, {"dice": True})
    assert "(single or double) for a later turn" not in topics["dice"]
    assert "it can pay for this turn's claim at once" in topics["dice"]
    assert "At any point of your own turn" not in topics["turn"]
    assert "after a tunnel that failed or was given up, the turn waits for that choice" in topics["turn"]
    if "tunnels" in topics:
        assert "you may still discard tokens you hold" in topics["tunnels"]


def test_germany_with_dice_says_the_short_long_mix_of_each_ticket_draw():
    topics = topics_for("germany", {"dice": True})
    for topic in ("turn", "dice", "tickets"):
        assert "how many long and how many short" in topics[topic], topic
    assert "how many long" not in "\n".join(topics_for("europe", {"dice": True}).values())


@pytest.mark.parametrize(("variant", "closed", "extra"), [
    ("usa", "In games of 2 or 3 players, once one track is claimed the others are closed", None),
    ("europe", "In games of 2 or 3 players, once one track is claimed the others are closed", None),
    ("alsace", "In games of 2 or 3 players, once one track is claimed the others are closed", None),
    ("germany", "In games of 2 or 3 players, once one track is claimed the others are closed",
     "(triple: Dortmund – Düsseldorf and Düsseldorf – Köln)"),
    ("ussr", "In 2-player games, once one track is claimed the others are closed",
     "(triple: Novosibirsk – Krasnoyarsk)"),
    ("nordic", "In 2-player games, once one track is claimed the others are closed to everyone; with 3 players, "
     "each may be claimed, by different players", "Kristiansand – Stavanger"),
])
def test_double_and_triple_routes_are_explained_for_every_board(variant, closed, extra):
    for dice in (False, True):
        claiming = topics_for(variant, _opts(dice))["claiming"]
        assert "nobody may own more than one of them" in claiming and closed in claiming, claiming
        if extra:
            assert extra in claiming
        assert ("triple" in claiming) == (variant in ("germany", "ussr"))


def test_nordic_says_how_a_tunnel_paid_only_with_locomotives_is_checked():
    tunnels = topics_for("nordic")["tunnels"]
    assert "A tunnel paid only with locomotives asks only for the revealed locomotives" in tunnels
    assert "no 3- or 4-card sets here" in tunnels
