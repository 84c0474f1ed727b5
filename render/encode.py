"""PNG encoding: quantize to a palette first, then deflate with the fastest deflater at hand.

A 256-colour palette PNG of a 1600-pixel board encodes several times faster and smaller than
an RGB one. Board pictures use their base's fixed palette (a nearest-colour lookup, ~1 ns a
pixel), looked up again only where a game was drawn on the base (`BaseRows`); other pictures
use Pillow's fast octree quantizer.

Deflate was most of a picture's cost (7–9 ms of a 1600-pixel board with Pillow's zlib at
level 3). ISA-L (the `isal` package) at level 1 deflates the same scanlines in a sixth of the
time for about the same bytes (docs/performance.md, "Cheaper pictures"), so when it is
installed the PNG is written here: the same palette, the same scanlines (filter "None" on
every row, as Pillow writes a palette image), deflated by ISA-L — the same pixels once
decoded. Where the package is missing (a platform without a wheel), Pillow's own encoder at
zlib level 3 writes it, as before.
"""

from __future__ import annotations

import functools
import io
import struct
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from PIL import Image

from render.dirty import Box, tiles

# Pillow's zlib level when ISA-L is missing: 1 is ~4x faster than the default 6 for ~35% larger
# files; 3 is a good middle.
COMPRESS_LEVEL = 3
# ISA-L's levels are 0-3; at 1 a board's PNG is within 1-2 % of Pillow's level 3 in bytes.
ISAL_LEVEL = 1


def _load_isal() -> ModuleType | None:
    try:
        from isal import isal_zlib
    except ImportError:  # no wheel for this platform: Pillow's zlib instead
        return None
    return isal_zlib


_ISAL = _load_isal()

Deflate = Callable[[bytes | bytearray], bytes]


def fast_deflate() -> Deflate | None:
    """The zlib-stream deflater PNGs are written with, or None when only Pillow's is at hand."""
    if _ISAL is None:
        return None
    isal_zlib = _ISAL
    return lambda data: isal_zlib.compress(data, ISAL_LEVEL)


def deflater_name() -> str:
    """Which deflater writes the pictures here ("isal" or "pillow"), for logs and benches."""
    return "isal" if _ISAL is not None else "pillow"


def quantize(image: Image.Image, palette: Image.Image | None = None) -> Image.Image:
    """A "P" copy of `image`: against a fixed `palette` if given, else an adaptive one."""
    if image.mode == "P":
        return image
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    if palette is not None:
        return rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    return rgb.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def png_bytes(image: Image.Image, palette: Image.Image | None = None, compress_level: int = COMPRESS_LEVEL) -> bytes:
    """PNG bytes of `image`, quantized to 256 colours (`compress_level`: Pillow's zlib level,
    used when ISA-L is not installed)."""
    return palette_png(quantize(image, palette), compress_level)


def palette_png(q: Image.Image, compress_level: int = COMPRESS_LEVEL, deflate: Deflate | None = None) -> bytes:
    """PNG bytes of a "P" image, deflated by `deflate` (default: `fast_deflate()`); by
    Pillow's encoder when there is none, or for a palette image with transparency."""
    deflate = deflate or fast_deflate()
    if deflate is None or q.mode != "P" or "transparency" in q.info:
        out = io.BytesIO()
        q.save(out, "PNG", compress_level=compress_level)
        return out.getvalue()
    width, height = q.size
    # Each scanline starts with its filter type, 0 ("None"), as Pillow writes palette images:
    # one zero column to the left of the picture gives exactly those bytes (written into a
    # zeroed bytearray a "P" picture shares, and deflated from there without a copy).
    buf = bytearray((width + 1) * height)
    Image.frombuffer("P", (width + 1, height), buf, "raw", "P", 0, 1).im.paste(q.im, (1, 0, width + 1, height))
    return _png(width, height, q.im.getpalette("RGB", "RGB"), deflate(buf))


def _png(width: int, height: int, colours: bytes, idat: bytes) -> bytes:
    """A palette PNG `width` x `height` of deflated scanlines `idat`."""
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit palette, no interlace
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header), _chunk(b"PLTE", colours),
                     _chunk(b"IDAT", idat), _chunk(b"IEND", b"")))


@dataclass(frozen=True)
class BaseRows:
    """A base picture quantized once to its fixed palette, as PNG scanlines: the bytes of a
    "P" picture one column wider than the base, that column (each row's filter byte) 0."""

    data: bytes  # the scanlines, row after row
    size: tuple[int, int]  # the base picture's width and height
    palette: Image.Image
    colours: bytes  # the palette as PNG's PLTE chunk holds it

    @classmethod
    def of(cls, image: Image.Image, palette: Image.Image) -> BaseRows:
        """The scanlines of `image` quantized to `palette` (a "P" image)."""
        q = quantize(image, palette)
        rows = Image.new("P", (image.width + 1, image.height), 0)
        rows.im.paste(q.im, (1, 0, image.width + 1, image.height))
        return cls(rows.tobytes(), image.size, palette, q.im.getpalette("RGB", "RGB"))

    @property
    def rows(self) -> Image.Image:
        """The scanlines as a "P" picture (a copy)."""
        return Image.frombytes("P", (self.size[0] + 1, self.size[1]), self.data)

    def scanlines(self, image: Image.Image, drawn: Sequence[Box], into: ScanlineBuffer | None = None,
                  rects: Sequence[Box] | None = None) -> bytearray:
        """The PNG scanlines of `image`, a copy of the base drawn on only inside the boxes
        `drawn`: the base's, with those boxes (in whole tiles) quantized again. A pixel's
        palette index depends on that pixel alone (a nearest-colour lookup), so the pixels
        outside keep the base's; the pieces in ``drawn.ready`` (`render.dirty.Drawn`) bring
        their indices already looked up.

        `into`: a kept buffer holding the base's scanlines (`ScanlineBuffer`), written into
        instead of a fresh copy; `rects`: ``tiles(list(drawn), size)`` when the caller has
        them already."""
        width, height = self.size
        # Written into a bytearray that a "P" picture shares (Pillow maps a "P" buffer rather
        # than copying it) and deflated from there: no copy of a base picture and no tobytes()
        # of the result (together 0.5-1.4 ms of a 1600 px board). Only the core's paste
        # writes into it (Image.paste would first copy a picture made from a buffer).
        if into is None:
            buf = self.writable()
            core = Image.frombuffer("P", (width + 1, height), buf, "raw", "P", 0, 1).im
        else:
            buf, core = into.buffer, into.core
        pal = self.palette.im
        # Pieces whose indices are known (a route's cars on the bare base) first, each through
        # the mask of the pixels it sets; the tiles drawn on, quantized again, then go on top.
        for (x0, y0, x1, y1), indices, where in getattr(drawn, "ready", ()):
            if where is None:  # the whole box
                core.paste(indices, (x0 + 1, y0, x1 + 1, y1))
            else:
                core.paste(indices, (x0 + 1, y0, x1 + 1, y1), where)
        for x0, y0, x1, y1 in (tiles(list(drawn), image.size) if rects is None else rects):
            core.paste(image.im.crop((x0, y0, x1, y1)).convert("P", 0, pal), (x0 + 1, y0, x1 + 1, y1))
        return buf

    def writable(self) -> bytearray:
        """A copy of the scanlines to write a picture's into."""
        return bytearray(self.data)

    @functools.cached_property
    def core(self) -> Any:
        """The scanlines as a read-only "P" core sharing `data` (to crop from)."""
        width, height = self.size
        return Image.frombuffer("P", (width + 1, height), self.data, "raw", "P", 0, 1).im

    def encode(self, scanlines: bytearray, compress_level: int = COMPRESS_LEVEL) -> bytes:
        """The PNG of `scanlines` (from `scanlines`)."""
        width, height = self.size
        deflate = fast_deflate()
        if deflate is not None:
            return _png(width, height, self.colours, deflate(scanlines))
        q = Image.frombytes("P", (width + 1, height), bytes(scanlines)).crop((1, 0, width + 1, height))
        q.putpalette(self.colours)  # Pillow writes it: the picture without the filter column
        return palette_png(q, compress_level)

    def png(self, image: Image.Image, drawn: Sequence[Box], compress_level: int = COMPRESS_LEVEL) -> bytes:
        """The same bytes as ``png_bytes(image, palette)`` for `image`, a copy of the base
        drawn on only inside the boxes `drawn` (`scanlines`, then `encode`)."""
        return self.encode(self.scanlines(image, drawn), compress_level)


class ScanlineBuffer:
    """A base's scanlines kept in a bytearray between pictures (`render.scratch`): written
    into by `BaseRows.scanlines`, deflated, then put back to the base's own scanlines over the
    boxes written (`restore`)."""

    def __init__(self, rows: BaseRows) -> None:
        width, height = rows.size
        self.buffer = rows.writable()
        self.core = Image.frombuffer("P", (width + 1, height), self.buffer, "raw", "P", 0, 1).im

    def restore(self, rows: BaseRows, boxes: Sequence[Box]) -> None:
        """The base's scanlines again inside `boxes` (picture coordinates, inside the picture)."""
        src, core = rows.core, self.core
        for x0, y0, x1, y1 in boxes:
            box = (x0 + 1, y0, x1 + 1, y1)
            core.paste(src.crop(box), box)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
