"""Benchmark: the ticket-offer picture (render/offer.py), per map, on the CPU clock.

    .venv/bin/python bench/bench_offer.py [--runs 40] [--maps usa,europe] [--seed 1] [--json]

For each map the offer's base is built once (as a render worker does at its first offer of
that map; its build time is printed apart), then `--runs` pictures are drawn, each a different
offer (2 to 5 random tickets, and on a map with tourist cards two of those) to a player holding
a different sample hand and routes, so no city label or ticket line is drawn from an earlier
picture's work. Prints p50 and p95 of the process's CPU time per picture, per map and over all
maps; `--json` prints one JSON object. Target (issue 27): p95 <= 40 ms.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.maps import available_maps, load_map  # noqa: E402
from engine.view import PendingView  # noqa: E402
from render.offer import prepare_offer, render_offer  # noqa: E402
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
        started = time.process_time()
        prepare_offer(game_map)
        build_ms = (time.process_time() - started) * 1000
        tickets = sorted(game_map.tickets)
        tourist = sorted(c["id"] for c in game_map.extras.get("tourist_cards", ()) if c["kind"] != "lucky_devil")
        times = []
        for run in range(args.runs):
            seen = sample_view(game_map, players=3, seed=args.seed * 1000 + run, seat=1)
            held = set(seen.players[1].tickets or ())
            offer = rng.sample([t for t in tickets if t not in held], rng.randint(2, 5))
            offer += rng.sample(tourist, 2) if tourist else []
            seen = dataclasses.replace(seen, pending=PendingView("choose_tickets", offers=(None, offer, None)))
            started = time.process_time()
            render_offer(seen, game_map)
            times.append((time.process_time() - started) * 1000)
        every += times
        out["maps"][map_id] = {"p50_ms": round(statistics.median(times), 1), "p95_ms": round(pct(times, 0.95), 1),
                               "base_build_ms": round(build_ms)}
    out["p50_ms"] = round(statistics.median(every), 1)
    out["p95_ms"] = round(pct(every, 0.95), 1)
    if args.json:
        print(json.dumps(out))
        return 0
    for map_id, row in out["maps"].items():
        print(f"{map_id:8} p50 {row['p50_ms']:5.1f} ms  p95 {row['p95_ms']:5.1f} ms  (base built once: "
              f"{row['base_build_ms']} ms)")
    print(f"{'all':8} p50 {out['p50_ms']:5.1f} ms  p95 {out['p95_ms']:5.1f} ms  (CPU per picture; target p95 <= 40)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
