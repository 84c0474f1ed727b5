"""The rollout policy of the hard AI's search (ai/agents/rollout.py): its shortcuts pick the
moves the plain listing would (the search's choices are those of the slower listing)."""

from __future__ import annotations

import pytest

from ai.agents.planning import map_info
from ai.agents.rollout import RolloutPolicy, new_policy
from ai.agents.search import BUDGET, MAX_SAMPLES, OPENING_BUDGET, PLAN_WORK, SearchAI, work_units
from engine.actions import Action, ClaimRoute, DrawCard, DrawTickets, KeepTickets, Pass
from engine.cards import Cards
from engine.core import Turn
from engine.decisions import decision_of
from engine.errors import IllegalAction
from engine.game import actors, apply, legal_actions, legal_actions_of, new_game, view
from engine.rulesets import available_variants
from engine.state import GameState

TABLES = [(variant, dice) for variant in available_variants() for dice in (False, True)]


def listed_fallback(state: GameState, seat: int) -> Action:
    """The fallback as it was: every legal move listed, the first card draw taken."""
    legal = legal_actions(state, seat)
    draws = [a for a in legal if isinstance(a, DrawCard)]
    return (draws or legal or [Pass(seat)])[0]


@pytest.mark.parametrize("variant,dice", TABLES, ids=[f"{v}{'-dice' if d else ''}" for v, d in TABLES])
def test_the_fallback_takes_the_move_the_whole_listing_would(variant: str, dice: bool) -> None:
    """The fallback asks for the card draws alone first; at every state of a played-out game
    (the policy playing every seat, 3 players: Germany's big hands and a deck run dry) it picks
    the move the whole listing's first draw (or first move) would."""
    options = {"dice": True} if dice else {}
    state, _ = new_game(variant, 3, 5, options)
    policy: RolloutPolicy = new_policy(state, map_info(variant, 3, options))
    compared = drawn = 0
    while state.status != "over" and compared < 2000:
        seat = actors(state)[0]
        expected = listed_fallback(state, seat)
        assert policy.fallback(state, seat) == expected, f"turn {state.turn}: {expected}"
        compared += 1
        drawn += isinstance(expected, DrawCard)
        try:
            state, _ = apply(state, policy.choose(state, seat))
        except IllegalAction:
            state, _ = apply(state, expected)
    assert state.status == "over", f"{variant}: the playout did not end in {compared} moves"
    # Dice games have no card draws (the dice buy the cards): their fallback is the first move.
    assert drawn > 0 or dice, "no state where the fallback draws a card was compared"


@pytest.mark.parametrize("variant", available_variants())
def test_the_turn_lists_claims_cheaply_and_takes_the_same_move(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a turn the playout asks the claim rule for each route's payments (no action per
    payment) and skips the listing where the planner takes tickets whatever it could claim;
    at every turn of a played-out game it takes the move the whole listing gives."""
    state, _ = new_game(variant, 3, 11, {})
    info = map_info(variant, 3, {})
    policy = new_policy(state, info)
    listing = new_policy(state, info)
    listing.claimer = None  # every claim from `legal_actions_of`, an action per payment
    turns = 0
    while state.status != "over":
        seat = actors(state)[0]
        if isinstance(decision_of(state.pending), Turn):
            grouped: dict[str, list[Cards]] = {}
            for a in legal_actions_of(state, seat, ClaimRoute):
                grouped.setdefault(a.route, []).append(a.payment)
            assert {r: list(o) for r, o in policy.every_claim(state, seat).items()} == grouped
            assert list(policy.every_claim(state, seat)) == list(grouped), "not in the listing's order"
            with monkeypatch.context() as m:
                m.setattr("ai.agents.rollout.takes_tickets", lambda seen: False)
                expected = listing.turn(state, seat, second=False)
            assert policy.turn(state, seat, second=False) == expected, f"turn {state.turn}"
            turns += 1
        try:
            state, _ = apply(state, policy.choose(state, seat))
        except IllegalAction:
            state, _ = apply(state, policy.fallback(state, seat))
    assert turns > 20 and policy.listed > 0


def test_the_search_stops_at_its_work_budget_counting_more_than_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    """The opening keep: the search spends its budget in work units (moves, plans made,
    playouts ended, claims listed), so it stops once the units reach the budget (within a
    sample), and its units are more than its moves."""
    monkeypatch.setattr(SearchAI, "budget", 600)
    state, _ = new_game("usa", 2, 1001, {}, first_player=0)
    seat = actors(state)[0]
    ai = SearchAI(7)
    ai.choose(view(state, seat), legal_actions(state, seat))
    report = ai.report
    budget = 600 * OPENING_BUDGET // BUDGET
    assert report.searched and 2 <= report.samples < MAX_SAMPLES
    assert report.work == work_units(report.moves, report.listed, report.plans, report.samples * len(report.candidates))
    assert budget <= report.work < budget + 2 * report.work // report.samples
    assert report.work > report.moves + report.plans * PLAN_WORK


def _turn_with_plan_done(trains: int, others: int) -> tuple[GameState, int]:
    """A USA 2-player game at its first turn, the seat to play holding no ticket (its plan is
    done) with `trains` trains, the other seat `others`."""
    state, _ = new_game("usa", 2, 7, {})
    policy = new_policy(state, map_info("usa", 2, {}))
    while not isinstance(decision_of(state.pending), Turn):
        state, _ = apply(state, policy.choose(state, actors(state)[0]))
    seat = actors(state)[0]
    state.players[seat].tickets = []
    state.players[seat].trains = trains
    state.players[1 - seat].trains = others
    return state, seat


@pytest.mark.parametrize("trains,others,network_draws", [
    (15, 20, True),    # trains to spare, 20 / 1.3 = 15 turns left: more than a ticket's 10
    (12, 13, True),    # the rule's edge: 12 trains, 13 / 1.3 = 10 turns
    (11, 45, False),   # too few trains of its own
    (15, 12, False),   # 12 / 1.3 = 9.2 turns left: too few for a ticket
])
def test_a_playout_seat_modelled_as_the_network_planner_takes_tickets_by_its_rule(
        trains: int, others: int, network_draws: bool) -> None:
    """A seat in `network_tickets` whose plan is done takes more tickets by the network
    planner's rule (network.tickets_pay); the planner's rule (20 trains, the others 16) takes
    none of these, and claims or draws a card instead."""
    state, seat = _turn_with_plan_done(trains, others)
    info = map_info("usa", 2, {})
    modelled = new_policy(state, info, network_tickets=[seat]).turn(state, seat, second=False)
    planner = new_policy(state, info).turn(state, seat, second=False)
    other_seat = new_policy(state, info, network_tickets=[1 - seat]).turn(state, seat, second=False)
    assert isinstance(modelled, DrawTickets) == network_draws
    assert not isinstance(planner, DrawTickets)
    assert other_seat == planner, "only the seats named play by the network rule"
    if not network_draws:
        assert modelled == planner


@pytest.mark.parametrize("others_on,self_on", [(True, False), (False, True), (True, True)])
def test_the_search_models_the_seats_its_switches_name(others_on: bool, self_on: bool,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """NETWORK_TICKETS_OTHERS and NETWORK_TICKETS_SELF name the playout seats that take tickets
    by the network rule: the other seats, and the searching seat's own."""
    from ai.agents import search

    monkeypatch.setattr(search, "NETWORK_TICKETS_OTHERS", others_on)
    monkeypatch.setattr(search, "NETWORK_TICKETS_SELF", self_on)
    made: list[frozenset[int]] = []
    real = search.new_policy

    def spy(state: GameState, info: object, network_tickets: tuple[int, ...] = (),
            network_keep: tuple[int, ...] = ()) -> RolloutPolicy:
        policy = real(state, info, network_tickets, network_keep)  # type: ignore[arg-type]
        made.append(policy.network_tickets)
        assert policy.network_keep == frozenset(), "the keep switches are off"
        return policy

    monkeypatch.setattr(search, "new_policy", spy)
    monkeypatch.setattr(SearchAI, "budget", 400)
    state, _ = new_game("usa", 2, 3, {})
    seat = actors(state)[0]
    ai = SearchAI(seed=1)
    ai.choose(view(state, seat), legal_actions(state, seat))  # the opening keep: searched
    assert ai.report.searched and made
    expected = {s for s in (0, 1) if (self_on if s == seat else others_on)}
    assert set(made) == {frozenset(expected)}


@pytest.mark.parametrize("variant", ["usa", "europe"])
def test_a_playout_seat_modelled_as_the_network_planner_keeps_the_planners_choice(variant: str) -> None:
    """A seat in `network_keep` keeps the offered tickets the planner would (`choose_keep`, the
    set whose joint plan pays best), at the opening and after a draw; the other seats keep by
    the playout's own rule."""
    from ai.agents.planner import choose_keep

    state, _ = new_game(variant, 2, 4, {})
    info = map_info(variant, 2, {})
    compared = differ = 0
    for _ in range(400):
        if state.status == "over":
            break
        seat = actors(state)[0]
        legal = legal_actions(state, seat)
        options = [a for a in legal if isinstance(a, KeepTickets)]
        if options:
            modelled = new_policy(state, info, network_keep=[seat])
            expected = choose_keep(modelled.seen(state, seat), [a.keep for a in options])
            assert modelled.keep(state, seat, options).keep == expected
            own_rule = new_policy(state, info).keep(state, seat, options)
            assert new_policy(state, info, network_keep=[1 - seat]).keep(state, seat, options) == own_rule
            compared += 1
            differ += isinstance(own_rule, KeepTickets) and own_rule.keep != expected
        # Both seats draw tickets whenever they may, to reach keeps after the opening too.
        draw = next((a for a in legal if isinstance(a, DrawTickets)), None)
        state, _ = apply(state, draw or new_policy(state, info).choose(state, seat))
    assert compared >= 4 and differ > 0, "no keep where the two rules differ was compared"
