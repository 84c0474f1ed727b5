"""PNG encoding (render/encode.py): ISA-L's deflate writes the same pixels as Pillow's zlib, in
about the same bytes, and Pillow's encoder takes over where the package is missing."""

from __future__ import annotations

import io
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image

from render import encode
from render.board import render_board
from render.hand import render_hand
from tools.samples import sample_view

ROOT = Path(__file__).resolve().parents[2]


def pillow_png(q: Image.Image) -> bytes:
    out = io.BytesIO()
    q.save(out, "PNG", compress_level=encode.COMPRESS_LEVEL)
    return out.getvalue()


def decoded(png: bytes) -> tuple[tuple[int, int], bytes]:
    im = Image.open(io.BytesIO(png))
    return im.size, im.convert("RGB").tobytes()


def chunks(png: bytes) -> list[bytes]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    out, pos = [], 8
    while pos < len(png):
        n = int.from_bytes(png[pos:pos + 4], "big")
        kind, data = png[pos + 4:pos + 8], png[pos + 8:pos + 8 + n]
        assert int.from_bytes(png[pos + 8 + n:pos + 12 + n], "big") == zlib.crc32(kind + data), kind
        out.append(kind)
        pos += 12 + n
    return out


@pytest.fixture(scope="module")
def pictures() -> dict[str, Image.Image]:
    """A board quantized to its base's palette and a hand quantized by the octree."""
    view = sample_view("europe", players=4, seed=3)
    board = render_board(view, highlight_routes=[sorted(view.route_owner)[0]])
    hand = render_hand(sample_view("germany", players=4, seed=3, seat=1))
    return {"board": encode.quantize(board.image, board.base.palette), "hand": encode.quantize(hand.image)}


@pytest.mark.parametrize("name", ["board", "hand"])
def test_isal_writes_the_pixels_pillow_writes_in_about_the_same_bytes(pictures: dict[str, Image.Image],
                                                                      name: str) -> None:
    assert encode.deflater_name() == "isal"  # requirements.txt installs it
    q = pictures[name]
    fast, slow = encode.palette_png(q), pillow_png(q)
    assert fast != slow  # written here, not by Pillow
    assert decoded(fast) == decoded(slow)
    assert 0.95 <= len(fast) / len(slow) <= 1.06
    assert chunks(fast) == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]  # and every chunk's CRC holds
    Image.open(io.BytesIO(fast)).verify()


def test_a_palette_of_a_few_colours_decodes_the_same() -> None:
    """Pillow writes a 3-colour picture with 2 bits a pixel; written with 8 it reads the same."""
    rgb = Image.new("RGB", (37, 11), (250, 240, 220))
    rgb.paste((200, 20, 20), (3, 2, 20, 9))
    rgb.paste((20, 20, 200), (22, 0, 37, 5))
    q = encode.quantize(rgb)
    png = encode.palette_png(q, deflate=zlib.compress)
    assert decoded(png) == decoded(pillow_png(q))
    assert Image.open(io.BytesIO(png)).convert("RGB").tobytes() == rgb.tobytes()


def test_any_zlib_stream_deflater_writes_a_valid_png(pictures: dict[str, Image.Image]) -> None:
    q = pictures["hand"]
    png = encode.palette_png(q, deflate=lambda data: zlib.compress(data, 9))
    assert decoded(png) == decoded(pillow_png(q))


def test_transparency_goes_through_pillow() -> None:
    q = Image.new("P", (8, 8), 1)
    q.putpalette([0, 0, 0, 255, 255, 255])
    q.info["transparency"] = 0
    assert encode.palette_png(q) == pillow_png(q)


def test_without_isal_pillow_encodes_as_before() -> None:
    """On a platform without the package the same pictures come from Pillow's zlib at level 3:
    byte for byte what `Image.save` writes."""
    script = (
        "import sys; sys.modules['isal'] = None\n"  # the import fails, as where no wheel exists
        "import io\n"
        "from render import encode\n"
        "from render.hand import render_hand\n"
        "from tools.samples import sample_view\n"
        "assert encode.fast_deflate() is None and encode.deflater_name() == 'pillow'\n"
        "q = encode.quantize(render_hand(sample_view('europe', players=3, seed=4, seat=1)).image)\n"
        "out = io.BytesIO(); q.save(out, 'PNG', compress_level=3)\n"
        "assert encode.palette_png(q) == out.getvalue()\n"
        "print('pillow')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pillow"


def board_cases() -> list[tuple[str, dict]]:
    cases: list[tuple[str, dict]] = []
    for map_id in ("usa", "europe", "nordic", "germany", "ussr", "alsace"):
        cases += [(map_id, dict(players=4, seed=3)), (map_id, dict(players=5, seed=7, claimed_share=0.8, dice=True)),
                  (map_id, dict(players=2, seed=1, claimed_share=0.1, over=True))]
    return cases


@pytest.mark.parametrize(("map_id", "sample"), board_cases())
def test_a_board_quantized_only_where_drawn_on_has_the_same_bytes(map_id: str, sample: dict) -> None:
    """Trains, stations, passengers, rings on routes and cities, colour tags and the legend:
    the base's scanlines with only the boxes drawn on quantized again give the bytes of the
    whole picture quantized."""
    from render.board import _drawn_board

    view = sample_view(map_id, **sample)
    routes, cities = sorted(view.route_owner), sorted(view.stations or ())
    # Every map at the players' 1600 px; the other widths and colour-blind marks on the USA board
    # only: the rows code knows no map, and each width is a base to prepare (4–5 s of CPU on USSR).
    sizes = [(1600, False, routes[:1])]
    if map_id == "usa":
        sizes += [(1200, True, routes[-2:]), (800, False, [])]
    for width, colorblind, marked in sizes:
        img, base, _, drawn = _drawn_board(view, None, width, colorblind, marked, cities[:1] or ["x"])
        assert base.rows().png(img, drawn) == encode.png_bytes(img, base.palette)


def test_render_board_writes_the_whole_picture_quantized() -> None:
    view = sample_view("germany", players=5, seed=2)
    pic = render_board(view, highlight_routes=[sorted(view.route_owner)[-1]])
    assert pic.png == encode.png_bytes(pic.image, pic.base.palette)


def test_without_isal_a_board_is_written_by_pillow_as_before() -> None:
    script = (
        "import sys; sys.modules['isal'] = None\n"
        "from render import encode\n"
        "from render.board import render_board\n"
        "from tools.samples import sample_view\n"
        "assert encode.fast_deflate() is None\n"
        "v = sample_view('europe', players=4, seed=3)\n"
        "pic = render_board(v, highlight_routes=[sorted(v.route_owner)[0]])\n"
        "assert pic.png == encode.png_bytes(pic.image, pic.base.palette)\n"
        "print('pillow')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "pillow"
