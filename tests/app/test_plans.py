"""Planned moves as values and their run (app/plans): the JSON form and its bounds, each
condition over the player's own view, and a plan played over whole games of every variant.
The rule cases themselves are scenarios (tests/scenarios/*/plans.yaml)."""

from __future__ import annotations

import json

import pytest

from ai.levels import make_ai
from app.plans import MAX_PLANS, MAX_STEPS, Condition, Plan, PlanBook, PlanError, PlanMove, Step, run_plan
from app.plans.conditions import CONDITIONS, holds
from app.plans.run import check_plan, choose_step
from engine.game import actors, apply, legal_actions, new_game, view
from engine.rulesets import available_variants

CLAIM = {"type": "claim_route", "route": "kansas_city-saint_louis-1", "payment": {"blue": 2}}


def _plan() -> Plan:
    return Plan((Step(Condition("route_free", route="kansas_city-saint_louis-1"), (PlanMove(CLAIM),)),
                 Step(Condition("cards", colour="red", at_least=2, negate=True),
                      (PlanMove({"type": "draw_tickets"}),))),
                (PlanMove({"type": "draw_card"}), PlanMove({"type": "draw_card", "colour": "red"})))


def test_a_plan_is_stored_as_json_and_read_back_the_same() -> None:
    book = PlanBook((_plan(),))
    text = json.dumps(book.to_json())
    assert PlanBook.from_json(json.loads(text)) == book
    assert json.loads(text)[0]["steps"][1]["if"] == {"kind": "cards", "colour": "red", "at_least": 2, "negate": True}


@pytest.mark.parametrize("data,says", [
    ({"steps": [{"if": None, "then": [{"type": "draw_card"}]}] * (MAX_STEPS + 1)}, "at most 5 steps"),
    ({"steps": []}, "no step and no fallback"),
    ({"else": [{"type": "draw_card", "player": 1}]}, "cannot name a player"),
    ({"else": [{"type": "draw_card"}] * 5}, "at most 4 moves"),
    ({"steps": [{"if": {"kind": "cards", "at_least": -1}, "then": [{"type": "draw_card"}]}]}, "whole number"),
    ({"steps": [{"if": {"kind": "cards", "colour": "x" * 200}, "then": [{"type": "draw_card"}]}]}, "at most 100"),
    ({"steps": [{"if": {"kind": "cards", "size": 3}, "then": [{"type": "draw_card"}]}]}, "no field 'size'"),
    ("claim everything", "steps and a fallback"),
])
def test_a_malformed_plan_is_refused_in_one_sentence(data, says) -> None:
    with pytest.raises(PlanError) as caught:
        Plan.from_json(data)
    assert says in caught.value.message and "\n" not in caught.value.message


def test_at_most_two_turns_are_planned_ahead() -> None:
    with pytest.raises(PlanError, match="At most 2 turns"):
        PlanBook.from_json([_plan().to_json()] * (MAX_PLANS + 1))


def _playing(variant: str = "usa", players: int = 3, options=None):
    """A game of `variant` past its opening ticket choice (greedy AIs keep)."""
    state, _ = new_game(variant, players, 7, options or {})
    ais = [make_ai("greedy", i) for i in range(players)]
    while state.status == "setup":
        seat = actors(state)[0]
        state, _ = apply(state, ais[seat].choose(view(state, seat), legal_actions(state, seat)))
    return state


def test_every_condition_reads_only_the_players_own_view() -> None:
    state = _playing()
    seat = state.current
    me = view(state, seat)
    hand = me.me.hand
    colour = next(iter(hand))
    shown = next(c for c in me.display if c)
    assert holds(Condition("always"), me)
    assert holds(Condition("route_free", route="kansas_city-saint_louis-1"), me)
    assert holds(Condition("face_up", colour=shown), me)
    assert holds(Condition("cards", colour=colour, at_least=hand[colour], at_most=hand[colour]), me)
    assert not holds(Condition("cards", colour=colour, at_least=hand[colour] + 1), me)
    assert holds(Condition("tickets_left", at_least=sum(me.ticket_decks.values())), me)
    assert holds(Condition("trains_left", at_least=45), me)
    assert holds(Condition("trains_left", whose="anyone", at_most=45), me)
    assert not holds(Condition("route_free", route="kansas_city-saint_louis-1", negate=True), me)
    # Another seat's hand is not in that seat's view of it: a condition on cards counts the
    # planner's own only.
    other = (seat + 1) % len(state.players)
    state.players[other].hand = {"pink": 12}
    state.players[seat].hand = {"red": 1}
    assert not holds(Condition("cards", colour="pink"), view(state, seat))
    assert holds(Condition("cards", colour="red"), view(state, seat))
    assert set(CONDITIONS) == {"always", "route_free", "face_up", "cards", "tickets_left", "trains_left"}


TABLES = [(v, o) for v in available_variants() for o in ({}, {"dice": True})]


@pytest.mark.parametrize("variant,options", TABLES, ids=[f"{v}{'-dice' if o else ''}" for v, o in TABLES])
def test_a_plan_written_from_the_ai_s_choice_plays_exactly_that_move(variant, options) -> None:
    """On every board, with and without dice: a plan whose only step is the move the AI would
    make plays that move, as if the player had pressed it; the state is the same."""
    players = 2 if variant == "nordic" else 3
    state = _playing(variant, players, options)
    ai = make_ai("greedy", 3)
    for _ in range(12):
        seat = actors(state)[0]
        action = ai.choose(view(state, seat), legal_actions(state, seat))
        move = {k: v for k, v in action.to_json().items() if k != "player"}
        if move["type"] in ("keep_tickets",):
            state, _ = apply(state, action)
            continue
        if move["type"] == "draw_card" and move.get("slot") is not None:
            move = {"type": "draw_card", "colour": view(state, seat).display[move.pop("slot")]}
        move.pop("slot", None)
        plan = Plan((Step(Condition(), (PlanMove(move),)),))
        check_plan(PlanBook((plan,)), state, seat)
        assert choose_step(plan, view(state, seat), legal_actions(state, seat)) == 0
        run = run_plan(state, seat, plan)
        expected, events = apply(state, action)
        assert run.step == 0 and [a for a, _ in run.moves] == [action]
        assert run.state.to_canonical() == expected.to_canonical()
        state = expected
        if state.status == "over":
            break


def test_a_plan_does_not_run_out_of_its_turn() -> None:
    state = _playing()
    other = (state.current + 1) % len(state.players)
    run = run_plan(state, other, Plan(fallback=(PlanMove({"type": "draw_card"}),)))
    assert run.step is None and run.state is state and not run.moves
