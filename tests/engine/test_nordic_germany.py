"""Nordic Countries and Germany: what the scenarios cannot say (player counts that cannot even
start, deck composition, the seeded passenger placement) and property checks of the Nordic
payment rules against a brute-force exact-cover search."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from functools import cache

import msgspec
import pytest

from engine.actions import ClaimRoute, DrawTickets, action_from_json
from engine.cards import COLOURS, LOCO, cards, has_cards
from engine.errors import IllegalAction
from engine.game import apply, legal_actions, load_game, new_game, view
from engine.maps import load_map
from engine.rng import Rng, seed_state
from engine.rules.nordic_payment import NordicPayment, ferry_fits, joker_route_fits
from engine.rules.passengers import PassengersView, TakePassenger, majority_points
from tools.selfplay import play_game

# --- player counts and components -------------------------------------------------------


@pytest.mark.parametrize("variant,players", [("nordic", 1), ("nordic", 4), ("nordic", 5), ("germany", 1),
                                             ("germany", 6)])
def test_player_counts_outside_the_rules_are_refused(variant: str, players: int) -> None:
    with pytest.raises(IllegalAction) as info:
        new_game(variant, players, 1)
    assert info.value.code == "bad_player_count"


@pytest.mark.parametrize("variant,players", [("nordic", 2), ("nordic", 3)] + [("germany", n) for n in range(2, 6)])
def test_player_counts_of_the_rules_start(variant: str, players: int) -> None:
    state, _ = new_game(variant, players, 5)
    assert len(state.players) == players


@pytest.mark.parametrize("variant", ["nordic", "germany"])
def test_the_train_deck_is_110_cards_12_of_each_colour_and_14_locomotives(variant: str) -> None:
    state, _ = new_game(variant, 2, 9)
    total: Counter[str] = Counter(state.deck) + Counter(c for c in state.display if c)
    for p in state.players:
        total.update(p.hand)
    assert sum(total.values()) == 110
    assert total[LOCO] == 14
    assert all(total[c] == 12 for c in COLOURS)


# --- Germany: passengers and the announced deal ------------------------------------------


def test_passengers_are_placed_on_the_map_spaces_by_the_seed() -> None:
    game_map = load_map("germany")
    spaces = game_map.extras["passengers"]
    state, _ = new_game("germany", 3, 4)
    board = state.extra["passengers"]
    assert {space: sum(c.values()) for space, c in board.items()} == dict(spaces)
    assert (spaces["berlin"], spaces["hamburg"], spaces["leipzig"], spaces["frankreich"]) == (5, 4, 3, 1)
    colours: Counter[str] = Counter()
    for here in board.values():
        colours.update(here)
    assert dict(colours) == dict(game_map.extras["passenger_colors"])
    assert set(colours) == {"red", "black", "yellow", "blue", "green", "white"}
    assert sum(colours.values()) == 60
    again, _ = new_game("germany", 3, 4)
    other, _ = new_game("germany", 3, 5)
    assert again.extra["passengers"] == board
    assert other.extra["passengers"] != board
    # The board and every player's passengers are public.
    part = view(state, None).part(PassengersView)
    assert part is not None and part.waiting == board
    assert all(held == {} for held in part.held)


def test_majority_points_follow_g9_and_g10() -> None:
    assert majority_points([3, 1, 1], 20, 10) == {0: 20, 1: 10, 2: 10}
    assert majority_points([2, 2, 1], 20, 10) == {0: 20, 1: 20}
    assert majority_points([3, 0], 20, 10) == {0: 20}
    assert majority_points([0, 0, 0], 20, 10) == {}
    assert majority_points([1, 1, 1], 20, 10) == {0: 20, 1: 20, 2: 20}


def test_setup_returns_wait_out_of_sight_until_everyone_has_chosen() -> None:
    state, _ = new_game("germany", 2, 1, first_player=0)
    state, _ = apply(state, DrawTickets(0, (("short", 2), ("long", 2))))
    offer = state.pending["offers"][0]
    state, _ = apply(state, {"type": "keep_tickets", "player": 0, "keep": offer[:2]})
    assert state.secret["returned_tickets"] == offer[2:]
    for seat in (0, 1, None):
        text = json.dumps(msgspec.to_builtins(view(state, seat)))
        assert not any(t in text for t in offer[2:]) or seat == 0
    state, _ = apply(state, DrawTickets(1, (("long", 1), ("short", 3))))
    state, _ = apply(state, {"type": "keep_tickets", "player": 1, "keep": state.pending["offers"][1][:2]})
    assert "returned_tickets" not in state.secret
    kept = Counter(load_map("germany").tickets[t].deck for p in state.players for t in p.tickets)
    assert sum(kept.values()) == 4
    assert {name: len(deck) for name, deck in state.ticket_decks.items()} == {
        "short": 55 - kept["short"], "long": 34 - kept["long"]}


def test_an_announced_mix_may_be_given_in_any_order_and_a_malformed_one_is_refused() -> None:
    state, _ = new_game("germany", 2, 1, first_player=0)
    after, _ = apply(state, {"type": "draw_tickets", "player": 0, "mix": [["short", 1], ["long", 3]]})
    assert len(after.pending["offers"][0]) == 4
    for bad in ([["short", "two"], ["long", 2]], [["short", -1], ["long", 5]], [["short"]], [[1, 4]]):
        with pytest.raises(IllegalAction):
            apply(state, {"type": "draw_tickets", "player": 0, "mix": bad})


def test_take_passenger_round_trips_through_json() -> None:
    action = TakePassenger(1, "hamburg", "white")
    assert action_from_json(json.loads(json.dumps(action.to_json()))) == action


# --- Nordic payments ----------------------------------------------------------------------


def _brute_ferry(paid: dict[str, int], colours: tuple[str, ...], n_colour: int, n_loco: int, joker: int) -> bool:
    """Exact cover by search: assign every card of `paid` to a space."""
    for chosen in colours if n_colour else (None,):
        if _cover(tuple(sorted(paid.items())), chosen, n_colour, n_loco, joker):
            return True
    return False


@cache
def _cover(left: tuple[tuple[str, int], ...], chosen: str | None, colour_spaces: int, loco_spaces: int,
           joker: int) -> bool:
    hand = dict(left)
    if not colour_spaces and not loco_spaces:
        return not any(hand.values())
    if colour_spaces:
        for card in (chosen, LOCO):
            if card and hand.get(card, 0):
                rest = dict(hand, **{card: hand[card] - 1})
                if _cover(tuple(sorted(rest.items())), chosen, colour_spaces - 1, loco_spaces, joker):
                    return True
        return False
    if hand.get(LOCO, 0):
        rest = dict(hand, **{LOCO: hand[LOCO] - 1})
        if _cover(tuple(sorted(rest.items())), chosen, 0, loco_spaces - 1, joker):
            return True
    pool = sorted(c for c, n in hand.items() for _ in range(n))
    for combo in set(itertools.combinations(pool, joker)):
        rest = dict(hand)
        for c in combo:
            rest[c] -= 1
        if _cover(tuple(sorted(rest.items())), chosen, 0, loco_spaces - 1, joker):
            return True
    return False


def test_the_ferry_count_check_agrees_with_an_exact_cover_search() -> None:
    rng = Rng(seed_state(3))
    kinds = ("red", "blue", "green", LOCO)
    for _ in range(1500):
        n_colour, n_loco = rng.below(4), 1 + rng.below(2)
        paid = {k: rng.below(5) for k in kinds}
        paid = {k: v for k, v in paid.items() if v}
        colours = ("red",) if rng.below(2) else ("red", "blue", "green")
        assert ferry_fits(paid, colours, n_colour, n_loco, 3) == _brute_ferry(paid, colours, n_colour, n_loco, 3), (
            paid, colours, n_colour, n_loco)


def test_the_murmansk_count_check_matches_the_seed_examples() -> None:
    blue = ("blue",)
    assert joker_route_fits({"blue": 9}, blue, 9, 4)
    assert joker_route_fits({"blue": 8, "red": 3, "loco": 1}, blue, 9, 4)
    assert joker_route_fits({"blue": 7, "red": 8}, blue, 9, 4)
    assert joker_route_fits({"red": 20, "loco": 16}, blue, 9, 4)
    assert not joker_route_fits({"blue": 8, "loco": 1}, blue, 9, 4)
    assert not joker_route_fits({"blue": 6, "red": 8}, blue, 9, 4)
    assert not joker_route_fits({"blue": 10}, blue, 9, 4)


def test_every_listed_nordic_payment_fits_and_is_held_and_unlisted_ones_are_still_accepted() -> None:
    game_map = load_map("nordic")
    rule = NordicPayment()
    rng = Rng(seed_state(11))
    for _ in range(300):
        hand = {c: rng.below(6) for c in (*COLOURS, LOCO)}
        hand = {c: n for c, n in hand.items() if n}
        listed_routes = {r.id for r in rule.candidate_routes(game_map, hand)}
        for route in game_map.routes.values():
            options = rule.claim_options(game_map, route, hand)
            if options:
                assert route.id in listed_routes, route.id
            for payment in options:
                assert has_cards(hand, payment), (route.id, payment)
                assert rule.fits(route, payment), (route.id, payment)
                rule.check_claim(game_map, route, hand, payment)
    # A payment the canonical list leaves out is accepted all the same.
    ferry = game_map.routes["honningsvag-tromso"]
    hand = {"loco": 2, "red": 3, "blue": 3, "green": 3}
    odd = cards({"loco": 2, "red": 2, "blue": 2, "green": 2})
    assert odd not in rule.claim_options(game_map, ferry, hand)
    rule.check_claim(game_map, ferry, hand, odd)


def test_a_huge_hand_lists_a_modest_number_of_nordic_payments() -> None:
    game_map = load_map("nordic")
    rule = NordicPayment()
    hand = {c: 12 for c in COLOURS} | {LOCO: 14}
    for route_id in ("murmansk-lieksa", "helsinki-stockholm-1", "mo_i_rana-trondheim-2"):
        options = rule.claim_options(game_map, game_map.routes[route_id], hand)
        assert 0 < len(options) < 200, (route_id, len(options))


@pytest.mark.parametrize("variant,players,seed", [("nordic", 2, 3), ("nordic", 3, 4), ("germany", 3, 5),
                                                  ("germany", 5, 6)])
def test_every_listed_action_is_accepted(variant: str, players: int, seed: int) -> None:
    record = play_game(variant, players, seed, ("greedy", "random"))
    state, _ = new_game(variant, players, seed)
    for i, action in enumerate(record.actions):
        if i % 4 == 0:
            for seat in range(players):
                for legal in legal_actions(state, seat):
                    apply(state, legal)  # raises if a listed action is refused
        state, _ = apply(state, action)
    assert state.game_over


def test_nordic_claim_listing_keeps_loco_payments_off_ordinary_routes() -> None:
    state, _ = new_game("nordic", 2, 2)
    game = load_game(state)
    state.pending = {"kind": "turn"}
    state.status = "playing"
    state.players[state.current].hand = {"loco": 6, "red": 2}
    for action in legal_actions(state, state.current):
        if isinstance(action, ClaimRoute) and dict(action.payment).get(LOCO):
            route = game.map.routes[action.route]
            assert route.tunnel or route.ferry_locos or "four_card_joker" in route.tags, action
