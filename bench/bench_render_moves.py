"""Board pictures of games as they are played, move after move, two versions side by side.

    python bench/bench_render_moves.py --before DIR [--after DIR] [--games 2] [--rounds 4] [--maps ...]

`bench_render_ab.py` draws ten fixed sample boards a map over and over, so anything a
worker keeps from one picture to the next is found there every time. A worker posting turns
draws a game's board after every turn instead, each a little different from the last (the
mover's cards, trains and score; whose turn it is; a new claim), several games of a map in
turn. Here each version (a process of its own, as in `bench_render_ab.py`) plays `--games`
random-AI games a map, 4 players (Nordic 3), and draws the public board after every turn of them, the
games' turns interleaved (one turn of each game, then the next), the last claim marked; the
pictures are shared out over `--rounds` rounds, the order of the versions alternating.
A board is what a render job draws (`render.jobs.board_png`, PNG bytes only).
Prints the median and p95 of the board's thread CPU time in ms, and whether the two
versions' PNGs decode to the same pixels. Figures, not a test.
"""

from __future__ import annotations

import argparse
import io
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def worker(root: str, games: int) -> None:
    """Serve `MAP COUNT` on stdin: draw the next COUNT boards of that map's games."""
    sys.path.insert(0, root)
    import hashlib

    from PIL import Image

    from engine.game import view
    from engine.rulesets import available_variants, variant
    from render.jobs import board_png
    from tools.selfplay import play_game

    posts: dict[str, list] = {}
    for name in available_variants():
        per_game = []
        for g in range(games):
            turns: list = []

            def seen(before, action, after, events, turns=turns) -> None:  # noqa: ANN001
                if action is not None and (after.current != before.current or after.game_over):
                    turns.append((view(after, None), action))

            v = variant(name)
            play_game(name, min(4, v.max_players), 500 + g, check=seen)
            per_game.append(turns)
        order = [x[i] for i in range(max(len(x) for x in per_game)) for x in per_game if i < len(x)]
        posts[variant(name).map_id] = order
        for v, _ in order[:3]:  # the base and its masks, as a prepared worker has them
            board_png(v)
    print("ready", flush=True)
    done = {m: 0 for m in posts}
    for line in sys.stdin:
        map_id, count = line.split()
        out: dict[str, list] = {"board": [], "pixels": []}
        for _ in range(int(count)):
            order = posts[map_id]
            v, action = order[done[map_id] % len(order)]
            done[map_id] += 1
            route = getattr(action, "route", None)  # a claim: its route marked
            marked = [route] if isinstance(route, str) and route in v.route_owner else []
            t0 = time.thread_time()
            png = board_png(v, routes=marked)
            out["board"].append((time.thread_time() - t0) * 1000)
            out["pixels"].append(hashlib.sha1(Image.open(io.BytesIO(png)).convert("RGB").tobytes()).hexdigest())
        print(json.dumps(out), flush=True)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", default=str(HERE))
    parser.add_argument("--games", type=int, default=2, help="games a map, their turns interleaved")
    parser.add_argument("--pictures", type=int, default=120, help="per map and version")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--maps", default="germany,nordic,alsace,europe,usa,ussr")
    parser.add_argument("--worker", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker, args.games)
    sides = {"before": args.before, "after": args.after}
    procs = {name: subprocess.Popen([sys.executable, __file__, "--before", "-", "--worker", root,
                                     "--games", str(args.games)],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root)
             for name, root in sides.items()}
    for proc in procs.values():
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    maps = args.maps.split(",")
    got = {(name, m): {"board": [], "pixels": []} for name in sides for m in maps}
    per_round = max(1, args.pictures // args.rounds)
    for r in range(args.rounds):
        order = list(sides) if r % 2 == 0 else list(reversed(sides))
        for map_id in maps:
            for name in order:
                proc = procs[name]
                assert proc.stdin is not None and proc.stdout is not None
                proc.stdin.write(f"{map_id} {per_round}\n")
                proc.stdin.flush()
                for key, values in json.loads(proc.stdout.readline()).items():
                    got[(name, map_id)][key].extend(values)
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()
    print(f"{per_round * args.rounds} boards per map and version, {args.games} games a map interleaved, "
          "ms of CPU (thread time): median / p95")
    print(f"{'map':8} {'board before':>14} {'board after':>14}  same pixels")
    for map_id in maps:
        b, a = got[("before", map_id)], got[("after", map_id)]
        cells = [f"{statistics.median(s['board']):6.2f} / {pct(s['board'], 0.95):5.2f}" for s in (b, a)]
        print(f"{map_id:8} " + " ".join(f"{c:>14}" for c in cells) + f"  {b['pixels'] == a['pixels']}")


if __name__ == "__main__":
    main()
