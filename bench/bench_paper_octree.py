"""Benchmark (an idea measured, not taken): the hand's octree run over only the tiles that are
not plain paper. Prints, per map, what a hand's octree and PNG cost now and what the shortcut
would cost stage by stage, and checks that its PNG has the same bytes.

    .venv/bin/python bench/bench_paper_octree.py [--seeds 3] [--maps usa,europe] [--tile 16]

Why the same bytes are possible (Pillow's QuantOctree.c): the fast octree gives each pixel the
palette entry of its 4-bit-a-channel bucket; the palette comes from the buckets' pixel counts
and channel sums only — the fullest buckets by count (a qsort of all 4,096), then the 64 coarse
buckets less those, each entry its bucket's mean, ``(int)(sum / (float)count)``. A hand is
mostly one paper colour, whose bucket is far the fullest: left with fewer paper pixels it is
still the strict maximum, so every comparison the sort makes comes out the same (whatever the
sort), and the order, the coarse subtraction and the lookup are unchanged; only the paper
entry's mean may differ. So the plain tiles are left out (the rest packed into one picture
with a strip of paper), the quantized tiles are put back, the plain ones get the paper's index,
and that entry's mean is worked out again over the whole picture the way Pillow does (float
arithmetic). Each condition is checked (the paper the strict fullest, its mean as Pillow gives
it, the means in the paper's own bucket); the whole picture is quantized when one fails.

Stages (ms of thread CPU, medians): `detect` finds the plain tiles (a lookup table and a box
reduce), `pack` copies the other tiles into one picture, `octree` quantizes it, `back` counts
the paper's bucket (histograms) and pastes the indices into the scanlines, `deflate` is ISA-L.
Figures in docs/performance.md ("Cheaper pictures, fifth step").
"""

from __future__ import annotations

import argparse
import statistics
import struct
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image, ImageChops  # noqa: E402

from engine.maps import available_maps, load_map  # noqa: E402
from render import palette as P  # noqa: E402
from render.dirty import _runs  # noqa: E402
from render.encode import _png, fast_deflate, palette_png, quantize  # noqa: E402
from render.hand import hand_image, prepare_mini  # noqa: E402
from tools.samples import sample_view  # noqa: E402

Box = tuple[int, int, int, int]
STRIP = 16  # rows of plain paper under the packed tiles: a pixel known to be paper
SLICE = 64  # tall rectangles are cut into pieces this high, so that they pack tightly
_BIT = bytes([0x30] + [0x31] * 255)  # a mark byte as "0" or "1"
_ONLY = [bytes(255 if i == j else 0 for i in range(256)) for j in range(256)]


def _f32(value: float) -> float:
    return float(struct.unpack("<f", struct.pack("<f", value))[0])


def octree_mean(count: int, total: int) -> int:
    """A bucket's mean channel as Pillow's octree has it: the sum converted to float, divided by
    the count in float (a float32 quotient of float32s computed in double, then rounded, is the
    same), truncated, clipped."""
    return max(0, min(255, int(_f32(_f32(total) / _f32(count)))))


def _bucket(colour: Sequence[int]) -> tuple[int, int, int]:
    return colour[0] >> 4, colour[1] >> 4, colour[2] >> 4


def dirty_rows(image: Image.Image, paper: tuple[int, int, int], tile: int) -> list[int]:
    """A bit mask per row of tiles, bit c set when tile c holds a pixel other than `paper`."""
    width, height = image.size
    cols, rows = -(-width // tile), -(-height // tile)
    # each channel 0 where it is the paper's, else 255: a tile's box mean is then at least 1
    # wherever one of its pixels is not paper (255 / 256 rounds up)
    lut = [0 if v == c else 255 for c in paper for v in range(256)]
    r, g, b = image.point(lut).reduce(tile).split()
    marks = ImageChops.lighter(ImageChops.lighter(r, g), b).tobytes()
    edge = (1 << (cols - 1)) if width % tile else 0  # partial tiles: always quantized
    masks = [int(marks[i * cols:(i + 1) * cols].translate(_BIT)[::-1], 2) | edge for i in range(rows)]
    if height % tile:
        masks[-1] = (1 << cols) - 1
    return masks


def rectangles(masks: list[int], size: tuple[int, int], tile: int) -> list[Box]:
    """The set tiles as rectangles (runs of a row growing down), cut every SLICE rows."""
    width, height = size
    out: list[Box] = []
    open_runs: dict[tuple[int, int], int] = {}
    for r in range(len(masks) + 1):
        runs = set(_runs(masks[r])) if r < len(masks) else set()
        for run in [run for run in open_runs if run not in runs]:
            r0 = open_runs.pop(run)
            x0, x1, y1 = run[0] * tile, min(width, run[1] * tile), min(height, r * tile)
            out += [(x0, y, x1, min(y1, y + SLICE)) for y in range(r0 * tile, y1, SLICE)]
        for run in runs:
            open_runs.setdefault(run, r)
    return out


def shelves(boxes: list[Box], width: int) -> tuple[list[tuple[Box, tuple[int, int]]], int]:
    """Each box placed on shelves `width` wide, tallest first; and the shelves' height."""
    placed: list[tuple[Box, tuple[int, int]]] = []
    x = y = shelf = 0
    for box in sorted(boxes, key=lambda b: (b[1] - b[3], b[0] - b[2])):
        w, h = box[2] - box[0], box[3] - box[1]
        if x + w > width:
            x, y, shelf = 0, y + shelf, 0
        placed.append((box, (x, y)))
        x += w
        shelf = max(shelf, h)
    return placed, y + shelf


def paper_png(image: Image.Image, paper: tuple[int, int, int], tile: int,
              stages: dict[str, list[float]]) -> bytes | None:
    """The hand's PNG by the shortcut, or None when a condition fails (then it would be the
    whole picture's octree); the stages' CPU times go into `stages`."""
    clock = time.thread_time
    t = [clock()]
    width, height = image.size
    boxes = rectangles(dirty_rows(image, paper, tile), image.size, tile)
    t.append(clock())
    placed, shelf_h = shelves(boxes, width)
    used = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
    packed = Image.new("RGB", (width, shelf_h + STRIP), paper)
    for (x0, y0, x1, y1), (x, y) in placed:
        packed.im.paste(image.im.crop((x0, y0, x1, y1)), (x, y, x + x1 - x0, y + y1 - y0))
    t.append(clock())
    q = packed.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    t.append(clock())
    index = q.im.getpixel((0, shelf_h))
    counts = q.histogram()
    # the pixels given the paper's entry are its bucket's (checked below): their count and sums
    hist = packed.histogram(Image.frombytes("L", q.size, q.tobytes().translate(_ONLY[index])))
    count = sum(hist[:256])
    sums = [sum(i * n for i, n in enumerate(hist[c * 256:(c + 1) * 256])) for c in range(3)]
    extra = (width * height - used) - (packed.width * packed.height - used)  # paper left out, less filler
    full, full_sums = count + extra, [s + extra * c for s, c in zip(sums, paper, strict=True)]
    colours = bytearray(q.im.getpalette("RGB", "RGB"))
    others = max(n for i, n in enumerate(counts) if i != index)
    mean = [octree_mean(count, s) for s in sums]
    whole = [octree_mean(full, s) for s in full_sums]
    if (counts[index] != count or count <= others or full <= others
            or list(colours[3 * index:3 * index + 3]) != mean
            or _bucket(mean) != _bucket(paper) or _bucket(whole) != _bucket(paper)):
        return None
    colours[3 * index:3 * index + 3] = bytes(whole)
    buf = bytearray((b"\0" + bytes((index,)) * width) * height)
    rows = Image.frombuffer("P", (width + 1, height), buf, "raw", "P", 0, 1)
    for (x0, y0, x1, y1), (x, y) in placed:
        rows.im.paste(q.im.crop((x, y, x + x1 - x0, y + y1 - y0)), (x0 + 1, y0, x1 + 1, y1))
    t.append(clock())
    deflate = fast_deflate()
    assert deflate is not None, "the shortcut writes the PNG itself (ISA-L)"
    out = _png(width, height, bytes(colours), deflate(buf))
    t.append(clock())
    for name, a, b in zip(("detect", "pack", "octree", "back", "deflate"), t, t[1:], strict=False):
        stages.setdefault(name, []).append((b - a) * 1000)
    stages.setdefault("quantized", []).append(used / (width * height))
    stages.setdefault("packed", []).append(packed.width * packed.height / (width * height))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3, help="sample games per map (four hands each)")
    parser.add_argument("--maps", default=",".join(available_maps()))
    parser.add_argument("--tile", type=int, default=16)
    args = parser.parse_args()
    clock = time.thread_time
    pictures = different = failed = 0
    print("ms of CPU (thread time), medians; shares of the picture's pixels")
    for map_id in args.maps.split(","):
        game_map = load_map(map_id)
        prepare_mini(game_map)
        now: dict[str, list[float]] = {}
        stages: dict[str, list[float]] = {}
        for seed in range(args.seeds):
            for seat in range(4):
                img, _, _ = hand_image(sample_view(game_map, players=4, seed=seed, seat=seat), game_map, seat)
                t0 = clock()
                q = quantize(img)
                t1 = clock()
                png = palette_png(q)
                t2 = clock()
                now.setdefault("octree", []).append((t1 - t0) * 1000)
                now.setdefault("deflate", []).append((t2 - t1) * 1000)
                exact = sum(n for n, c in img.getcolors(1 << 24) or () if c == P.PAPER)
                now.setdefault("paper", []).append(exact / (img.width * img.height))
                got = paper_png(img, P.PAPER, args.tile, stages)
                pictures += 1
                failed += got is None
                different += got is not None and got != png
        m = statistics.median
        short = sum(m(stages[k]) for k in ("detect", "pack", "octree", "back", "deflate")) if stages else 0.0
        print(f"{map_id:8} now: octree {m(now['octree']):5.2f} + deflate {m(now['deflate']):4.2f}"
              f" = {m(now['octree']) + m(now['deflate']):5.2f}; plain paper {m(now['paper']):.0%} of pixels"
              + (f" | shortcut: quantized {m(stages['quantized']):.0%}, packed {m(stages['packed']):.0%};"
                 + "".join(f" {k} {m(stages[k]):4.2f}" for k in ("detect", "pack", "octree", "back", "deflate"))
                 + f" = {short:5.2f}" if stages else ""))
    print(f"{pictures} hands: {failed} fell back to the whole octree, {different} with other bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
