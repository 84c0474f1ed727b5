"""Play whole games with the AIs on every variant and player count, and check after every
action that nothing is lost, duplicated, leaked or unreplayable (OpenSpiel-style playout
tests)."""

from __future__ import annotations

import json

import msgspec
import pytest

from engine.actions import Action, action_from_json
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import actors, apply, legal_actions, new_game, replay, view
from engine.rulesets import available_variants, build_ruleset, ruleset_for
from engine.scoring import score_line_names
from engine.state import GameState
from tools.selfplay import play_game


def _tables() -> list[tuple[str, int]]:
    """Every table the registry says is playable. A player count is left out only when
    build_ruleset refuses it as one (code "bad_player_count"); any other error fails the
    collection, loudly. 1 and 6 are asked too, so a rule set that widens its range is played."""
    out = []
    for variant in available_variants():
        for players in range(1, 7):
            try:
                build_ruleset(variant, players)
            except IllegalAction as refusal:
                if refusal.code != "bad_player_count":
                    raise
                continue
            out.append((variant, players))
    return out


TABLES = _tables()
# The Dice Expansion is a way of paying on every board (README "Decisions"): every table again
# with options {"dice": True}.
DICE = {"dice": True}


def card_total(state: GameState) -> int:
    """Every train card in the game, wherever it is."""
    total = len(state.deck) + len(state.discard) + sum(1 for c in state.display if c is not None)
    total += sum(p.hand_size() for p in state.players)
    pending = state.pending
    if pending.get("kind") == "tunnel":
        total += sum(pending["payment"].values()) + len(pending["revealed"])
    return total


class InvariantChecker:
    """Checks every step of a game; `check` is handed to `play_game`."""

    def __init__(self, variant: str, players: int) -> None:
        self.variant = variant
        self.players = players
        self.deck_size: int | None = None
        self.trains: int | None = None
        self.steps = 0

    def __call__(self, before: GameState, action: Action | None, after: GameState, events: list[Event]) -> None:
        self.steps += 1
        if self.deck_size is None:
            self.deck_size = card_total(after)
            self.trains = after.players[0].trains
        # cards conserved
        assert card_total(after) == self.deck_size, f"cards not conserved after {action}"
        # trains conserved: trains left + trains on the board = the starting number
        for p in after.players:
            placed = sum(_length(after, r) for r in p.routes)
            assert p.trains + placed == self.trains, f"trains not conserved for seat {p.seat}"
        # Dice Expansion: no train cards at all, tokens conserved (15 + 15 with the supply; tokens
        # laid on a pending tunnel are back in the supply until it is given up)
        if after.options.get("dice"):
            assert card_total(after) == 0
            supply = after.extra["dice"]["supply"]
            for kind in ("single", "double"):
                held = [p.public["tokens"][kind] for p in after.players]
                assert all(0 <= n <= 3 for n in held), f"token cap broken after {action}"
                assert supply[kind] + sum(held) == 15, f"{kind} tokens not conserved after {action}"
        # no route owned twice, and owners agree with the players' lists
        owned = [r for p in after.players for r in p.routes]
        assert len(owned) == len(set(owned))
        assert {r: s for p in after.players for r in p.routes for s in [p.seat]} == after.route_owner
        # the game is waiting for somebody who can act, unless it is over
        if after.game_over:
            assert after.result is not None
            assert actors(after) == []
            # every point of a total is on a named line of the sheet
            named = score_line_names(ruleset_for(after).modules)
            for sheet in after.result["sheets"]:
                assert sum(sheet["lines"].values()) == sheet["total"], sheet
                assert set(sheet["lines"]) <= set(named), (set(sheet["lines"]) - set(named))
        else:
            assert any(legal_actions(after, seat) for seat in actors(after)), "nobody can act"
        # canonical JSON round trip
        text = after.to_canonical()
        assert GameState.from_canonical(text).to_canonical() == text
        # actions round-trip through JSON
        if action is not None:
            assert action_from_json(json.loads(json.dumps(action.to_json()))) == action
        # no view holds another player's secret
        for seat in range(self.players):
            self.check_view(after, seat)
        # events: private ones carry a seat; hidden ones are shown to nobody
        for event in events:
            if event.visibility == "private":
                assert event.seat is not None
            for seat in range(self.players):
                if event.visibility == "hidden":
                    assert not event.visible_to(seat)

    def check_view(self, state: GameState, seat: int) -> None:
        v = view(state, seat)
        assert isinstance(v.deck, int) and isinstance(v.discard, int)
        assert all(isinstance(n, int) for n in v.ticket_decks.values())
        for p in v.players:
            if p.seat == seat:
                assert p.hand == state.players[seat].hand
                assert list(p.tickets or ()) == state.players[seat].tickets
            else:
                assert p.hand is None and p.tickets is None and not p.completed
        offers = v.pending.offers
        if offers is not None:
            for i, offer in enumerate(offers):
                if i != seat:
                    assert offer is None or isinstance(offer, int)
        # Nothing of another seat's secrets, or of the deck, anywhere in the view (parts too);
        # the final result reveals every ticket on purpose.
        text = json.dumps(msgspec.to_builtins(v))
        for other in state.players:
            if other.seat != seat and state.status != "over":
                for t in other.tickets:
                    assert f'"{t}"' not in text or t in state.route_owner
        assert f'"{state.seed}"' not in text and str(state.rng) not in text


def _length(state: GameState, route_id: str) -> int:
    from engine.maps import load_map
    from engine.rules.dice import dice_length

    route = load_map(state.map_id).routes[route_id]
    if state.options.get("dice"):
        return dice_length(route, state.options) or route.length  # Nordic's 9-route as 8 (D13)
    return route.length


@pytest.mark.parametrize("variant,players", TABLES, ids=[f"{v}-{n}p" for v, n in TABLES])
def test_self_play_keeps_every_invariant(variant: str, players: int) -> None:
    _self_play(variant, players, None)


@pytest.mark.parametrize("variant,players", TABLES, ids=[f"{v}-{n}p-dice" for v, n in TABLES])
def test_dice_self_play_keeps_every_invariant(variant: str, players: int) -> None:
    _self_play(variant, players, DICE)


def _self_play(variant: str, players: int, options: dict | None) -> None:
    for seed, levels in ((players * 7, ("random",)), (players * 7 + 1, ("greedy", "random"))):
        checker = InvariantChecker(variant, players)
        record = play_game(variant, players, seed, levels, options, check=checker)
        assert record.state.game_over, f"{variant} {players}p seed {seed} did not finish ({record.ended})"
        # replaying the seed and the actions gives the same state, bit for bit
        again = replay(variant, players, seed, record.actions, options)
        assert again.to_canonical() == record.state.to_canonical()
        assert checker.steps == len(record.actions) + 1


def test_every_variant_has_a_self_play_table() -> None:
    assert {v for v, _ in TABLES} == set(available_variants())


def test_the_tables_are_each_rule_sets_declared_player_counts() -> None:
    for variant in available_variants():
        counts = [n for v, n in TABLES if v == variant]
        rules = build_ruleset(variant, counts[0])
        assert counts == list(range(rules.min_players, rules.max_players + 1)), variant


def test_apply_never_mutates_its_input() -> None:
    state, _ = new_game("europe", 3, 11)
    record = play_game("europe", 3, 11, ("random",))
    for action in record.actions[:150]:
        before = state.to_canonical()
        after, _ = apply(state, action)
        assert state.to_canonical() == before
        state = after
