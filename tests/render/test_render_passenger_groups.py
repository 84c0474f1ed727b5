"""Germany's waiting passengers kept per city and figures shown (render/parts/passengers.py):
a board whose figures are pasted from groups kept from other pictures is the board drawn
with nothing kept, PNG and RGB pixels alike (passengers collected, the last move's glow and
ring over a city's figures, other games of the map); a group whose box something was drawn
on first is drawn again."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine.maps import load_map
from engine.rules.passengers import PassengersView
from engine.view import View
from render import encode
from render.board import _drawn_board, render_board
from render.dirty import track
from render.parts import passengers
from tools.samples import sample_view


def _collected(view: View, n: int) -> View:
    """`view` with the first `n` cities' waiting passengers gone but one."""
    part = view.part(PassengersView)
    assert part is not None
    waiting = {city: ({c: 1 for c in list(colours)[:1]} if i < n else colours)
               for i, (city, colours) in enumerate(part.waiting.items())}
    new = dataclasses.replace(part, waiting=waiting)
    return dataclasses.replace(view, parts=tuple(new if p is part else p for p in view.parts))


def _views() -> list[tuple[View, list[str]]]:
    game_map = load_map("germany")
    out: list[tuple[View, list[str]]] = []
    for players, seed in ((4, 0), (2, 1), (5, 2)):
        view = sample_view(game_map, players=players, seed=seed)
        for n in (0, 3, 8):
            moved = _collected(view, n)
            out.append((moved, sorted(moved.route_owner)[:1]))
            out.append((moved, sorted(moved.route_owner)[-2:]))  # other routes glowing
    return out


def _fresh(view: View, marked: list[str]):
    """The board drawn with nothing kept (what was kept is put back afterwards)."""
    extra = render_board(view, highlight_routes=marked).base.extra
    saved = {k: dict(extra[k]) for k in ("passenger-groups", "legend-cells")}
    for k in saved:
        extra[k].clear()
    try:
        return render_board(view, highlight_routes=marked)
    finally:
        for k, v in saved.items():
            extra[k].clear()
            extra[k].update(v)


def test_kept_groups_draw_the_same_board(monkeypatch: pytest.MonkeyPatch) -> None:
    pasted: list[int] = []
    real = passengers.KeptGroup

    def counted(*args: Any) -> Any:
        pasted.append(1)
        return real(*args)

    views = _views()
    for view, marked in views:  # every group of these views kept once
        render_board(view, highlight_routes=marked)
    kept = render_board(*views[0][:1]).base.extra["passenger-groups"]
    assert kept
    monkeypatch.setattr(passengers, "KeptGroup", counted)  # a group made: drawn, not pasted
    for view, marked in views + views[::-1]:
        made = len(pasted)
        got = render_board(view, highlight_routes=marked)
        assert len(pasted) == made  # every group shown was found kept (or drawn under something)
        fresh = _fresh(view, marked)
        assert got.png == fresh.png
        assert got.image.tobytes() == fresh.image.tobytes()
        assert got.png == encode.png_bytes(got.image, got.base.palette)


def test_a_group_is_pasted_only_on_the_bare_base() -> None:
    view = sample_view(load_map("germany"), players=4, seed=0)
    img, base, _, drawn = _drawn_board(view, None, 1600, False, (), ())
    kept = base.extra["passenger-groups"]
    assert kept
    (city, shown), group = next(iter(kept.items()))
    only = dataclasses.replace(view, parts=tuple(
        dataclasses.replace(p, waiting={city: {c: shown.count(c) for c in dict.fromkeys(shown)}})
        if isinstance(p, PassengersView) else p for p in view.parts))
    part = passengers.Passengers()
    fresh = base.image.copy()
    with track(fresh) as noted:
        noted.append(group.box)  # something drawn there first
        part.overlay(fresh, base, only)
        assert all(r[0] != group.box for r in noted.ready)
        assert len(noted) > 1  # the figures noted, one box each
    with track(fresh) as noted:
        part.overlay(fresh, base, only)
        assert [r[0] for r in noted.ready] == [group.box]
        assert list(noted) == []
