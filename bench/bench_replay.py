"""Replays (issue 20): size and build time of the replay GIF of a whole game, per map.

    python bench/bench_replay.py [--maps usa,europe,nordic,germany,ussr,alsace] [--seed 1] [--cpu]

For each map, a whole game between greedy AIs (5 players, Nordic Countries 3) is replayed from
its seed and moves (`engine.timeline.public_timeline`) and drawn (`render.replay.render_replay`).
Prints the pictures (claims and stations + the first and final boards), the timeline's time,
the build time with the board's base already drawn (the bot has drawn it for the final board
just before) and with a cold base cache, the GIF's size and pixel size. Limits (issue 20):
at most 8 MB, at most 5 s. `--cpu` times with the process's CPU clock instead of the wall
clock (on a machine shared with other work it is close to what an idle machine would show).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.rulesets import available_variants, build_ruleset  # noqa: E402
from engine.timeline import public_timeline  # noqa: E402
from render.base_cache import clear_cache  # noqa: E402
from render.replay import MAX_BYTES, render_replay  # noqa: E402
from tools.selfplay import play_game  # noqa: E402


def players_for(variant: str) -> int:
    """5 players where the rule set allows it (Nordic Countries: 3)."""
    for n in (5, 4, 3, 2):
        try:
            build_ruleset(variant, n, {})
            return n
        except Exception:  # the rule set refuses that many players
            continue
    raise ValueError(variant)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--maps", default=",".join(available_variants()))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    print(f"{'map':8} {'players':>7} {'pictures':>8} {'timeline ms':>11} {'build ms (warm)':>15} "
          f"{'build ms (cold)':>15} {'size KB':>8}  pixels")
    worst_ms = worst_kb = 0.0
    for variant in args.maps.split(","):
        players = players_for(variant)
        record = play_game(variant, players, args.seed, ("greedy",))
        t0 = clock()
        steps = public_timeline(variant, players, args.seed, record.actions)
        timeline_ms = (clock() - t0) * 1000
        clear_cache()
        t0 = clock()
        render_replay(steps)
        cold_ms = (clock() - t0) * 1000
        t0 = clock()
        pic = render_replay(steps)
        warm_ms = (clock() - t0) * 1000
        kb = len(pic.gif) / 1024
        worst_ms, worst_kb = max(worst_ms, timeline_ms + cold_ms), max(worst_kb, kb)
        print(f"{variant:8} {players:>7} {len(steps):>8} {timeline_ms:>11.0f} {warm_ms:>15.0f} {cold_ms:>15.0f} "
              f"{kb:>8.0f}  {pic.size[0]}x{pic.size[1]}")
    print(f"worst: {worst_kb / 1024:.2f} MB (limit {MAX_BYTES / 1024 / 1024:.0f} MB), "
          f"{worst_ms / 1000:.2f} s with a cold base (limit 5 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
