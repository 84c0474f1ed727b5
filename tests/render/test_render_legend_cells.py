"""The legend's cells kept by what they show (render/legend.py, `kept`): a board whose cells
are pasted from cells kept from other pictures is the board drawn from scratch, PNG and RGB
pixels and text alike, whatever came before: the same game a move later (only the mover's
and the next player's cells change), other games of the map, the game over (winners' cells),
a table with closed tracks (the table's key beside the cells)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from engine.maps import load_map
from engine.view import View
from render.board import render_board
from tools.samples import sample_view


def _boards(map_id: str) -> list[View]:
    game_map = load_map(map_id)
    out: list[View] = []
    for players, seed in ((4, 0), (2, 1), (5, 2)):
        view = sample_view(game_map, players=players, seed=seed)
        nxt = (view.current + 1) % players
        moved = dataclasses.replace(view, current=nxt, players=tuple(
            dataclasses.replace(p, trains=p.trains - 2) if p.seat == view.current else p for p in view.players))
        over = dataclasses.replace(view, status="over", result={"winners": [nxt], "sheets": []})
        out += [view, moved, view, over, moved]
    return out


def _fresh(view: View):
    pic = render_board(view, highlight_routes=sorted(view.route_owner)[:1])
    pic.base.extra["legend-cells"].clear()
    return render_board(view, highlight_routes=sorted(view.route_owner)[:1])


def test_kept_cells_draw_the_same_board(monkeypatch: pytest.MonkeyPatch) -> None:
    from render import legend

    hits: list[bool] = []
    pasted = legend._pasted

    def counted(*args: Any) -> bool:
        hits.append(pasted(*args))
        return hits[-1]

    monkeypatch.setattr(legend, "_pasted", counted)
    for map_id in ("germany", "nordic", "alsace", "usa"):
        views = _boards(map_id)
        for view in views:  # every cell of these views kept once
            render_board(view, highlight_routes=sorted(view.route_owner)[:1])
        for view in views + views[::-1]:
            kept = render_board(view, highlight_routes=sorted(view.route_owner)[:1])
            fresh = _fresh(view)
            assert kept.png == fresh.png, map_id
            assert kept.image.tobytes() == fresh.image.tobytes(), map_id
            assert kept.texts == fresh.texts, map_id
    assert sum(hits) > len(hits) // 2  # most cells were pasted


def test_a_kept_cell_is_pasted_only_on_the_bare_panel() -> None:
    """A cell whose box something was drawn on first is drawn again, not pasted."""
    from render import legend
    from render.dirty import track

    view = sample_view(load_map("germany"), players=4, seed=0)
    pic = render_board(view)
    kept = pic.base.extra["legend-cells"]
    assert kept
    cell = next(iter(kept.values()))
    img = pic.base.image.copy()
    with track(img) as drawn:
        drawn.append(cell.box)
        assert not legend._pasted(img, cell)
        assert drawn.ready == []
    with track(img) as drawn:
        assert legend._pasted(img, cell)
        assert [r[0] for r in drawn.ready] == [cell.box]
