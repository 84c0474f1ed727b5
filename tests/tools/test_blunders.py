"""The judge of the blunder list (tools/blunders.py): each blunder seen where it happens, and
not where the same move is sound. Rigged hands and decks on a real Europe game."""

from __future__ import annotations

from collections import Counter

from ai.blunders import serves
from ai.greedy import GreedyAI
from engine.actions import Action, BuildStation, ClaimRoute, DrawCard, DrawTickets, GiveUpTunnel
from engine.cards import LOCO
from engine.game import actors, apply, legal_actions, new_game, view
from engine.maps import load_map
from engine.paths import shortest_open_path
from engine.state import GameState
from tools.blunders import Judge

TUNNEL = "munchen-venezia"  # blue, 2, a tunnel


def _first_turn(seed: int = 3) -> GameState:
    """A 2-player Europe game at seat 0's first turn (each kept its first offer)."""
    state, _ = new_game("europe", 2, seed, first_player=0)
    while state.pending.get("kind") != "turn":
        seat = actors(state)[0]
        state, _ = apply(state, legal_actions(state, seat)[0])
    assert actors(state) == [0]
    return state


def _play(judge: Judge, state: GameState, action: Action) -> GameState:
    after, events = apply(state, action)
    judge.check(state, action, after, events)
    return after


def _pass_turn(judge: Judge, state: GameState) -> GameState:
    """Seat 1 draws two blind cards."""
    state = _play(judge, state, DrawCard(1, None))
    return _play(judge, state, DrawCard(1, None))


def _try_tunnel(judge: Judge, state: GameState) -> GameState:
    """Seat 0 lays 2 blue cards on the tunnel; the reveal shows 3 blue; it gives up."""
    state.deck[-3:] = ["blue", "blue", "blue"]
    state = _play(judge, state, ClaimRoute(0, TUNNEL, (("blue", 2),)))
    assert state.pending["kind"] == "tunnel"
    return _play(judge, state, GiveUpTunnel(0))


def test_the_same_tunnel_given_up_twice_with_the_same_hand_is_a_blunder() -> None:
    state = _first_turn()
    state.players[0].hand = {"blue": 2}
    judge = Judge()
    state = _try_tunnel(judge, state)
    assert judge.counts == Counter()
    state = _pass_turn(judge, state)
    _try_tunnel(judge, state)
    assert judge.of_seat(0) == Counter({"tunnel_retry": 1})


def test_a_tunnel_tried_again_after_drawing_cards_is_no_blunder() -> None:
    state = _first_turn()
    state.players[0].hand = {"blue": 2}
    judge = Judge()
    state = _try_tunnel(judge, state)
    state = _pass_turn(judge, state)
    state.deck[-2:] = ["red", "red"]
    state = _play(judge, state, DrawCard(0, None))
    state = _play(judge, state, DrawCard(0, None))
    state = _pass_turn(judge, state)
    _try_tunnel(judge, state)
    assert judge.counts == Counter()


def test_tickets_drawn_in_the_final_round_are_a_blunder() -> None:
    state = _first_turn()
    state.final_turns_left = 2
    judge = Judge()
    _play(judge, state, next(a for a in legal_actions(state, 0) if isinstance(a, DrawTickets)))
    assert judge.of_seat(0) == Counter({"late_tickets": 1})


def test_tickets_drawn_with_trains_for_no_ticket_are_a_blunder_but_not_with_many() -> None:
    state = _first_turn()
    draw = next(a for a in legal_actions(state, 0) if isinstance(a, DrawTickets))
    judge = Judge()
    _play(judge, state, draw)
    assert judge.counts == Counter()
    state.players[0].trains = 1
    _play(judge, state, draw)
    assert judge.of_seat(0) == Counter({"late_tickets": 1})


def _needed_route(state: GameState) -> tuple[str, str, int]:
    """A plain (not tunnel, not ferry) route on the cheapest path of seat 0's first ticket,
    with its colour and length."""
    game_map = load_map(state.map_id)
    seen = view(state, 0)
    for rid, r in sorted(game_map.routes.items()):
        if r.tunnel or r.ferry_locos or r.color == "gray":
            continue
        if serves(seen, game_map, 0, rid):
            return rid, r.color, r.length
    raise AssertionError("no plain route on the first ticket's path")


def test_drawing_with_more_than_twelve_cards_while_a_needed_route_is_affordable_is_hoarding() -> None:
    state = _first_turn()
    _, colour, length = _needed_route(state)
    state.players[0].hand = {colour: length, LOCO: 13 - length}
    judge = Judge()
    _play(judge, state, DrawCard(0, None))
    assert judge.of_seat(0) == Counter({"hoarding": 1})


def test_drawing_with_twelve_cards_is_no_hoarding() -> None:
    state = _first_turn()
    _, colour, length = _needed_route(state)
    state.players[0].hand = {colour: length, LOCO: 12 - length}
    judge = Judge()
    _play(judge, state, DrawCard(0, None))
    assert judge.counts == Counter()


def test_a_claim_no_ticket_needs_beside_a_contested_needed_route_is_aimless() -> None:
    state = _first_turn()
    rid, colour, length = _needed_route(state)

    game_map = load_map(state.map_id)
    needed = game_map.routes[rid]
    # Seat 1 has built next to the needed route (off the ticket's path): it is contested.
    for beside in sorted(game_map.routes.values(), key=lambda r: r.id):
        if {needed.a, needed.b} & {beside.a, beside.b} and {beside.a, beside.b} != {needed.a, needed.b}:
            state.route_owner[beside.id] = 1
            if _serves(state, rid):
                break
            del state.route_owner[beside.id]
    state.players[1].routes.append(beside.id)
    state.players[0].hand = {colour: length, LOCO: 6}
    elsewhere = next(a for a in legal_actions(state, 0) if isinstance(a, ClaimRoute) and a.payment == ((LOCO, 1),)
                     and not _serves(state, a.route))
    judge = Judge()
    _play(judge, state, elsewhere)
    assert judge.of_seat(0) == Counter({"aimless_claim": 1})


def _serves(state: GameState, route: str) -> bool:

    return serves(view(state, 0), load_map(state.map_id), 0, route)


def test_a_ticket_one_station_would_have_saved_is_a_blunder_at_the_end() -> None:
    state = _first_turn()

    game_map = load_map(state.map_id)
    ticket = game_map.tickets[state.players[0].tickets[0]]
    # Seat 1 owns a route into the ticket's first city, seat 0 every route out of its other end
    # of that route to the ticket's second city: only a station joins them.
    into = next(r for r in sorted(game_map.routes.values(), key=lambda r: r.id) if ticket.a in (r.a, r.b))
    far = into.b if into.a == ticket.a else into.a
    state.route_owner[into.id] = 1
    state.players[1].routes.append(into.id)
    judge = Judge()
    state = _play(judge, state, DrawCard(0, None))
    state = _play(judge, state, DrawCard(0, None))
    last = state
    # Seat 0's routes reach from `far` to the ticket's other city (the judge only reads them).

    found = shortest_open_path(view(last, 0), game_map, 0, far, ticket.b)
    assert found is not None
    for rid in found[1]:
        last.route_owner[rid] = 0
        last.players[0].routes.append(rid)
    judge._last_turn[0] = last
    last.result = {"sheets": [{"seat": 0, "tickets": [{"id": ticket.id, "completed": False}]}]}
    judge.finish(last)
    assert judge.of_seat(0) == Counter({"station_lost": 1})
    last.players[0].stations = 0
    judge = Judge(_last_turn={0: last})
    judge.finish(last)
    assert judge.counts == Counter()


def test_the_station_advice_builds_the_station_that_saves_a_ticket() -> None:

    state = _first_turn()
    game_map = load_map(state.map_id)
    ticket = game_map.tickets[state.players[0].tickets[0]]
    found = shortest_open_path(view(state, 0), game_map, 0, ticket.a, ticket.b)
    assert found is not None
    path = found[1]
    # Seat 0 owns the path but for one route, which seat 1 owns (both tracks of a double).
    cut = game_map.routes[path[0]]
    for r in game_map.routes.values():
        if {r.a, r.b} == {cut.a, cut.b}:
            state.route_owner[r.id] = 1
            state.players[1].routes.append(r.id)
    for rid in path[1:]:
        state.route_owner[rid] = 0
        state.players[0].routes.append(rid)
    state.players[0].hand = {"red": 3}
    choice = GreedyAI(1).choose(view(state, 0), legal_actions(state, 0))
    assert isinstance(choice, BuildStation)
    assert choice.city in (cut.a, cut.b)
