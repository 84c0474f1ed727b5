"""Benchmark (an idea measured, not taken): a board's PNG deflated band by band, so that the
bands of scanlines no game draws on could be deflated once with the base and joined.

    .venv/bin/python bench/bench_deflate_bands.py [--band 32] [--seeds 10] [--maps usa,europe]

A deflate stream can be cut into pieces that each end on a full flush (no reference back
across the cut) and be joined again, so a base's untouched bands could keep their deflated
bytes. Per map, over sample mid-game boards (4 players, ~40 % of routes claimed, the last claim
marked): the share of `--band`-row bands that nothing is drawn on (neither a tile quantized
again nor a route's ready cars), ISA-L level 1 on the whole scanlines (ms of thread CPU and
KB), on the touched bands only (what a board would then deflate), and the bytes of all bands
deflated apart. Figures in docs/performance.md ("Cheaper pictures, fifth step").
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.maps import available_maps, load_map  # noqa: E402
from render.board import _drawn_board  # noqa: E402
from render.dirty import tiles  # noqa: E402
from tools.samples import sample_view  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--band", type=int, default=32)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--maps", default=",".join(available_maps()))
    args = parser.parse_args()
    from isal import isal_zlib

    clock = time.thread_time
    band = args.band
    print(f"{band}-row bands; ms of CPU (thread time) and KB, medians")
    for map_id in args.maps.split(","):
        game_map = load_map(map_id)
        got: dict[str, list[float]] = {}
        for seed in range(args.seeds):
            view = sample_view(game_map, players=4, seed=seed)
            img, base, _, drawn = _drawn_board(view, game_map, 1600, False, [sorted(view.route_owner)[0]], ())
            width, height = img.size
            boxes = list(tiles(list(drawn), img.size)) + [piece[0] for piece in drawn.ready]
            touched = {b for _, y0, _, y1 in boxes
                       for b in range(max(0, y0) // band, (min(height, y1) - 1) // band + 1)}
            bands = -(-height // band)
            scan = base.rows().scanlines(img, drawn)
            line = width + 1
            pieces = [bytes(scan[b * band * line:(b + 1) * band * line]) for b in range(bands)]

            def apart(data: bytes) -> bytes:
                c = isal_zlib.compressobj(1, isal_zlib.DEFLATED, -15)
                return c.compress(data) + c.flush(isal_zlib.Z_FULL_FLUSH)

            t0 = clock()
            whole = isal_zlib.compress(scan, 1)
            t1 = clock()
            for b in touched:
                apart(pieces[b])
            t2 = clock()
            got.setdefault("untouched", []).append(1 - len(touched) / bands)
            got.setdefault("whole_ms", []).append((t1 - t0) * 1000)
            got.setdefault("touched_ms", []).append((t2 - t1) * 1000)
            got.setdefault("whole_kb", []).append(len(whole) / 1000)
            got.setdefault("apart_kb", []).append(sum(len(apart(p)) for p in pieces) / 1000)
        m = {k: statistics.median(v) for k, v in got.items()}
        print(f"{map_id:8} untouched bands {m['untouched']:4.0%}; "
              f"whole {m['whole_ms']:4.2f} ms {m['whole_kb']:5.1f} KB; "
              f"touched bands only {m['touched_ms']:4.2f} ms; all bands apart {m['apart_kb']:5.1f} KB "
              f"({m['apart_kb'] / m['whole_kb'] - 1:+.1%})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
