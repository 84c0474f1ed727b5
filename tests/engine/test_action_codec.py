"""The action codec reads each field's type through typing, with no text evaluated by hand:
a card set (Cards, marked) is written as names with counts, a tuple of pairs written out is a
list, and a type the JSON form has no rule for fails when the class is registered."""

from __future__ import annotations

import ast
import inspect
from dataclasses import dataclass
from typing import ClassVar

import pytest

import engine.actions
from engine.actions import Action, action_from_json, register
from engine.cards import Cards
from engine.errors import IllegalAction


@dataclass(slots=True, unsafe_hash=True)
class _Swap(Action):
    """A throw-away action with a card set and a plain tuple of pairs."""

    TYPE: ClassVar[str] = "test_swap"
    give: Cards = ()
    pairs: tuple[tuple[str, int], ...] = ()
    note: str | None = None


@pytest.fixture(autouse=True)
def _registered():
    """The throw-away actions are registered for one test each, then forgotten, so that no
    other test (the action fuzz lists every type) meets them."""
    register(_Swap)
    yield
    for name in [n for n in engine.actions.ACTION_TYPES if n.startswith("test_")]:
        engine.actions._FIELDS.pop(engine.actions.ACTION_TYPES.pop(name), None)


def test_a_card_set_is_written_as_names_with_counts_and_pairs_as_a_list():
    swap = _Swap(player=1, give=(("loco", 1), ("red", 2)), pairs=(("a", 1),), note="x")
    data = swap.to_json()
    assert data["give"] == {"loco": 1, "red": 2}
    assert list(map(list, data["pairs"])) == [["a", 1]] and not isinstance(data["pairs"], dict)
    assert action_from_json(data) == swap


def test_a_card_set_given_as_a_list_is_refused_in_words():
    with pytest.raises(IllegalAction, match="give"):
        action_from_json({"type": "test_swap", "player": 1, "give": [["red", 2]]})


def test_a_type_the_json_form_cannot_carry_fails_at_registration():
    with pytest.raises(TypeError, match="cannot carry"):
        @register
        @dataclass(slots=True, unsafe_hash=True)
        class _Bad(Action):
            TYPE: ClassVar[str] = "test_bad"
            weights: dict[str, float] | None = None


def test_a_card_set_inside_another_type_fails_at_registration():
    with pytest.raises(TypeError, match="field of its own"):
        @register
        @dataclass(slots=True, unsafe_hash=True)
        class _Nested(Action):
            TYPE: ClassVar[str] = "test_nested"
            hands: tuple[Cards, ...] = ()


def test_the_codec_evaluates_no_text():
    tree = ast.parse(inspect.getsource(engine.actions))
    called = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    assert not called & {"eval", "exec", "compile"}
