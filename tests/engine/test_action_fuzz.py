"""Decoding actions checks every field all the way down, and no decoded action, however odd,
makes `apply` raise anything but IllegalAction (with one short plain sentence)."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import json
import random
from typing import Any, ClassVar

import pytest

from engine.actions import (
    ACTION_TYPES,
    MAX_ITEMS,
    MAX_NUMBER,
    MAX_TEXT,
    Action,
    action_from_json,
    register,
)
from engine.cards import COLOURS, Cards
from engine.errors import IllegalAction
from engine.game import actors, apply, legal_actions, load_game, new_game
from engine.rulesets import available_variants
from engine.state import GameState

# ---------------------------------------------------------------------------------------------
# Decoding
# ---------------------------------------------------------------------------------------------


def refusal(data: Any) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        action_from_json(data)
    assert caught.value.code == "malformed"
    assert_plain(caught.value.message)
    return caught.value


def assert_plain(message: str) -> None:
    """One short sentence: no line breaks, no Python repr of a list, tuple or dict."""
    assert isinstance(message, str) and message
    assert "\n" not in message and len(message) <= 300, message
    for marker in ("('", "['", "{'", "[[", "((", "[]", "()", "{}", "Traceback"):
        assert marker not in message, message


@pytest.mark.parametrize("data", [
    {"type": "keep_tickets", "player": 0, "keep": [[[]]]},
    {"type": "keep_tickets", "player": 0, "keep": [["a", "b"]]},
    {"type": "keep_tickets", "player": 0, "keep": [{"a": 1}]},
    {"type": "keep_tickets", "player": 0, "keep": ["x" * (MAX_TEXT + 1)]},
    {"type": "keep_tickets", "player": 0, "keep": ["a"] * (MAX_ITEMS + 1)},
    {"type": "keep_tickets", "player": 0, "keep": [None]},
    {"type": "reroll_dice", "player": 0, "keep": [1, 2]},
    {"type": "draw_tickets", "player": 0, "mix": [["short", 2, 3]]},
    {"type": "draw_tickets", "player": 0, "mix": [["short", True]]},
    {"type": "draw_tickets", "player": 0, "mix": [[["short"], 2]]},
    {"type": "draw_tickets", "player": 0, "mix": [["short", 10**30]]},
    {"type": "draw_tickets", "player": 0, "mix": [["short", 2.0]]},
    {"type": "claim_route", "player": 0, "route": "a-b", "payment": {"red": 10**30}},
    {"type": "claim_route", "player": 0, "route": "a-b", "payment": {"red": True}},
    {"type": "claim_route", "player": 0, "route": "a-b", "payment": {"red": [1]}},
    {"type": "claim_route", "player": 0, "route": "a-b", "payment": [["red", 2]]},
    {"type": "claim_route", "player": 0, "route": "a-b",
     "payment": {f"c{i}": 1 for i in range(MAX_ITEMS + 1)}},
    {"type": "claim_route", "player": 0, "route": ["a-b"], "payment": {}},
    {"type": "claim_route", "player": 0, "route": "x" * 6000, "payment": {}},
    {"type": "draw_card", "player": True},
    {"type": "draw_card", "player": -1},
    {"type": "draw_card", "player": MAX_NUMBER + 1},
    {"type": "draw_card", "player": 0, "slot": 1.0},
    {"type": "draw_card", "player": 0, "slot": False},
    {"type": "call_time", "player": 0, "call": 1},
    {"type": "call_time", "player": 0, "call": "yes"},
    {"type": "x" * 5000, "player": 0},
    {"type": "bad\nline\u202e", "player": 0},
    {"type": "pass"},
])
def test_malformed_fields_are_refused_in_one_sentence(data: Any) -> None:
    refusal(data)


def test_an_unknown_type_is_quoted_shortly() -> None:
    message = refusal({"type": "x" * 5000, "player": 0}).message
    assert "x" * 39 + "…" in message and "x" * 41 not in message
    assert refusal({"type": "fly", "player": 0}).message == "There is no action called 'fly'."


def test_the_refusal_names_the_field_and_what_it_must_be() -> None:
    message = refusal({"type": "keep_tickets", "player": 0, "keep": [[[]]]}).message
    assert message.startswith("'keep' must be a list of at most 50 items")
    assert message.endswith(".")


def test_well_formed_values_at_the_bounds_decode() -> None:
    action = action_from_json({"type": "keep_tickets", "player": MAX_NUMBER,
                               "keep": ["x" * MAX_TEXT] * MAX_ITEMS})
    assert len(action.keep) == MAX_ITEMS
    action = action_from_json({"type": "draw_tickets", "player": 0,
                               "mix": [("short", 2), ["long", 0]]})
    assert action.mix == (("short", 2), ("long", 0))
    assert action_from_json({"type": "draw_card", "player": 0, "slot": None}).slot is None


def test_json_encoding_is_unchanged() -> None:
    available_variants()  # every rule set read, so every variant's actions are registered (call_time)
    # Stored games replay from this form: card sets as objects, everything else as is.
    samples = {
        "claim_route": {"type": "claim_route", "player": 1, "route": "a-b",
                        "payment": {"loco": 1, "red": 2}},
        "draw_tickets": {"type": "draw_tickets", "player": 0, "mix": [["long", 1], ["short", 3]]},
        "keep_tickets": {"type": "keep_tickets", "player": 0, "keep": ["a-b", "c-d"]},
        "draw_card": {"type": "draw_card", "player": 0, "slot": None},
        "buy_token": {"type": "buy_token", "player": 0, "token": "double",
                      "payment": {"single": 1, "wild": 1}},
        "call_time": {"type": "call_time", "player": 2, "call": False},
    }
    for data in samples.values():
        action = action_from_json(data)
        assert json.loads(json.dumps(action.to_json())) == data
    assert set(ACTION_TYPES) >= set(samples)


@pytest.mark.parametrize("annotation", ["dict[str, int]", "float", "list[str]", "tuple", "Any",
                                        "tuple[float, ...] | None", "int | str", "Cards | None",
                                        "tuple[Cards, ...]", "tuple[int, ...] | str"])
def test_an_annotation_without_a_decoder_fails_at_registration(annotation: str) -> None:
    # As a module with `from __future__ import annotations` declares it: the text, resolved here.
    body = {"__annotations__": {"where": annotation}, "where": None, "__module__": __name__,
            "TYPE": "odd_fuzz_test_action"}
    cls = dataclasses.dataclass(slots=True, unsafe_hash=True)(
        type("OddFuzzTestAction", (Action,), body))
    try:
        with pytest.raises(TypeError, match="OddFuzzTestAction.where"):
            register(cls)
    finally:
        assert ACTION_TYPES.pop("odd_fuzz_test_action", None) is None


def test_cards_written_out_are_a_list_of_pairs_and_the_alias_an_object() -> None:
    @register
    @dataclasses.dataclass(slots=True, unsafe_hash=True)
    class TwoKinds(Action):
        TYPE: ClassVar[str] = "two_kinds_fuzz_test_action"
        pay: Cards = ()
        pairs: tuple[tuple[str, int], ...] = ()

    try:
        action = action_from_json({"type": TwoKinds.TYPE, "player": 0, "pay": {"red": 2},
                                   "pairs": [["red", 2]]})
        assert action.pay == action.pairs == (("red", 2),)
        assert action.to_json() == {"type": TwoKinds.TYPE, "player": 0, "pay": {"red": 2},
                                    "pairs": [("red", 2)]}
        refusal({"type": TwoKinds.TYPE, "player": 0, "pay": [["red", 2]]})
        refusal({"type": TwoKinds.TYPE, "player": 0, "pairs": {"red": 2}})
    finally:
        del ACTION_TYPES[TwoKinds.TYPE]


# ---------------------------------------------------------------------------------------------
# Fuzzing decode + apply over real games of every variant
# ---------------------------------------------------------------------------------------------


def game_states(variant: str, options: dict[str, Any], seed: int) -> list[GameState]:
    """Positions of one game played with random legal moves: its start and, on the way, the
    first position of each kind of decision plus a few others."""
    try:
        state, _ = new_game(variant, 3, seed, options)
    except IllegalAction:
        state, _ = new_game(variant, 2, seed, options)
    rng = random.Random(seed)
    out = [state]
    kinds = {state.pending.get("kind")}
    for step in range(160):
        waiting = actors(state)
        if not waiting:
            break
        seat = rng.choice(waiting)
        moves = legal_actions(state, seat)
        if not moves:
            break
        state, _ = apply(state, rng.choice(moves))
        kind = state.pending.get("kind")
        if kind not in kinds or step % 40 == 39:
            kinds.add(kind)
            out.append(state)
    return out


@functools.cache
def all_states() -> tuple[GameState, ...]:
    """Positions of every variant, with and without the dice, before their end (shared by
    the tests, which never change them: apply works on a copy)."""
    states = []
    for i, variant in enumerate(available_variants()):
        states += game_states(variant, {}, 100 + i)
        with contextlib.suppress(IllegalAction):  # a board the dice cannot play
            states += game_states(variant, {"dice": True}, 200 + i)
    return tuple(s for s in states if s.status != "over")


def words_of(state: GameState) -> list[str]:
    """Strings a player might send in this game: ids and names of its map, tickets and cards
    on offer, colours, dice faces, modes."""
    game = load_game(state)
    m = game.map
    words = [*COLOURS, "loco", "gray", "single", "double", "station", "wild", "token", "tunnel",
             "blank", "remove", "build", "short", "long", "main", "tourist", "", " ", "Loco",
             "x" * MAX_TEXT, "é🚂\u0301", "None", "0", "red\nblue", "\u202eevil", " Red ",
             "y" * (MAX_TEXT - 1) + "\n"]
    rng = random.Random(state.seed)
    words += rng.sample(list(m.routes), 5) + [m.route_label(r) for r in rng.sample(list(m.routes), 5)]
    words += rng.sample(list(m.cities), 5) + [c.name for c in rng.sample(list(m.cities.values()), 3)]
    words += rng.sample(list(m.tickets), 3)
    words += [c["id"] for c in m.extras.get("tourist_cards", ())][:8]
    for offer in state.pending.get("offers") or ():
        if isinstance(offer, list):
            words += offer
        elif isinstance(offer, dict):
            words += [w for v in offer.values() if isinstance(v, list) for w in v if isinstance(w, str)]
    for player in state.players:
        words += list(player.tickets)[:3] + list(player.routes)[:3]
    return [w for w in words if isinstance(w, str)]


def junk(rng: random.Random, depth: int = 0) -> Any:
    """Any JSON-ish value, nested a little."""
    roll = rng.random()
    if roll < 0.12:
        return None
    if roll < 0.22:
        return rng.random() < 0.5
    if roll < 0.40:
        return rng.choice((0, 1, 2, 5, -1, -7, MAX_NUMBER, MAX_NUMBER + 1, 10**30, -(10**30)))
    if roll < 0.48:
        return rng.choice((0.0, 1.5, -2.0, float("inf"), float("nan"), 1e300))
    if roll < 0.65:
        return rng.choice(("", "x", "red", "a-b", "x" * 5000, "é🚂\u0301\n", "\ud800"))
    if depth > 3:
        return []
    if roll < 0.85:
        return [junk(rng, depth + 1) for _ in range(rng.choice((0, 1, 2, 3, 60)))]
    keys = ["red", "loco", "", "x" * 200, "single"]
    return {rng.choice(keys): junk(rng, depth + 1) for _ in range(rng.randrange(4))}


def plausible(rng: random.Random, kind: str, words: list[str]) -> Any:
    """A value of roughly the right shape for a field, often with odd contents."""
    def word() -> str:
        return rng.choice(words)

    def number() -> int:
        return rng.choice((0, 0, 1, 1, 2, 3, 4, 5, 6, 7, 9, 12, 30, 45, 99, MAX_NUMBER))

    if kind == "int":
        return number()
    if kind == "int | None":
        return None if rng.random() < 0.3 else number()
    if kind == "str":
        return word()
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "Cards":
        if rng.random() < 0.1:  # as many long names as may be sent
            return {f"{i:02}" + "z" * (MAX_TEXT - 2): 1 for i in range(MAX_ITEMS)}
        return {word(): number() for _ in range(rng.randrange(5))}
    if kind == "tuple[str, ...]":
        if rng.random() < 0.1:
            return [f"{i:02}" + "z" * (MAX_TEXT - 2) for i in range(MAX_ITEMS)]
        return [word() for _ in range(rng.choice((0, 1, 2, 3, 4, 5, 6, MAX_ITEMS)))]
    if kind == "tuple[tuple[str, int], ...]":
        return [[word(), number()] for _ in range(rng.randrange(5))]
    raise AssertionError(f"the fuzz test has no plausible value for {kind!r}")


def random_action(rng: random.Random, state: GameState, words: list[str]) -> dict[str, Any]:
    """Often a legal move with one field changed, or a move of a type the game is waiting for
    with random fields, so that most cases get past "not now" into the rules themselves."""
    waiting = actors(state) or [0]
    seat = rng.choice(waiting)
    legal = legal_actions(state, seat)
    roll = rng.random()
    if legal and roll < 0.4:
        data = rng.choice(legal).to_json()
        cls = ACTION_TYPES[data["type"]]
        fields = [f for f in dataclasses.fields(cls) if f.name != "player"]
        for f in rng.sample(fields, min(len(fields), rng.randrange(1, 3))):
            data[f.name] = plausible(rng, str(f.type), words) if rng.random() < 0.7 else junk(rng)
        return data
    if legal and roll < 0.7:
        cls = type(rng.choice(legal))
    else:
        cls = rng.choice(sorted(ACTION_TYPES.values(), key=lambda c: c.TYPE))
    data = {"type": cls.TYPE}
    for f in dataclasses.fields(cls):
        roll = rng.random()
        if f.name == "player":
            data["player"] = seat if roll < 0.9 else junk(rng)
        elif roll < 0.1:
            continue  # left out: its default, or a refusal
        elif roll < 0.8:
            data[f.name] = plausible(rng, str(f.type), words)
        else:
            data[f.name] = junk(rng)
    return data


def test_no_decoded_action_makes_apply_raise_anything_but_illegal_action() -> None:
    states = all_states()
    assert len(states) >= 4 * len(available_variants())
    kinds = {s.pending.get("kind") for s in states}
    assert {"choose_tickets", "turn"} <= kinds and len(kinds) >= 6, kinds
    words = {id(s): words_of(s) for s in states}
    rng = random.Random(12)
    decoded = applied = 0
    for case in range(6000):
        state = rng.choice(states)
        data = random_action(rng, state, words[id(state)])
        try:
            action = action_from_json(data)
        except IllegalAction as exc:
            assert exc.code == "malformed"
            assert_plain(exc.message)
            continue
        decoded += 1
        try:
            apply(state, action)
            applied += 1
        except IllegalAction as exc:
            assert_plain(exc.message)
        except Exception as exc:  # noqa: BLE001 — the point of the test
            pytest.fail(f"case {case}: {type(exc).__name__}: {exc} on {state.variant} "
                        f"{state.options} at {state.pending.get('kind')!r} with {data!r:.300}")
    assert decoded > 2000 and applied > 20, (decoded, applied)


def test_refusals_repeat_made_up_names_shortly() -> None:
    # Every legal move of every position, with its names replaced by as many long or
    # multi-line names as decoding lets through: the refusal stays one short line.
    long_names = [f"{i:02}" + "z" * (MAX_TEXT - 2) for i in range(MAX_ITEMS)]
    odd = {"payment": [{name: 1 for name in long_names}, {"red\nblue": 1, "\u202e": 2}],
           "keep": [long_names, ["red\nblue"]], "mix": [[[name, 1] for name in long_names]],
           "route": ["q" * MAX_TEXT, "a\nb - c"], "city": ["q" * MAX_TEXT, "a\nb"],
           "colour": ["q" * MAX_TEXT, "red\nblue"], "discard": ["q" * MAX_TEXT, "a\nb"],
           "token": ["q" * MAX_TEXT], "mode": ["q" * MAX_TEXT]}
    refused = 0
    for state in all_states():
        for seat in actors(state):
            for move in legal_actions(state, seat)[:30]:
                for name, values in odd.items():
                    data = move.to_json()
                    if name not in data:
                        continue
                    for value in values:
                        data[name] = value
                        try:
                            apply(state, action_from_json(data))
                        except IllegalAction as exc:
                            assert_plain(exc.message)
                            refused += 1
    assert refused > 500
