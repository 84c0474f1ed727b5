"""The short text of a plan (bot_app/presentation/plan_syntax.py) and a plan in words
(bot_app/presentation/plan_words.py): every condition and move the text has reads into the plan
it means and back, bad text is refused in one sentence, and the words name routes and cards as
the rest of the bot does."""

from __future__ import annotations

import pytest

from app.plans import Condition, PlanMove
from bot_app.presentation.answers import Refusal
from bot_app.presentation.plan_syntax import parse, typed
from bot_app.presentation.plan_words import book_text, condition_words, move_words
from engine.game import new_game, view
from engine.maps import load_map

USA = load_map("usa")
EUROPE = load_map("europe")


@pytest.mark.parametrize("text,condition", [
    ("free Denver - Omaha", {"kind": "route_free", "route": "denver-omaha"}),
    ("taken Denver - Omaha", {"kind": "route_free", "route": "denver-omaha", "negate": True}),
    ("shown loco", {"kind": "face_up", "colour": "loco"}),
    ("shown red >=2", {"kind": "face_up", "colour": "red", "at_least": 2}),
    ("cards red >=3", {"kind": "cards", "colour": "red", "at_least": 3}),
    ("cards all <=4", {"kind": "cards", "at_most": 4}),
    ("cards =2", {"kind": "cards", "at_least": 2, "at_most": 2}),
    ("tickets >5", {"kind": "tickets_left", "at_least": 6}),
    ("trains <3", {"kind": "trains_left", "at_most": 2}),
    ("anyone trains <=5", {"kind": "trains_left", "whose": "anyone", "at_most": 5}),
])
def test_each_condition_reads_into_the_plan_it_means_and_back(text, condition) -> None:
    book = parse(f"if {text}: draw blind", USA)
    assert book.to_json()[0]["steps"][0]["if"] == condition
    assert parse(typed(book, USA), USA) == book


@pytest.mark.parametrize("gmap,text,move", [
    (USA, "draw blind", {"type": "draw_card"}),
    (USA, "draw Red", {"type": "draw_card", "colour": "red"}),
    (USA, "tickets", {"type": "draw_tickets"}),
    (USA, "claim Denver - Omaha pink4", {"type": "claim_route", "route": "denver-omaha", "payment": {"pink": 4}}),
    (EUROPE, "station Berlin red1", {"type": "build_station", "city": "berlin", "payment": {"red": 1}}),
    (EUROPE, "pay blue1.loco1", {"type": "pay_tunnel", "payment": {"blue": 1, "loco": 1}}),
    (EUROPE, "give up", {"type": "give_up_tunnel"}),
    (EUROPE, "tickets station2", {"type": "draw_tickets_dice", "payment": {"station": 2}}),
    (USA, "pass", {"type": "pass"}),
    (USA, "burn_five payment=red2.blue3", {"type": "burn_five", "payment": {"red": 2, "blue": 3}}),
    (USA, "take_passenger city=berlin colour=red", {"type": "take_passenger", "city": "berlin", "colour": "red"}),
])
def test_each_move_reads_into_the_plan_it_means_and_back(gmap, text, move) -> None:
    book = parse(f"else: {text}", gmap)
    assert book.to_json()[0]["else"] == [move]
    assert parse(typed(book, gmap), gmap) == book


def test_steps_a_fallback_and_a_second_turn() -> None:
    book = parse("if free Denver - Omaha: claim Denver - Omaha pink4; else: draw blind, draw blind || tickets", USA)
    assert len(book.plans) == 2 and len(book.plans[0].steps) == 1 and len(book.plans[0].fallback) == 2
    assert book.plans[1].to_json() == {"steps": [], "else": [{"type": "draw_tickets"}]}


@pytest.mark.parametrize("text,says", [
    ("", "Write the plan"),
    ("if free Atlantis - Denver: draw blind", "no route called"),
    ("if free Denver - Omaha draw blind", "Put a `:`"),
    ("if raining: draw blind", "can't read the condition"),
    ("if cards red lots: draw blind", "write a count"),
    ("else: draw purple", "no card colour"),
    ("else: claim Denver - Omaha", "the payment as a code"),
    ("else: draw blind; if shown red: draw red", "comes last"),
    ("draw blind; draw blind", "Start each step with `if`"),
    ("a || b || c", "At most 2 turns"),
    ("else: " + ", ".join(["draw blind"] * 5), "at most 4 moves"),
    ("; ".join(["if shown red: draw red"] * 6), "at most 5 steps"),
    ("x" * 1600, "at most 1500"),
])
def test_what_cannot_be_read_is_refused_in_one_sentence(text, says) -> None:
    with pytest.raises(Refusal) as caught:
        parse(text, USA)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_a_plan_in_words_names_routes_and_cards_as_the_bot_does() -> None:
    state, _ = new_game("usa", 2, 3)
    mine = view(state, 1)
    assert condition_words(Condition("route_free", route="denver-omaha"), mine) == \
        "Denver – Omaha (4 pink) is still free"
    assert condition_words(Condition("cards", colour="loco", at_least=2), mine) == \
        "you hold at least 2 locomotive cards"
    assert condition_words(Condition("trains_left", whose="anyone", at_most=5), mine) == \
        "someone has at most 5 trains left"
    assert move_words(PlanMove({"type": "draw_card", "colour": "red"}), mine) == "take a face-up red card"
    assert "Denver – Omaha" in move_words(PlanMove({"type": "claim_route", "route": "denver-omaha",
                                                    "payment": {"pink": 4}}), mine)
    words = book_text(parse("if free Denver - Omaha: claim Denver - Omaha pink4; else: draw blind", USA), mine, 7)
    assert "Your plan in game #7" in words and "1. If Denver – Omaha (4 pink) is still free: claim" in words
    assert "Otherwise: draw a card blind." in words
