"""Every ticket revealed: the final post shows each player's tickets, completed and failed, on
one map picture — per-player colours, completed solid, failed dashed with a cross — legible at
Discord's 550-pixel preview."""

from __future__ import annotations

import dataclasses
import math

import pytest
from PIL import Image

from app import GameSummary, PostData
from bot_app.presentation import posts
from engine.game import view
from engine.maps import load_map
from render import palette as P
from render.base_cache import get_base
from render.legend import key_entries
from render.parts import picture_parts
from render.text import preview_px
from render.tickets import render_tickets, revealed_tickets
from tests.fake_discord.renderer import StubRenderer
from tools.selfplay import play_game


@pytest.fixture(scope="module")
def finished():
    record = play_game("europe", 3, 2, ("greedy",))
    return view(record.state, None)


def _two_tickets(final, completed: str, failed: str):
    """The finished game's view with seat 0 holding two tickets: one completed, one failed
    (far apart on the map), and nobody else holding any."""
    gmap = load_map(final.map_id)
    a, b = gmap.tickets[completed], gmap.tickets[failed]
    sheets = []
    for sheet in final.result["sheets"]:
        rows = [] if sheet["seat"] else [
            {"id": a.id, "a": a.a, "b": a.b, "points": a.points, "completed": True},
            {"id": b.id, "a": b.a, "b": b.b, "points": b.points, "completed": False}]
        sheets.append({**sheet, "tickets": rows})
    return dataclasses.replace(final, result={**final.result, "sheets": sheets})


def test_every_ticket_of_every_player_is_drawn(finished) -> None:
    pic = render_tickets(finished)
    expected = [(s["seat"], t["id"], t["completed"]) for s in finished.result["sheets"] for t in s["tickets"]]
    assert sorted((ln.seat, ln.ticket, ln.completed) for ln in pic.lines) == sorted(expected)
    assert any(ln.completed for ln in pic.lines)
    assert revealed_tickets(dataclasses.replace(finished, result=None)) == []  # nothing before the end


def _along(img: Image.Image, a, b, samples: int = 80) -> list[tuple[int, int, int]]:
    (ax, ay), (bx, by) = a, b
    out = []
    for i in range(samples):
        t = 0.15 + 0.7 * i / (samples - 1)  # the middle of the line, clear of the end dots
        out.append(img.getpixel((round(ax + (bx - ax) * t), round(ay + (by - ay) * t))))
    return out


def test_completed_is_solid_and_failed_is_dashed_in_the_players_colour(finished) -> None:
    final = _two_tickets(finished, "lisboa-danzig", "brest-petrograd")
    pic = render_tickets(final)
    gmap = load_map(final.map_id)
    base = get_base(gmap, 1600, key=key_entries(gmap, picture_parts(final)))
    n = len(final.players)
    k = base.layout.dims.k
    offset = (0 - (n - 1) / 2) * max(4, round(9 * k)) * 1.6  # seat 0's lines sit to one side
    fill = P.player_style(0).fill

    def ends(tid: str):
        t = gmap.tickets[tid]
        (ax, ay), (bx, by) = base.geom.cities[t.a].center, base.geom.cities[t.b].center
        length = math.hypot(bx - ax, by - ay)
        nx, ny = -(by - ay) / length, (bx - ax) / length
        return (ax + nx * offset, ay + ny * offset), (bx + nx * offset, by + ny * offset)

    def near(c) -> bool:
        return sum(abs(x - y) for x, y in zip(c, fill, strict=True)) < 40

    solid = _along(pic.image, *ends("lisboa-danzig"))
    dashed = _along(pic.image, *ends("brest-petrograd"))
    assert sum(map(near, solid)) >= 0.9 * len(solid)  # an unbroken line in seat 0's colour
    share = sum(map(near, dashed)) / len(dashed)
    assert 0.3 < share < 0.8  # dashes and gaps


def test_the_legend_reads_at_550_pixels(finished) -> None:
    pic = render_tickets(finished)
    assert pic.image.width == 1600
    legible = preview_px(pic.image.width)
    assert pic.texts and all(t.px >= legible for t in pic.texts)
    words = " ".join(t.text for t in pic.texts)
    for p in finished.players:
        assert p.name in words
    assert "completed" in words and "failed" in words
    boxes = [t.box for t in pic.texts]
    for i, a in enumerate(boxes):  # no text on other text
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


@pytest.mark.parametrize("variant,players", [("germany", 5), ("usa", 5), ("nordic", 3)])
def test_every_map_draws_its_tickets(variant: str, players: int) -> None:
    record = play_game(variant, players, 1, ("greedy",))
    final = view(record.state, None)
    pic = render_tickets(final)
    assert len(pic.lines) == sum(len(s["tickets"]) for s in final.result["sheets"])
    assert all(t.px >= preview_px(pic.image.width) for t in pic.texts)


async def test_the_final_post_carries_the_tickets_picture(finished) -> None:
    summary = GameSummary(game_id=7, guild_id=1, channel_id=2, thread_id=3, variant="europe", status="over",
                          seq=200, your_seat=None, seats=(), waiting_for=(), turn_hours=None, updated_at=0.0)
    data = PostData(summary=summary, view=finished, events=(), from_seq=0, new_turn=True, notes=(),
                    deliveries=(), legal=(), final=True)
    renderer = StubRenderer()
    message = await posts.turn_post(data, renderer)
    assert [name for name, _ in message.files] == ["board.png", "scores.png", "tickets.png"]
    assert "tickets" in renderer.calls
    assert "every ticket revealed" in "\n".join([message.content, *message.more])
