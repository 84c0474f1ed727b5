"""The rule-set registry (engine/rulesets/): one record per rule set, found without a list, read
by everything that names a variant; and the facade (engine/game.py) over a rule set handed in."""

from __future__ import annotations

import dataclasses
import pkgutil
from pathlib import Path

import pytest

import engine.rulesets
from bot_app.presentation import table_options, text
from engine.errors import IllegalAction
from engine.game import actors, apply, legal_actions, load_game, new_game, replay, view
from engine.maps import available_maps
from engine.rules.bonuses import MostTicketsBonus
from engine.rulesets import available_variants, build_ruleset, option_keys, variant, variants
from engine.variant import Variant

ROOT = Path(__file__).resolve().parents[2]


def test_every_module_of_the_package_declares_one_record_and_the_registry_finds_them_all():
    modules = sorted(info.name for info in pkgutil.iter_modules(engine.rulesets.__path__))
    records = variants()
    assert sorted(type(r).__name__ for r in records) == ["Variant"] * len(modules)
    assert sorted(r.id for r in records) == sorted(getattr(engine.rulesets, m).VARIANT.id for m in modules)
    assert len({r.id for r in records}) == len(records)
    # The order players see: the base game first, then as the records place themselves (no
    # list to extend: a new record takes its place by its `order`).
    assert available_variants() == [r.id for r in sorted(records, key=lambda r: (r.order, r.id))]
    assert available_variants()[:4] == ["usa", "europe", "nordic", "germany"]


@pytest.mark.parametrize("record", variants(), ids=lambda r: r.id)
def test_a_record_is_what_its_rule_set_is_built_with(record: Variant):
    assert record.map_id in available_maps()
    for players in range(record.min_players, record.max_players + 1):
        rules = build_ruleset(record.id, players)
        assert (rules.name, rules.map_id, rules.min_players, rules.max_players) == (
            record.id, record.map_id, record.min_players, record.max_players)
    with pytest.raises(IllegalAction) as refused:
        build_ruleset(record.id, record.max_players + 1)
    assert refused.value.code == "bad_player_count"
    assert record.title and record.title == text.variant_title(record.id)


def test_a_variant_the_registry_does_not_know_is_refused_in_one_sentence():
    with pytest.raises(IllegalAction) as refused:
        variant("atlantis")
    assert refused.value.code == "unknown_variant"
    every = ", ".join(available_variants())
    assert str(refused.value) == f"There is no variant called 'atlantis'; choose one of {every}."
    assert "choose one of usa, europe, nordic, germany" in str(refused.value)


def test_the_table_options_are_the_records_and_the_bot_describes_each_after_its_owner():
    for record in variants():
        for option in record.options:
            assert option.key in option_keys()
            offered = table_options.BY_KEY[option.key]
            assert offered.describe == f"{record.title}: {option.describe}"
            assert offered.values == option.values and offered.default == option.default
            assert table_options.applies(offered, record.id, dice=False)
            assert not any(table_options.applies(offered, other.id, dice=False)
                           for other in variants() if other is not record)
    dice = [o for o in table_options.OPTIONS if o.dice]
    assert dice and all(o.describe.startswith("Dice: ") for o in dice)


def test_no_variant_title_is_written_outside_its_record():
    """A variant's name lives in its record: the bot's titles, choices and option
    descriptions read it from there."""
    titles = [r.title for r in variants() if len(r.title) > 3]  # "USA", "USSR" are too short to grep
    sources = [p for folder in ("bot_app", "cogs", "app") for p in (ROOT / folder).rglob("*.py")]
    offenders = [f"{p.relative_to(ROOT)}: {t}" for p in sources for t in titles
                 if f'"{t}"' in p.read_text(encoding="utf-8") or f"'{t}'" in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_the_facade_plays_a_rule_set_handed_in_that_no_record_names():
    """`rules=`: a rule set of a test's own (here the USA's with one more bonus) is dealt,
    listed, applied, shown and replayed with no record of it in the registry."""
    usa = build_ruleset("usa", 2)
    extra = MostTicketsBonus(points=7, label="Most tickets")
    rules = dataclasses.replace(usa, name="usa_plus", modules=(*usa.modules, extra))
    state, _ = new_game("usa_plus", 2, seed=5, rules=rules)
    plain, _ = new_game("usa", 2, seed=5)
    with pytest.raises(IllegalAction) as refused:
        legal_actions(state, actors(state)[0])  # without the rules: the registry has no such variant
    assert refused.value.code == "unknown_variant"
    actions = []
    for _ in range(12):
        seat = actors(state)[0]
        action = legal_actions(state, seat, rules=rules)[0]
        assert legal_actions(plain, seat) == legal_actions(state, seat, rules=rules)
        state, _ = apply(state, action, rules=rules)
        plain, _ = apply(plain, action)
        actions.append(action)
    assert view(state, None, rules=rules).variant == "usa_plus"
    assert replay("usa_plus", 2, 5, actions, rules=rules).to_canonical() == state.to_canonical()
    assert extra in load_game(state, rules=rules).rules.modules
