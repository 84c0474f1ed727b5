"""Every rule module presents itself in words, on every variant with and without dice.

- Every rule class of engine/rules/ has words registered, covering the event kinds it declares
  (`RuleModule.events`) and the action kinds it handles (`RuleModule.actions`).
- Self-play emits no event kind that no module of its rule set (or the core) declares, and
  each kind is shown to the audience its words expect.
- Everything said in self-play — the public log, each player's own lines, the label of every
  kind of move offered, the buttons, whose turn it is, the status, the hand, the final scores —
  has no raw name (an id with underscores, a map id, an event kind), no blank in it, no
  "(s)" plurals, and a roll names its faces.
- Every score line of every variant has a rulebook name, and in the final results the lines
  shown add up to each player's total.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest

import engine.rules
from ai.levels import make_ai
from bot_app.presentation import text
from bot_app.presentation.words import Wording, wording_of, words_class
from engine.actions import Action
from engine.events import Event
from engine.game import actors, apply, legal_actions, new_game, view
from engine.maps import load_map
from engine.rules.dice.roll import DiceRolled
from engine.rules.dice.tunnels import TunnelExtraPaid
from engine.rules.module import CORE_EVENTS, RuleModule
from engine.rules.payment import PaymentRule
from engine.rulesets import available_variants, build_ruleset

VARIANTS = available_variants()
TABLES = [(v, dice) for v in VARIANTS for dice in (False, True)]
FACES = ("single", "double", "station", "wild")


def _options(dice: bool) -> dict[str, Any]:
    return {"dice": True} if dice else {}


def _rule_classes() -> list[type]:
    """Every rule module and payment rule class defined in engine/rules/."""
    found = []
    for info in pkgutil.walk_packages(engine.rules.__path__, "engine.rules."):
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            if (issubclass(cls, RuleModule) and cls is not RuleModule) or issubclass(cls, PaymentRule):
                found.append(cls)
    return found


# --- what a text must never be -------------------------------------------------------------------

SNAKE = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]")
BAD_PLURAL = re.compile(r"\b1 (trains|cards|tickets|points|dice|tokens|wagons|stations|passengers|routes|moves)\b"
                        r"|\b(0|[2-9]|\d\d+) (train|card|ticket|point|die|token|wagon|station|passenger|route)\b"
                        r"(?![-'])(?! (card|cards|die|dice|token|tokens|ticket|tickets)\b)")


@functools.cache
def _map_ids(map_id: str) -> frozenset[str]:
    gmap = load_map(map_id)
    ids = set(gmap.routes) | set(gmap.tickets) | {c.get("id") for c in gmap.extras.get("tourist_cards", ())}
    return frozenset(i for i in ids if isinstance(i, str) and ("-" in i or "_" in i))


def problems(said: str, map_id: str, kinds: Iterable[str] = ()) -> list[str]:
    """What is wrong with a text a player reads (empty: nothing)."""
    out = []
    if not said or not said.strip():
        return ["empty"]
    if SNAKE.search(said):
        out.append(f"a raw name: {SNAKE.search(said).group(0)!r}")  # type: ignore[union-attr]
    words = set(re.findall(r"[\w'’-]+", said))
    raw = [i for i in _map_ids(map_id) if i in words]
    if raw:
        out.append(f"a map id: {raw[0]!r}")
    if any(said.lower().endswith(k.replace("_", " ")) for k in kinds if "_" in k):
        out.append("an event or action kind")  # the old way of saying an unknown event
    for blank in ("  ", " ,", " .", "( ", " )", "{", "}", "None", "(s)", "[]", ": :", "keep ,", ":  "):
        if blank in said.strip():
            out.append(f"a blank ({blank!r})")
    if re.search(r"[,;–-] *$", said) or said != said.rstrip():
        out.append("ends in a blank")
    if BAD_PLURAL.search(said):
        out.append(f"a plural: {BAD_PLURAL.search(said).group(0)!r}")  # type: ignore[union-attr]
    return out


def _check(said: str, where: str, map_id: str, kinds: Iterable[str] = ()) -> None:
    found = problems(said, map_id, kinds)
    assert not found, f"{where}: {found} in {said!r}"


# --- every rule class has its words ------------------------------------------------------------


def test_every_rule_class_has_words_for_what_it_declares():
    classes = _rule_classes()
    assert len(classes) >= 25  # the walk really found the rules
    for cls in classes:
        words = words_class(cls)  # LookupError names the class without words
        if not issubclass(cls, RuleModule):
            continue
        missing = [k for k in cls.events if k not in words.events]
        assert not missing, f"{cls.__name__} emits {missing} but {words.__name__} has no words for them"
        types = {t.TYPE for types in cls.actions.values() for t in types}
        missing = sorted(types - set(words.actions))
        assert not missing, f"{cls.__name__} handles {missing} but {words.__name__} cannot offer them"


@pytest.mark.parametrize(("variant", "dice"), TABLES)
def test_every_kind_of_every_variant_is_said(variant, dice):
    """Each event kind, action kind, decision and score line a rule set has, in words."""
    rules = build_ruleset(variant, 3 if variant != "nordic" else 2, _options(dice))
    w = wording_of(variant, 3 if variant != "nordic" else 2, _options(dice))
    for kind in {k for m in rules.modules for k in m.events} | set(CORE_EVENTS):
        # (a module may leave a kind to another module's words: that one must be there)
        assert w.said(kind) is not None, f"{variant}: no words for the event {kind!r}"
    decisions = {k for m in rules.modules for k in m.actions}
    for decision in decisions:
        assert any(decision in x.waiting for x in w.all), f"{variant}: nobody says whose {decision!r} it is"
    for name in w.line_names.values():
        assert not SNAKE.search(name) and name[:1].isupper(), f"{variant}: score line {name!r}"


# --- self-play: everything said, checked --------------------------------------------------------


@dataclass
class Played:
    """One self-play game and what it said."""

    variant: str
    dice: bool
    wording: Wording
    map_id: str
    kinds: set[str] = field(default_factory=set)  # the event kinds its rules declare
    said: list[tuple[str, str]] = field(default_factory=list)  # (where, text)
    final: Any = None


def _play(variant: str, dice: bool, players: int, seed: int, level: str) -> Played:
    options = _options(dice)
    state, events = new_game(variant, players, seed, options, names=[f"P{i + 1}" for i in range(players)])
    rules = build_ruleset(variant, players, options)
    w = wording_of(variant, players, options)
    played = Played(variant, dice, w, rules.map_id)
    declared = set(CORE_EVENTS) | {k for m in rules.modules for k in m.events}
    played.kinds = declared
    ais = [make_ai(level, seed * 31 + i) for i in range(players)]

    def record(events: list[Event], state: Any) -> None:
        public = view(state, None)
        for e in events:
            assert e.kind in declared, f"{variant}: {e.kind!r} is emitted but no module declares it"
            assert w.said(e.kind).audience == e.visibility, f"{variant}: {e.kind!r} is {e.visibility}"
        for line in text.log_lines(events, public):
            played.said.append(("log", line))
        for seat in range(players):
            own = view(state, seat)
            for line in text.private_lines(events, own):
                played.said.append(("private", line))
            for line in text.you_lines(events, own):
                played.said.append(("you", line))
        for e in events:
            if isinstance(e.payload, DiceRolled):
                line = text.log_lines([e], public)[0]
                assert all(f in line for f in e.payload.dice), f"a roll without its faces: {line!r}"

    record(events, state)
    steps = 0
    while not state.game_over and steps < 3000:
        seat = actors(state)[0]
        legal = legal_actions(state, seat)
        own = view(state, seat)
        c = w.ctx(own)
        shown: dict[str, list[Action]] = {}
        for a in legal:
            shown.setdefault(a.TYPE, []).append(a)
        for kind, moves in shown.items():
            for a in {id(x): x for x in (moves[0], moves[-1])}.values():
                doing = w.doing(a, c)
                played.said.append((f"label of {kind}", doing.label(a, c)))
                played.said.append((f"button of {kind}", doing.short(a, c) if doing.short else doing.button))
        public = view(state, None)
        played.said.append(("waiting", text.waiting_line(public, actors(state), {})))
        if steps % 7 == 0:
            played.said += [("status", line) for line in text.status_block(public).split("\n")]
            played.said += [("hand", line) for line in text.hand_text(own, 1).split("\n")]
        action = ais[seat].choose(own if ais[seat].uses_view else None, legal)
        state, events = apply(state, action)
        record(events, state)
        steps += 1
    assert state.game_over, f"{variant}: the game did not end"
    played.final = view(state, None)
    played.said += [("final", line) for line in text.final_text(played.final).split("\n")]
    return played


@functools.cache
def _games(variant: str, dice: bool) -> tuple[Played, ...]:
    top = build_ruleset(variant, 2, _options(dice)).max_players
    return (_play(variant, dice, 2, 11, "greedy"), _play(variant, dice, top, 12, "random"))


@pytest.mark.parametrize(("variant", "dice"), TABLES)
def test_everything_said_in_self_play_reads_well(variant, dice):
    for played in _games(variant, dice):
        assert played.said
        for where, said in played.said:
            _check(said, f"{variant}{' + dice' if dice else ''} {where}", played.map_id, played.kinds)
        kinds = {w for w, _ in played.said}
        assert {"log", "label of keep_tickets", "waiting", "status", "hand", "final"} <= kinds


SCORE_LINE = re.compile(r"^   (.+) = (-?\d+)$")
PART = re.compile(r"(?:^| · )([^·]+?) ([+−]?\d+)(?= · |$)")


@pytest.mark.parametrize(("variant", "dice"), TABLES)
def test_final_score_lines_add_up_to_each_total(variant, dice):
    """Each player's score lines in the final text add up to the total it shows, which is the
    sheet's total; every line with points is there, under its rulebook name."""
    for played in _games(variant, dice):
        result = played.final.result
        sheets = {s["name"]: s for s in result["sheets"]}
        blocks = text.final_blocks(played.final)
        assert len([b for b in blocks if b.startswith(("🥇", "🥈", "🥉")) or b[:2].rstrip(".").isdigit()]) == \
            len(sheets)
        for block in blocks[:len(sheets)]:
            name = re.search(r"\*\*(.+?)\*\*", block).group(1)
            line = next(x for x in block.split("\n") if SCORE_LINE.match(x))
            parts, total = SCORE_LINE.match(line).groups()
            points = [int(n.replace("−", "-")) for _, n in PART.findall(parts)]
            assert sum(points) == int(total) == sheets[name]["total"], (variant, dice, line)
            shown = {label for label, _ in PART.findall(parts)}
            for key, value in sheets[name]["lines"].items():
                if value:
                    assert played.wording.line_names[key] in shown, (variant, key, line)


def test_station_points_are_in_the_final_text():
    """Europe: the stations kept score, and the text says so (it used to stop at tickets)."""
    played = _games("europe", False)[0]
    final = text.final_text(played.final)
    kept = [s for s in played.final.result["sheets"] if s["lines"].get("stations")]
    assert kept, "no player kept a station in this game"
    assert "Stations kept +" in final


def test_alsace_tourist_cards_are_in_the_choices_the_hand_and_the_end():
    played = _games("alsace", False)[0]
    private = [s for where, s in played.said if where == "private"]
    assert any("Tourist cards offered to you:" in s and "Keep at least 3 tickets and 3 tourist cards" in s
               for s in private)
    hand = [s for where, s in played.said if where == "hand"]
    assert any(s.startswith("🏰 Tourist cards (") for s in hand)
    assert any(("visited" in s or "not yet" in s) and "points" in s for s in hand)
    final = text.final_text(played.final)
    assert "Tourist cards completed" in final or "Tourist cards failed" in final
    assert "🏰" in final
    log = [s for where, s in played.said if where == "log"]
    assert not any("under deck" in s or "someone" in s.lower() for s in log)


def test_dice_log_gives_faces_and_what_paid():
    played = _games("europe", True)[0]
    log = [s for where, s in played.said if where == "log"]
    assert any("rolled" in s and "single" in s for s in log)
    claims = [s for s in log if " claimed " in s]
    unpaid = [s for s in claims if not (re.search(r" with .*(die|dice|token)", s) or "paid" in s or "it (+" in s)]
    assert claims and not unpaid, unpaid[:3]
    labels = [s for where, s in played.said if where.startswith(("label", "button"))]
    assert not any(s.rstrip().endswith(("keep", ":")) for s in labels)
    assert "Draw tickets dice" not in labels


def test_a_dice_tunnels_extra_is_told_with_what_paid_it():
    """Dice, tunnels (D11): after the tunnel dice, the player pays the extra; the log says with
    which dice or tokens, apart from the dice laid before the roll."""
    from engine.actions import PayTunnel

    for seed in range(1, 40):
        state, _ = new_game("europe", 2, seed, {"dice": True}, names=["P1", "P2"])
        ais = [make_ai("greedy", seed * 31 + i) for i in range(2)]
        while not state.game_over:
            seat = actors(state)[0]
            action = ais[seat].choose(view(state, seat), legal_actions(state, seat))
            state, events = apply(state, action)
            if isinstance(action, PayTunnel):
                paid = [e.payload for e in events if isinstance(e.payload, TunnelExtraPaid)]
                assert [p.payment for p in paid] == [dict(action.payment)]
                line = text.log_lines(events, view(state, None))[0]
                assert line.startswith("P") and " paid the extra with " in line and " claimed the tunnel " in line
                assert re.search(r"with \d+ (single|double|wild) (die|dice|token)", line), line
                return
    raise AssertionError("no tunnel extra was paid in 39 dice games")


# --- long results ------------------------------------------------------------------------------


def test_long_results_are_split_never_cut():
    played = _games("alsace", False)[1]  # the most players, the random AI: long hands
    blocks = ["🏆 **Final scores**", *text.final_blocks(played.final)]
    long_blocks = [b * 3 for b in blocks]  # longer than any real game, to force the split
    messages = text.split(long_blocks)
    assert len(messages) > 1
    assert all(len(m) <= text.MAX_CONTENT for m in messages)
    assert "\n".join(messages) == "\n".join(long_blocks)
