"""Typed events and decisions: every event kind is one frozen payload class, declared beside the
rule that emits it; its stored JSON is what it always was; every kind has words; the decision a
game waits for reads as one frozen class per kind; and nobody outside the engine reads an event
or a decision by string key."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
from pathlib import Path

import pytest

import bot_app.presentation.words  # noqa: F401  (imports every module of words, which registers them)
import engine.rules
from bot_app.presentation.words.base import Words
from bot_app.presentation.words.core import CoreWords
from engine.core import Shuffle, Turn
from engine.decisions import Decision, UntypedDecision, decision_of, kind_of
from engine.events import PRIVATE, Event, Payload, Untyped
from engine.game import view
from engine.rules.module import CORE_EVENTS, RuleModule
from engine.rules.routes import RouteClaimed
from engine.rules.tickets import TicketsOffered
from tools.selfplay import play_game

ROOT = Path(__file__).resolve().parents[2]
READERS = ("bot_app", "app", "render", "ai", "cogs")
# `.data` on these is not an event's (a Discord interaction, a translation context, a refusal).
NOT_EVENTS = {"interaction", "context", "exc", "self"}


def _rule_modules() -> None:
    for info in pkgutil.walk_packages(engine.rules.__path__, "engine.rules."):
        importlib.import_module(info.name)


_rule_modules()
KINDS = dict(Payload.registry)
DECISIONS = dict(Decision.registry)


def _words_classes(cls: type[Words] = Words) -> list[type[Words]]:
    out = []
    for sub in cls.__subclasses__():
        out.append(sub)
        out.extend(_words_classes(sub))
    return out


# --- the payloads ------------------------------------------------------------------------------


def test_every_kind_is_one_frozen_dataclass_declared_beside_a_rule_or_the_core():
    assert len(KINDS) >= 40
    for kind, cls in KINDS.items():
        assert cls.kind == kind
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]
        assert cls.__module__.startswith("engine.rules.") or cls.__module__ in ("engine.core",), cls


def test_a_kind_cannot_be_declared_twice():
    with pytest.raises(ValueError, match="already declared"):
        @dataclasses.dataclass(frozen=True)
        class AnotherClaim(Payload):  # noqa: F841
            kind = "route_claimed"


def test_the_core_kinds_are_those_the_core_declares():
    assert set(CORE_EVENTS) == {"game_started", "turn_started", "deck_reshuffled", "shuffle", "final_round",
                                "game_over", "passed", "deadlock", "move_undone"}


def test_the_stored_json_is_the_same_as_before_payloads_were_typed():
    claim = Event(RouteClaimed(player=1, route="a-b", payment={"red": 2}, points=2))
    assert claim.to_json() == {"kind": "route_claimed", "visibility": "public",
                               "data": {"player": 1, "route": "a-b", "payment": {"red": 2}, "points": 2}}
    # A field some emitters of a kind never wrote is left out, not written as null.
    assert Event(Shuffle(deck=90, rng=7), "hidden").to_json()["data"] == {"deck": 90, "rng": 7}
    offer = Event(TicketsOffered(tickets=["t1"], keep=1), PRIVATE, 2).to_json()
    assert offer == {"kind": "tickets_offered", "data": {"tickets": ["t1"], "keep": 1}, "visibility": "private",
                     "seat": 2}
    assert Event.from_json(offer) == Event(TicketsOffered(tickets=["t1"], keep=1), PRIVATE, 2)


def test_an_old_row_no_class_reads_still_loads_and_is_written_back_unchanged():
    for row in ({"kind": "retired_kind", "data": {"x": 1}, "visibility": "public"},
                {"kind": "route_claimed", "data": {"route": "a-b"}, "visibility": "public"}):
        e = Event.from_json(row)
        assert isinstance(e.payload, Untyped) and e.kind == row["kind"]
        assert e.to_json() == row


@pytest.mark.parametrize(("variant", "dice"), [("usa", False), ("europe", False), ("germany", False),
                                               ("alsace", False), ("ussr", True), ("nordic", True)])
def test_every_event_of_a_game_reads_back_typed_to_the_same_json(variant, dice):
    seen: set[str] = set()

    def check(before, action, after, events):
        for e in events:
            row = e.to_json()
            back = Event.from_json(row)
            assert not isinstance(back.payload, Untyped), row
            assert back.to_json() == row
            seen.add(e.kind)

    play_game(variant, 3 if variant != "nordic" else 2, 5, ("greedy",), {"dice": True} if dice else None, check)
    assert {"game_started", "turn_started", "route_claimed"} <= seen


def test_every_kind_a_rule_module_says_it_emits_is_a_declared_payload():
    modules = []
    stack = list(RuleModule.__subclasses__())
    while stack:
        cls = stack.pop()
        modules.append(cls)
        stack.extend(cls.__subclasses__())
    assert len(modules) >= 20
    for cls in modules:
        unknown = sorted(set(cls.events) - set(KINDS))
        assert not unknown, f"{cls.__name__} says it emits {unknown}, which no payload class declares"


def test_every_kind_has_words():
    said = {k for w in [CoreWords, *_words_classes()] for k in w.events}
    missing = sorted(set(KINDS) - said)
    assert not missing, f"event kinds with no words: {missing}"


# --- the decisions ------------------------------------------------------------------------------


def test_every_decision_kind_is_one_frozen_dataclass_declared_beside_a_rule_or_the_core():
    assert {"turn", "second_card", "choose_tickets", "tunnel", "choose_passenger", "call_time", "dice_roll",
            "dice_action", "dice_token", "dice_discard", "dice_tunnel"} <= set(DECISIONS)
    for kind, cls in DECISIONS.items():
        assert cls.kind == kind
        assert dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]
        assert cls.__module__.startswith("engine.rules.") or cls.__module__ == "engine.core", cls


def test_the_state_keeps_its_dict_and_readers_get_the_decision():
    assert decision_of({}) is None and kind_of(None) == ""
    assert decision_of({"kind": "turn"}) == Turn()
    old = decision_of({"kind": "retired", "x": 1})
    assert isinstance(old, UntypedDecision) and kind_of(old) == "retired"


@pytest.mark.parametrize(("variant", "dice"), [("usa", False), ("europe", False), ("germany", False),
                                               ("alsace", False), ("ussr", True), ("nordic", True)])
def test_every_decision_of_a_game_is_typed_in_every_seats_view(variant, dice):
    seen: set[str] = set()

    def check(before, action, after, events):
        for seat in (None, *range(len(after.players))):
            decision = view(after, seat).pending.decision
            assert not isinstance(decision, UntypedDecision), (after.pending, decision)
            assert kind_of(decision) == after.pending.get("kind", "")
            seen.add(kind_of(decision))

    play_game(variant, 3 if variant != "nordic" else 2, 5, ("greedy",), {"dice": True} if dice else None, check)
    assert {"turn", "choose_tickets"} & seen


# --- nobody outside the engine reads an event or a decision by string key ---------------------------------------


def _is_pending(node: ast.expr) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "pending"


def _string_reads(path: Path) -> list[str]:
    """Reads of an event or a decision by string key in one file: `data(e, "…")`, `x.data[…]`,
    `x.data.get(…)`, `….to_json()["data"]`, a `.kind` compared with an event kind's string, and
    any read of `….pending` but its typed parts (`.decision`, `.offers`, `.setup`, …)."""
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for node in ast.walk(tree):
        where = f"{path}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "data" \
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant):
            found.append(f"{where} {ast.unparse(node)}")
        if isinstance(node, ast.Attribute) and node.attr == "data":
            base = node.value
            if isinstance(base, ast.Name) and base.id in NOT_EVENTS:
                continue
            found.append(f"{where} {ast.unparse(node)}")
        # The decision: `….pending.kind`, `….pending.data`, `….pending.get(…)`, `….pending[…]`.
        if isinstance(node, ast.Attribute) and node.attr in ("kind", "data", "get") and _is_pending(node.value):
            found.append(f"{where} {ast.unparse(node)}")
        if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and _is_pending(node.value):
            found.append(f"{where} {ast.unparse(node)}")
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "data" \
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) \
                and node.value.func.attr == "to_json":
            found.append(f"{where} {ast.unparse(node)}")
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr == "kind" for s in sides):
                strings = [c.value for s in sides for c in ast.walk(s)
                           if isinstance(c, ast.Constant) and isinstance(c.value, str)]
                if any(s in KINDS for s in strings):
                    found.append(f"{where} {ast.unparse(node)}")
    return found


def test_no_event_field_or_decision_is_read_by_string_key_outside_the_engine():
    files = [p for room in READERS for p in sorted((ROOT / room).rglob("*.py"))]
    assert len(files) > 100  # the walk really found the rooms
    found = [hit for p in files for hit in _string_reads(p)]
    assert not found, "read the payload's or the decision's fields instead:\n" + "\n".join(found)


def test_the_check_sees_a_string_read(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('def f(e, v, s):\n    return e.data["route"], data(e, "route"), e.kind == "route_claimed", '
                   'v.pending.kind == "turn", s.pending.get("kind"), s.pending["offers"]\n')
    assert len(_string_reads(bad)) == 6
