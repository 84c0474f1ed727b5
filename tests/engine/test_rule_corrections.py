"""The revised rulings of 2026-12-01 beyond what the scenarios show (tests/scenarios/: dice
token_timing, germany_tickets; europe station_loan_ties; alsace station_loans): the new
actions are real actions (listed, encoded, replayed), and X2's order of choice among equal
station loans (the final score before the number of tickets)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from typing import Any, ClassVar

from engine.actions import action_from_json
from engine.game import actors, apply, legal_actions, load_game, new_game, replay
from engine.graph import best_ticket_outcome, best_ticket_outcomes
from engine.rules.dice import BuyToken, DiscardTokens, DrawTicketsWithDice
from engine.rules.module import RuleModule
from engine.scoring import add_points, final_scores
from tools.selfplay import play_game

DICE = {"dice": True}


def test_the_new_actions_encode_as_stored_games_read_them() -> None:
    samples = [
        {"type": "discard_tokens", "player": 1, "tokens": {"double": 1, "single": 2}},
        {"type": "draw_tickets_dice", "player": 0, "payment": {"station": 1, "wild": 1},
         "mix": [["long", 1], ["short", 1]]},
    ]
    for data in samples:
        assert json.loads(json.dumps(action_from_json(data).to_json())) == data
    # A dice ticket draw stored before the mix existed still reads (with no mix).
    old = action_from_json({"type": "draw_tickets_dice", "player": 0, "payment": {"station": 2}})
    assert isinstance(old, DrawTicketsWithDice) and old.mix == ()


def test_random_self_play_uses_every_new_decision_and_replays_exactly() -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        record = play_game("germany", 3, 40 + seed, ("random",), DICE)
        assert record.state.game_over
        again = replay("germany", 3, 40 + seed, record.actions, DICE)
        assert again.to_canonical() == record.state.to_canonical()
        state, _ = new_game("germany", 3, 40 + seed, DICE)
        for action in record.actions:
            kind = state.pending.get("kind", "")
            if isinstance(action, BuyToken) and kind in ("dice_roll", "dice_action"):
                seen["token before the action"] += 1
            if isinstance(action, DiscardTokens):
                seen["discard"] += 1
            if isinstance(action, DrawTicketsWithDice):
                assert action.mix and sum(n for _, n in action.mix) == sum(n for _, n in action.payment)
                seen["announced dice draw"] += 1
            state, _ = apply(state, action)
    assert set(seen) == {"token before the action", "discard", "announced dice draw"}, seen


def test_a_token_bought_before_the_action_leaves_the_action_to_come() -> None:
    state, _ = new_game("usa", 2, 5, DICE)
    while state.pending["kind"] == "choose_tickets":  # the opening choice: keep the first offer
        seat = actors(state)[0]
        state, _ = apply(state, legal_actions(state, seat)[0])
    seat = state.current
    assert state.pending["kind"] == "dice_roll"
    buy = next(a for a in legal_actions(state, seat) if isinstance(a, BuyToken))
    after, events = apply(state, buy)
    assert after.pending["kind"] == "dice_action"
    assert after.current == seat
    assert [e.kind for e in events] == ["token_taken"]
    assert not any(isinstance(a, BuyToken) for a in legal_actions(after, seat))  # one exchange (D5)


def test_best_ticket_outcomes_lists_each_set_of_tickets_equal_loans_complete() -> None:
    # A station in S may borrow S-X (completing A-X, 10) or S-Y (completing A-Y and A-Z, 5 + 5).
    own = [("a-s", "A", "S", 1), ("y-z", "Y", "Z", 1)]
    options = {"S": [("s-x", "S", "X", 1), ("s-y", "S", "Y", 1)]}
    tickets = [("A", "X", 10), ("A", "Y", 5), ("A", "Z", 5)]
    outcomes = best_ticket_outcomes(own, tickets, options)
    assert [o.completed for o in outcomes] == [(True, False, False), (False, True, True)]
    assert {o.total for o in outcomes} == {0} and {o.stations_used for o in outcomes} == {1}
    assert [dict(o.loans) for o in outcomes] == [{"S": "s-x"}, {"S": "s-y"}]
    assert best_ticket_outcome(own, tickets, options) == outcomes[0]


@dataclasses.dataclass(frozen=True)
class FewerTicketsBonus(RuleModule):
    """A made-up bonus for these tests: 30 points to a player with exactly one completed
    ticket, so that completing fewer tickets scores more."""

    name: ClassVar[str] = "fewer_tickets_test_bonus"

    def score(self, game: Any, sheets: list[dict[str, Any]]) -> None:
        for sheet in sheets:
            if sheet["tickets_completed"] == 1:
                add_points(sheet, "fewer", 30)


def _station_tie_game(extra_modules: tuple[RuleModule, ...]) -> Any:
    """Europe, over: P1 has a station in Bucuresti with equal loans (the first scenario of
    tests/scenarios/europe/station_loan_ties.yaml without the tie-break)."""
    state, _ = new_game("europe", 2, 3, first_player=0)
    state.status = "over"
    state.pending = {}
    p1, p2 = state.players
    p1.routes = ["bucuresti-budapest", "bucuresti-constantinople", "constantinople-smyrna", "kyiv-wilno",
                 "riga-wilno"]
    p2.routes = ["bucuresti-kyiv", "bucuresti-sofia"]
    for seat, player in enumerate(state.players):
        for rid in player.routes:
            state.route_owner[rid] = seat
    state.stations = {"bucuresti": 0}
    p1.stations = 2
    p1.tickets = ["riga-bucuresti", "budapest-sofia", "sofia-smyrna"]
    p2.tickets = []
    game = load_game(state)
    game.rules = dataclasses.replace(game.rules, modules=game.rules.modules + extra_modules)
    return game


def _completed(result: dict[str, Any], seat: int) -> list[str]:
    return sorted(t["id"] for t in result["sheets"][seat]["tickets"] if t["completed"])


def test_equal_loans_go_to_the_most_completed_tickets_when_the_score_is_the_same() -> None:
    result = final_scores(_station_tie_game(()))
    assert _completed(result, 0) == ["budapest-sofia", "sofia-smyrna"]
    assert result["sheets"][0]["station_loans"] == {"bucuresti": "bucuresti-sofia"}


def test_equal_loans_go_to_the_best_final_score_before_the_most_tickets() -> None:
    result = final_scores(_station_tie_game((FewerTicketsBonus(),)))
    assert _completed(result, 0) == ["riga-bucuresti"]
    sheet = result["sheets"][0]
    assert sheet["station_loans"] == {"bucuresti": "bucuresti-kyiv"}
    assert sheet["lines"]["fewer"] == 30
    assert sum(sheet["lines"].values()) == sheet["total"]
