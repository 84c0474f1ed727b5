"""Benchmark: the hand picture for ticket sets never seen before, per map.

    .venv/bin/python bench/bench_hand.py [--runs 60] [--maps usa,europe] [--seed 1] [--cpu] [--json]

For each map: the small map's base and each city's label spots are prepared once (as a render
worker does when it starts), then `--runs` hand pictures are
drawn, each for the same player holding a different random set of 2 to 8 of the map's tickets
(no set repeats, so no picture and no label placement is served from a cache of ticket sets).
Prints p50 and p95 per map and over all maps; with `--json` one JSON object
{"runs": …, "p50_ms": …, "p95_ms": …, "maps": {map: {"p50_ms": …, "p95_ms": …}}}. Target
(issue 16): p95 <= 40 ms. `--cpu` times with the process's CPU clock (a machine shared with
other work then shows close to what an idle one would).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.maps import available_maps, load_map  # noqa: E402
from render.hand import prepare_mini, render_hand  # noqa: E402
from tools.samples import sample_view  # noqa: E402


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]


def new_sets(tickets: list[str], runs: int, rng: random.Random) -> list[tuple[str, ...]]:
    seen: set[frozenset[str]] = set()
    out: list[tuple[str, ...]] = []
    while len(out) < runs:
        pick = tuple(rng.sample(tickets, rng.randint(2, min(8, len(tickets)))))
        if frozenset(pick) not in seen:
            seen.add(frozenset(pick))
            out.append(pick)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--maps", default=",".join(available_maps()))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", action="store_true", help="time with the process CPU clock")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    rng = random.Random(args.seed)
    every: list[float] = []
    per_map: dict[str, dict[str, float]] = {}
    for map_id in args.maps.split(","):
        game_map = load_map(map_id)
        view = sample_view(game_map, players=4, seed=3, seat=1)
        prepare_mini(game_map)  # what a render worker does when it starts: the small map, each city's spots
        render_hand(view, game_map)  # warm: fonts
        me = view.players[1]
        times = []
        for pick in new_sets(sorted(game_map.tickets), args.runs, rng):
            players = list(view.players)
            players[1] = dataclasses.replace(me, tickets=pick, ticket_count=len(pick), completed=frozenset())
            v = dataclasses.replace(view, players=tuple(players))
            t0 = clock()
            render_hand(v, game_map)
            times.append((clock() - t0) * 1000)
        every += times
        per_map[map_id] = {"p50_ms": round(statistics.median(times), 1), "p95_ms": round(pct(times, 0.95), 1)}
        if not args.json:
            print(f"{map_id:10} hand, new ticket set: p50 {per_map[map_id]['p50_ms']:6.1f} ms, "
                  f"p95 {per_map[map_id]['p95_ms']:6.1f} ms")
    out = {"runs": len(every), "p50_ms": round(statistics.median(every), 1), "p95_ms": round(pct(every, 0.95), 1),
           "maps": per_map}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"all maps ({len(every)} pictures): p50 {out['p50_ms']:.1f} ms, p95 {out['p95_ms']:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
