"""Self-play speed: whole 4-player Europe games with the random AI, on one core.

    python bench/bench_selfplay.py [--games 200] [--variant europe] [--players 4]

Prints games per second, decisions per second and where the time goes (legal_actions, view,
the AI's choice, apply). Target (issue 2): at least 50 games/s.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import make_ai  # noqa: E402
from engine.game import actors, apply, legal_actions, new_game, view  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--variant", default="europe")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--ai", default="random")
    args = parser.parse_args()

    parts = {"new_game": 0.0, "legal_actions": 0.0, "view": 0.0, "choose": 0.0, "apply": 0.0}
    decisions = 0
    per_game: list[float] = []
    started = time.process_time()
    for g in range(args.games):
        t0 = time.process_time()
        state, _ = new_game(args.variant, args.players, 1000 + g)
        t1 = time.process_time()
        parts["new_game"] += t1 - t0
        ais = [make_ai(args.ai, g * 31 + i) for i in range(args.players)]
        while not state.game_over:
            seat = actors(state)[0]
            a = time.process_time()
            legal = legal_actions(state, seat)
            b = time.process_time()
            seen = view(state, seat)
            c = time.process_time()
            action = ais[seat].choose(seen, legal)
            d = time.process_time()
            state, _ = apply(state, action)
            e = time.process_time()
            parts["legal_actions"] += b - a
            parts["view"] += c - b
            parts["choose"] += d - c
            parts["apply"] += e - d
            decisions += 1
        per_game.append(time.process_time() - t0)
    elapsed = time.process_time() - started
    print(f"{args.games} {args.players}-player {args.variant} games, {args.ai} AI")
    print(f"games/s        {args.games / elapsed:.1f}")
    print(f"decisions/s    {decisions / elapsed:.0f}  ({decisions / args.games:.0f} per game)")
    print(f"ms per game    median {1000 * statistics.median(per_game):.1f}, max {1000 * max(per_game):.1f}")
    for name, seconds in parts.items():
        print(f"  {name:<14} {1000 * seconds / args.games:6.2f} ms/game  ({100 * seconds / elapsed:4.1f}%)")


if __name__ == "__main__":
    main()
