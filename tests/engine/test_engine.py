"""The engine's contract: determinism, JSON forms, refusals that change nothing, and views."""

from __future__ import annotations

import dataclasses
import json

import pytest

from engine.actions import (
    ACTION_TYPES,
    Action,
    BuildStation,
    ClaimRoute,
    DrawCard,
    DrawTickets,
    KeepTickets,
    Pass,
    action_from_json,
)
from engine.cards import cards
from engine.errors import IllegalAction
from engine.game import actors, apply, legal_actions, legal_actions_of, new_game, replay, view
from engine.rng import Rng, seed_state
from engine.rules.train_cards import CardReceived
from engine.rulesets import available_variants
from engine.state import GameState
from tools.selfplay import play_game


def test_generator_sequence_is_pinned() -> None:
    # Old games must replay for ever: these numbers may never change.
    rng = Rng(seed_state(1))
    assert [rng.next_u64() for _ in range(3)] == [
        10451216379200822465,
        13757245211066428519,
        17911839290282890590,
    ]
    rng = Rng(seed_state(42))
    deck = list(range(10))
    rng.shuffle(deck)
    assert deck == [0, 9, 5, 8, 6, 4, 7, 2, 1, 3]


def test_below_is_in_range_and_uses_every_value() -> None:
    rng = Rng(seed_state(7))
    seen = {rng.below(6) for _ in range(600)}
    assert seen == set(range(6))
    with pytest.raises(ValueError):
        rng.below(0)


def test_same_seed_same_deal_and_different_seed_different_deal() -> None:
    a, _ = new_game("usa", 3, 5)
    b, _ = new_game("usa", 3, 5)
    c, _ = new_game("usa", 3, 6)
    assert a.to_canonical() == b.to_canonical()
    assert a.deck != c.deck


def test_opening_deal_europe() -> None:
    state, events = new_game("europe", 4, 3)
    assert state.status == "setup"
    assert state.pending["kind"] == "choose_tickets"
    for seat, p in enumerate(state.players):
        assert p.hand_size() == 4
        assert p.trains == 45 and p.stations == 3
        offer = state.pending["offers"][seat]
        decks = sorted(__import__("engine.maps", fromlist=["x"]).load_map("europe").tickets[t].deck for t in offer)
        assert decks == ["long", "short", "short", "short"]
    assert len([c for c in state.display if c]) == 5
    # the undealt long tickets leave the game
    assert state.ticket_decks["long"] == []
    assert len(state.ticket_decks["short"]) == 40 - 12
    # everybody chooses at once
    assert actors(state) == [0, 1, 2, 3]
    assert any(e.kind == "game_started" for e in events)


def test_opening_choice_is_simultaneous_and_then_the_first_player_starts() -> None:
    state, _ = new_game("usa", 2, 9, first_player=1)
    for seat in (1, 0):
        offer = state.pending["offers"][seat]
        state, _ = apply(state, KeepTickets(seat, tuple(offer[:2])))
    assert state.status == "playing"
    assert state.pending == {"kind": "turn"}
    assert state.current == 1
    assert len(state.players[0].tickets) == 2


def test_first_player_comes_from_the_seed() -> None:
    firsts = {new_game("usa", 4, seed)[0].current for seed in range(30)}
    assert firsts == {0, 1, 2, 3}


def test_every_action_type_round_trips_through_json() -> None:
    samples = [
        DrawCard(0, None),
        DrawCard(1, 3),
        ClaimRoute(0, "berlin-frankfurt-1", cards({"red": 2, "loco": 1})),
        DrawTickets(2),
        DrawTickets(2, (("short", 3), ("long", 1))),
        KeepTickets(0, ("a-b", "c-d")),
        BuildStation(1, "berlin", cards({"loco": 1})),
        Pass(0),
    ]
    for action in samples:
        text = json.dumps(action.to_json(), sort_keys=True)
        assert action_from_json(json.loads(text)) == action
    assert {"draw_card", "claim_route", "draw_tickets", "keep_tickets", "build_station", "pay_tunnel",
            "give_up_tunnel", "pass"} <= set(ACTION_TYPES)


@pytest.mark.parametrize(
    "bad",
    [
        None,
        "claim",
        {"type": "fly", "player": 0},
        {"type": "claim_route", "player": "me", "route": "x", "payment": {}},
        {"type": "claim_route", "player": 0, "route": "x", "payment": {"red": -1}},
        {"type": "draw_card"},
        {"type": "draw_card", "player": 0, "slot": "two"},
        {"type": "keep_tickets", "player": 0, "keep": "boston-miami"},
    ],
)
def test_malformed_actions_are_refused_in_plain_words(bad: object) -> None:
    state, _ = new_game("usa", 2, 1)
    before = state.to_canonical()
    with pytest.raises(IllegalAction) as refusal:
        apply(state, bad)  # type: ignore[arg-type]
    assert refusal.value.message.endswith(".")
    assert state.to_canonical() == before


def test_acting_out_of_turn_is_refused_and_names_who_is_awaited() -> None:
    state, _ = new_game("usa", 2, 1, first_player=0, names=["Ann", "Bob"])
    for seat in (0, 1):
        state, _ = apply(state, KeepTickets(seat, tuple(state.pending["offers"][seat])))
    with pytest.raises(IllegalAction, match="waiting for Ann") as refusal:
        apply(state, DrawCard(1, None))
    assert refusal.value.code == "not_your_turn"


def test_acting_after_the_game_is_over_is_refused() -> None:
    record = play_game("usa", 2, 3, ("greedy",))
    with pytest.raises(IllegalAction, match="over"):
        apply(record.state, Pass(0))
    assert legal_actions(record.state, 0) == []


def test_unknown_variant_and_bad_player_counts_are_refused() -> None:
    with pytest.raises(IllegalAction, match="no variant"):
        new_game("mars", 2, 1)
    with pytest.raises(IllegalAction, match="2 to 5 players"):
        new_game("europe", 6, 1)
    with pytest.raises(IllegalAction, match="no option"):
        new_game("europe", 2, 1, {"warp": True})


def test_state_json_round_trip_is_exact() -> None:
    record = play_game("europe", 3, 4, ("random",))
    text = record.state.to_canonical()
    assert GameState.from_canonical(text).to_canonical() == text
    assert GameState.from_json(json.loads(text)) == record.state


def test_replay_from_seed_and_actions_is_bit_for_bit() -> None:
    record = play_game("europe", 4, 21, ("greedy", "random"))
    actions_json = json.loads(json.dumps([a.to_json() for a in record.actions]))
    again = replay("europe", 4, 21, actions_json)
    assert again.to_canonical() == record.state.to_canonical()


def test_view_hides_hands_tickets_offers_deck_and_seed() -> None:
    state, _ = new_game("europe", 3, 8)
    v = view(state, 1)
    assert v.you == 1
    fields = {f.name for f in dataclasses.fields(v)}
    assert not fields & {"seed", "rng", "secret", "extra"}
    assert v.deck == len(state.deck)
    assert v.players[1].hand == state.players[1].hand
    assert v.players[0].hand is None and v.players[0].hand_size == 4
    assert v.pending.offers is not None
    assert list(v.pending.offers[1]) == state.pending["offers"][1]
    assert v.pending.offers[0] == 4
    public = view(state, None)
    assert all(p.hand is None and p.tickets is None for p in public.players)


def test_view_shows_every_public_field_of_the_state() -> None:
    # A new state field must be placed on one side of the secret line on purpose. (`extra`,
    # the rule modules' own data, is shown through the parts they declare.)
    state, _ = new_game("usa", 2, 1)
    secret_fields = {"seed", "rng", "secret"}
    shown = {f.name for f in dataclasses.fields(view(state, 0))}
    assert set(state.to_json()) - secret_fields - {"extra"} <= shown


def test_events_of_a_blind_draw_show_the_card_only_to_the_drawer() -> None:
    state, _ = new_game("usa", 2, 2, first_player=0)
    for seat in (0, 1):
        state, _ = apply(state, KeepTickets(seat, tuple(state.pending["offers"][seat])))
    top = state.deck[-1]
    state, events = apply(state, DrawCard(0, None))
    public = [e for e in events if e.visible_to(None)]
    assert all("card" not in e.to_json()["data"] for e in public if e.kind == "card_drawn")
    private = [e for e in events if isinstance(e.payload, CardReceived)]
    assert private[0].seat == 0 and private[0].payload.card == top
    assert not private[0].visible_to(1)


def test_the_fast_open_route_test_agrees_with_the_refusal_rules() -> None:
    from engine.game import load_game
    from engine.rules.routes import blocked_reason, open_route_test

    for variant, players, seed in (("usa", 2, 3), ("usa", 4, 4), ("europe", 3, 5), ("europe", 5, 6)):
        record = play_game(variant, players, seed, ("greedy", "random"))
        state, _ = new_game(variant, players, seed)
        for i, action in enumerate(record.actions):
            state, _ = apply(state, action)
            if i % 7 or state.game_over:
                continue
            game = load_game(state)
            for seat in range(players):
                is_open = open_route_test(game, seat)
                for route in game.map.routes.values():
                    assert is_open(route) == (blocked_reason(game, seat, route) is None), (route.id, seat)


def test_every_listed_claim_is_accepted() -> None:
    record = play_game("europe", 4, 12, ("random",))
    state, _ = new_game("europe", 4, 12)
    for i, action in enumerate(record.actions):
        if i % 5 == 0 and state.pending.get("kind") == "turn":
            for legal in legal_actions(state, state.current):
                apply(state, legal)  # raises if a listed action is refused
        state, _ = apply(state, action)


def test_clone_copies_every_field_of_the_state_and_its_players():
    """`clone` is written out field by field for speed: it must not forget one (every field of
    the dataclasses equal, every container a copy of its own)."""
    import dataclasses

    from engine.state import PlayerState

    state, _ = new_game("europe", 3, 11)
    state.extra["probe"] = {"nested": [1, 2]}
    state.secret["probe"] = [3]
    state.result = {"sheets": []}
    state.players[0].public["probe"] = {"a": 1}
    state.players[0].private["probe"] = [1]
    copy = state.clone()
    for cls, original, cloned in [(GameState, state, copy)] + [
            (PlayerState, p, q) for p, q in zip(state.players, copy.players, strict=True)]:
        for f in dataclasses.fields(cls):
            a, b = getattr(original, f.name), getattr(cloned, f.name)
            assert a == b, f.name
            if isinstance(a, list | dict) and a:
                assert a is not b, f"{cls.__name__}.{f.name} is shared with the clone"
    assert copy.to_canonical() == state.to_canonical()


@pytest.mark.parametrize("dice", [False, True])
@pytest.mark.parametrize("variant", available_variants())
def test_the_legal_actions_of_one_type_are_those_legal_actions_lists(variant: str, dice: bool) -> None:
    """legal_actions_of (what a rollout asks for: the claims) gives exactly the actions of that
    type that legal_actions lists, in the same order, at every step of a game."""
    checked = 0

    def check(before: GameState, action: Action | None, after: GameState, events: list) -> None:
        nonlocal checked
        for seat in actors(after):
            listed = legal_actions(after, seat)
            for kind in (ClaimRoute, DrawCard, BuildStation):
                assert legal_actions_of(after, seat, kind) == [a for a in listed if isinstance(a, kind)]
            checked += 1

    play_game(variant, 3, 5, ("greedy", "random"), {"dice": True} if dice else {}, check)
    assert checked > 50


IN_PLACE_TABLES = [(variant, options) for variant in available_variants()
                   for options in ({}, {"dice": True, "undo": True})]


@pytest.mark.parametrize("variant,options", IN_PLACE_TABLES,
                         ids=[f"{v}{'-dice-undo' if o else ''}" for v, o in IN_PLACE_TABLES])
def test_a_log_replayed_in_place_gives_the_same_state_and_events_at_every_step(variant: str, options) -> None:
    """apply_in_place (a replay's own working copy, no clone per entry) is apply: the same
    state text and events after every move of a whole game, undos included."""
    from ai.levels import make_ai
    from engine.actions import Undo
    from engine.game import apply_in_place
    from engine.undo import can_undo

    players = 3 if variant != "nordic" else 2
    seed = 20261202
    state, _ = new_game(variant, players, seed, options)
    ais = [make_ai("greedy", seed + i) for i in range(players)]
    log = []
    for _ in range(3000):
        if state.game_over:
            break
        seat = actors(state)[0]
        action = ais[seat].choose(view(state, seat), legal_actions(state, seat))
        state, _ = apply(state, action)
        log.append(action)
        if can_undo(state, action.player) and len(log) % 3 == 0:
            state, _ = apply(state, Undo(action.player))
            log.append(Undo(action.player))
    assert state.game_over
    pure, _ = new_game(variant, players, seed, options)
    owned, _ = new_game(variant, players, seed, options)
    if options.get("undo"):
        assert any(isinstance(a, Undo) for a in log), "no move of the game was taken back"
    for action in log:
        previous, before = pure, pure.to_canonical()
        pure, events = apply(pure, action)
        assert previous.to_canonical() == before, "apply changed the state it was given"
        owned, owned_events = apply_in_place(owned, action)
        assert owned.to_canonical() == pure.to_canonical()
        assert owned_events == events
    assert owned.to_canonical() == state.to_canonical()


def test_canonical_json_is_the_json_modules_sorted_text() -> None:
    from engine.state import canonical_json

    values = [[0, 2], {"b": [1, {"z": None, "y": 1.5}], "a": True}, {"text": "héllo \n\t\"x\" \u2028 \x7f \x1f ✓"},
              {"due_at": 1733166000.123456, "left": 86400.0, "hours": 0.5}, {10: "a", 9: "b"}, "plain", 12, None]
    for value in values:
        assert canonical_json(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # A float far from 1 may be spelled otherwise, for the same number.
    odd = {"tiny": 1e-05, "big": 1e22}
    assert json.loads(canonical_json(odd)) == odd
