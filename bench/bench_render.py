"""Rendering speed and size: board, hand and final-score pictures, per map.

    python bench/bench_render.py [--runs 30] [--maps usa,europe,nordic,germany] [--width 1600] [--cpu]

Prints, per map: the one-off cost of the cached base, then p50 / p90 of a mid-game board
(its stages as `render_board` runs them: drawing — the base copy, trains, legend —, palette
quantization of the tiles drawn on, PNG deflate and chunks), its PNG size, the
same board on a dice table (the roll and the tokens in the legend), the colour-blind board,
the hand picture and the final-score picture (5 players). Targets (issues 4, 15): board p50
<= 30 ms at 1600 x ~1000, PNG <= 500 KB, hand <= 40 ms, final scores <= 100 ms. Figures, not
a test. `--cpu` times with the process's CPU clock instead of the wall clock: on a machine
shared with other work it is close to what an idle machine would show.
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PIL import Image  # noqa: E402

from engine.maps import available_maps, load_map  # noqa: E402
from render.base_cache import clear_cache, get_base  # noqa: E402
from render.board import _drawn_board, render_board  # noqa: E402
from render.encode import deflater_name, png_bytes  # noqa: E402
from render.hand import render_hand  # noqa: E402
from render.legend import key_entries  # noqa: E402
from render.parts import picture_parts  # noqa: E402
from render.scores import render_scores  # noqa: E402
from tools.samples import sample_view  # noqa: E402

CLOCK = time.perf_counter


def timed(fn, runs: int, *args, **kwargs) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = CLOCK()
        fn(*args, **kwargs)
        out.append((CLOCK() - t0) * 1000)
    return out


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--maps", default=",".join(m for m in available_maps()))
    parser.add_argument("--width", type=int, default=1600)
    parser.add_argument("--cpu", action="store_true", help="time with the process CPU clock")
    args = parser.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    print(f"Pillow {Image.__version__}, {args.runs} runs each, width {args.width}; times in ms "
          f"({'process CPU' if args.cpu else 'wall'} clock); PNG deflate: {deflater_name()}")
    print(f"{'map':8} {'size':>10} {'base':>6} {'board p50':>9} {'p90':>6} {'PNG KB':>7} "
          f"{'[draw':>6} {'quant':>5} {'png]':>5} {'dice':>5} {'cblind':>6} "
          f"{'hand p50':>8} {'scores':>7}")
    for map_id in args.maps.split(","):
        game_map = load_map(map_id)
        view = sample_view(game_map, players=4, seed=3)
        last = [sorted(view.route_owner)[0]]
        clear_cache()
        t0 = CLOCK()
        parts = picture_parts(view)
        base = get_base(game_map, args.width, key=key_entries(game_map, parts))
        base_ms = (CLOCK() - t0) * 1000
        render_board(view, game_map, width=args.width, highlight_routes=last)  # warm: car masks
        board = timed(render_board, args.runs, view, game_map, width=args.width, highlight_routes=last)
        png = render_board(view, game_map, width=args.width, highlight_routes=last).png

        stages: dict[str, list[float]] = {"draw": [], "quant": [], "png": []}
        rows = base.rows()
        for _ in range(args.runs):
            t = [CLOCK()]
            img, _, _, drawn = _drawn_board(view, game_map, args.width, False, last, ())  # base copy, game, legend
            t.append(CLOCK())
            lines = rows.scanlines(img, drawn)  # the quantization render_board does: tiles drawn on
            t.append(CLOCK())
            rows.encode(lines)  # deflate and chunks
            t.append(CLOCK())
            for name, a, b in zip(stages, t, t[1:], strict=False):
                stages[name].append((b - a) * 1000)

        dice_view = sample_view(game_map, players=4, seed=3, dice=True)
        render_board(dice_view, game_map, width=args.width, highlight_routes=last)
        dice = timed(render_board, args.runs, dice_view, game_map, width=args.width, highlight_routes=last)
        render_board(view, game_map, width=args.width, highlight_routes=last, colorblind=True)
        cblind = timed(render_board, args.runs, view, game_map, width=args.width, highlight_routes=last,
                       colorblind=True)

        hand_view = sample_view(game_map, players=4, seed=3, seat=1)
        render_hand(hand_view, game_map)  # warm: the small map's base
        hand = timed(render_hand, args.runs, hand_view, game_map)
        over = sample_view(game_map, players=5, seed=3, over=True)
        scores = timed(render_scores, max(5, args.runs // 3), over, game_map)
        w, h = base.image.size
        print(f"{map_id:8} {w:>5}x{h:<4} {base_ms:6.0f} {statistics.median(board):9.1f} {pct(board, 0.9):6.1f} "
              f"{len(png) / 1024:7.0f} "
              + " ".join(f"{statistics.median(v):5.1f}" for v in stages.values())
              + f" {statistics.median(dice):5.1f} {statistics.median(cblind):6.1f}"
              + f" {statistics.median(hand):8.1f} {statistics.median(scores):7.1f}")
    # the quantization claim of the issue, measured here
    img = base.image.copy()
    rgb = timed(img.save, 5, io.BytesIO(), "PNG")
    pal = timed(png_bytes, 5, img, base.palette)
    print(f"\nPNG of the last base, {img.size[0]}x{img.size[1]}: default RGB {statistics.median(rgb):.0f} ms, "
          f"palette (quantize + encode) {statistics.median(pal):.0f} ms")


if __name__ == "__main__":
    main()
