"""Benchmark: a part of the board, enlarged (render/zoom.py), per map, on the CPU clock.

    .venv/bin/python bench/bench_zoom.py [--runs 40] [--maps usa,europe] [--seed 1] [--json]

For each map the board's base is built once (every worker posting turns has it), then `--runs`
zooms are drawn, each around a different random city (every other one around a claimed route,
as the turn post's Zoom button asks, with it marked) of a different sample game. Prints p50 and
p95 of the process's CPU time per picture, per map and over all maps; `--json` prints one JSON
object. Target (issue 27): p95 <= 40 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.maps import available_maps, load_map  # noqa: E402
from render.board import board_image  # noqa: E402
from render.zoom import render_zoom  # noqa: E402
from tools.samples import sample_view  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--maps", default=",".join(available_maps()))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    every: list[float] = []
    out: dict[str, Any] = {"runs": args.runs, "maps": {}}
    for map_id in args.maps.split(","):
        game_map = load_map(map_id)
        board_image(sample_view(game_map, players=4, seed=0))  # the base, as a worker has it
        cities = sorted(game_map.cities)
        times = []
        for run in range(args.runs):
            view = sample_view(game_map, players=4, seed=args.seed * 1000 + run)
            if run % 2 and view.route_owner:
                route = rng.choice(sorted(view.route_owner))
                kwargs: dict[str, Any] = {"route": route, "highlight_routes": [route]}
            else:
                kwargs = {"city": rng.choice(cities)}
            started = time.process_time()
            render_zoom(view, game_map, **kwargs)
            times.append((time.process_time() - started) * 1000)
        every += times
        out["maps"][map_id] = {"p50_ms": round(statistics.median(times), 1), "p95_ms": round(pct(times, 0.95), 1)}
    out["p50_ms"] = round(statistics.median(every), 1)
    out["p95_ms"] = round(pct(every, 0.95), 1)
    if args.json:
        print(json.dumps(out))
        return 0
    for map_id, row in out["maps"].items():
        print(f"{map_id:8} p50 {row['p50_ms']:5.1f} ms  p95 {row['p95_ms']:5.1f} ms")
    print(f"{'all':8} p50 {out['p50_ms']:5.1f} ms  p95 {out['p95_ms']:5.1f} ms  (CPU per picture; target p95 <= 40)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
