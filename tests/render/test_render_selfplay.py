"""Every state reached in a self-play game renders: the public board after every step (with
the step's claim or station marked), the acting player's hand, and the final scores."""

from __future__ import annotations

import pytest

from engine.rulesets import available_variants
from render.board import render_board
from render.hand import render_hand
from render.scores import render_scores

# Every rule set that can be played: each one is covered as soon as it lands.
VARIANTS = available_variants()


def _last_move(events) -> tuple[list[str], list[str]]:
    routes, cities = [], []
    for e in events:
        data = getattr(e, "data", {}) or {}
        if "route" in data and isinstance(data["route"], str):
            routes.append(data["route"])
        if getattr(e, "kind", "") in ("station_built", "build_station") and isinstance(data.get("city"), str):
            cities.append(data["city"])
    return routes, cities


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_state_of_a_self_play_game_renders(variant: str) -> None:
    from engine.game import actors, view
    from tools.selfplay import play_game

    seen = {"boards": 0, "hands": 0}

    def check(before, action, after, events) -> None:
        routes, cities = _last_move(events)
        public = view(after, None)
        pic = render_board(public, highlight_routes=routes, highlight_cities=cities)
        assert pic.png.startswith(b"\x89PNG")
        seen["boards"] += 1
        # The hand of whoever acts next, every other step (a hand changes by a card or two a
        # step; the suite's time goes to the board, drawn after every step).
        for seat in actors(after)[:1] if seen["boards"] % 2 or after.status == "over" else ():
            assert render_hand(view(after, seat)).png.startswith(b"\x89PNG")
            seen["hands"] += 1

    record = play_game(variant, 3, 11, ("greedy",), check=check)
    assert record.state.status == "over"
    final = view(record.state, None)
    assert render_scores(final).png.startswith(b"\x89PNG")
    assert seen["boards"] > 50 and seen["hands"] > 25
