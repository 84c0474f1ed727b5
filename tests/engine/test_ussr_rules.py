"""USSR rules that the scenario files cannot express: the table itself (player counts, the
option of U7, the 112-card deck, the first player of U14), and self-play in which the
Controller removes and builds routes, checked after every action."""

from __future__ import annotations

from collections import Counter

import pytest

from ai.greedy import GreedyAI
from engine.actions import Action
from engine.errors import IllegalAction
from engine.game import actors, apply, legal_actions, new_game, replay, view
from engine.rules.controller import PlayController
from engine.rules.count_bonuses import MostCountBonus
from engine.rules.payment import PaymentRule
from engine.rulesets import build_ruleset
from engine.rulesets.ussr import AS_LOCOMOTIVE_REVEAL, LOCOMOTIVE_ONLY, TUNNEL_PAYMENT
from engine.view import View
from tests.engine.test_selfplay_invariants import InvariantChecker


def test_two_to_five_players():
    for players in range(2, 6):
        rules = build_ruleset("ussr", players)
        assert (rules.trains, rules.stations, rules.map_id) == (45, 3, "ussr")
    with pytest.raises(IllegalAction, match="2 to 5 players"):
        build_ruleset("ussr", 6)


def test_the_controller_tunnel_option_u7():
    default = build_ruleset("ussr", 3).payment
    assert default == PaymentRule(tunnel_loco_only=("controller",))
    other = build_ruleset("ussr", 3, {TUNNEL_PAYMENT: AS_LOCOMOTIVE_REVEAL}).payment
    assert other == PaymentRule(tunnel_match_as_loco=("controller",))
    assert build_ruleset("ussr", 3, {TUNNEL_PAYMENT: LOCOMOTIVE_ONLY}).payment == default
    with pytest.raises(IllegalAction, match="locomotive_only"):
        build_ruleset("ussr", 3, {TUNNEL_PAYMENT: "free"})
    with pytest.raises(IllegalAction, match="no option"):
        build_ruleset("ussr", 3, {"controller_count": 3})


def test_the_deck_holds_110_train_cards_and_2_controllers():
    state, _ = new_game("ussr", 4, 5)
    cards = Counter(state.deck) + Counter(state.discard) + Counter(c for c in state.display if c)
    for p in state.players:
        cards += Counter(p.hand)
    assert sum(cards.values()) == 112
    assert cards["controller"] == 2 and cards["loco"] == 14
    assert all(cards[c] == 12 for c in ("red", "orange", "yellow", "green", "blue", "pink", "white", "black"))


def test_the_four_bonuses_are_the_seeds():
    rules = build_ruleset("ussr", 4)
    counted = {(m.counts, m.points, m.label) for m in rules.modules if isinstance(m, MostCountBonus)}
    assert counted == {
        ("routes", 15, "Viva to the Soviet Railroad"),
        ("tunnels", 7, "Viva to the Soviet Tunnel Builders"),
        ("ferries", 7, "Viva to the Soviet Sailors"),
    }
    longest = rules.module("longest_path")
    assert (longest.points, longest.label) == (10, "The Longest Railway in the Soviet Union")
    assert rules.tie_breaks == ()  # tied totals are joint winners
    assert rules.doubles_from_players == 3  # U4: closed only in 2-player games


def test_first_player_is_drawn_by_the_seed_unless_the_host_picks_one_u14():
    firsts = {new_game("ussr", 4, seed)[0].first_player for seed in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert new_game("ussr", 4, 7)[0].first_player == new_game("ussr", 4, 7)[0].first_player
    state, _ = new_game("ussr", 4, 7, first_player=2)
    assert state.first_player == 2 and state.current == 2


class ControllerAI(GreedyAI):
    """Greedy, but plays any Controller at once: it removes the longest route of the player
    ahead in route points (its own if need be), or builds when there is nothing to remove."""

    def choose(self, view_: View, legal: list[Action]) -> Action:
        plays = [a for a in legal if isinstance(a, PlayController)]
        if plays:
            owner = view_.route_owner
            points = {p.seat: p.route_points for p in view_.players}
            removals = [a for a in plays if a.mode == "remove"]
            if removals:
                return max(removals, key=lambda a: (points[owner[a.route]], a.route))
            return plays[0]
        return super().choose(view_, legal)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_self_play_with_controller_removals_keeps_every_invariant(players):
    removed = built = 0
    for seed in (players * 13, players * 13 + 1):
        checker = InvariantChecker("ussr", players)
        state, events = new_game("ussr", players, seed)
        checker(state, None, state, events)
        ais = [ControllerAI(seed + i) for i in range(players)]
        actions = []
        while not state.game_over:
            seat = actors(state)[0]
            action = ais[seat].choose(view(state, seat), legal_actions(state, seat))
            after, events = apply(state, action)
            checker(state, action, after, events)
            if isinstance(action, PlayController):
                if action.mode == "remove":
                    removed += 1
                    route = action.route
                    assert route not in after.route_owner
                    assert after.players[state.route_owner[route]].route_points == (
                        state.players[state.route_owner[route]].route_points - state.route_scored[route])
                else:
                    built += 1
                    assert after.route_scored[action.route] == 0
            actions.append(action)
            state = after
            assert len(actions) < 5000
        assert replay("ussr", players, seed, actions).to_canonical() == state.to_canonical()
        # route points on the score sheets are recounted from the routes held at the end
        for sheet, p in zip(state.result["sheets"], state.players, strict=True):
            assert sheet["routes"] == p.route_points
            assert sheet["route_count"] == len(p.routes)
    assert removed > 0
