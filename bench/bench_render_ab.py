"""Board and hand pictures of two versions of the renderer, side by side in one run.

    python bench/bench_render_ab.py --before DIR [--after DIR] [--pictures 40] [--rounds 4] [--maps ...]

DIR is a checkout of the project (e.g. `git worktree add /tmp/before <commit>`); --after
defaults to this checkout. Each version runs in a process of its own (its own imports, its
own caches), the bases prepared first and not counted; then, round after round, each
process draws its share of every map's pictures in turn (the order alternating between
rounds, so that the machine's other work falls on both alike). A picture is `render_board`
(4 players, ~40 % of routes claimed, the last claim marked) or `render_hand` (seat 1) of a
sample view, ten seeds in turn (each drawn once before); its cost is the thread's CPU time (`time.thread_time`). Prints,
per map and picture, the median and p95 of each version in ms of CPU, and whether the two
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
SEEDS = 10


def worker(root: str) -> None:
    """Serve requests on stdin: `MAP COUNT` -> one JSON line of CPU times and PNG digests."""
    sys.path.insert(0, root)
    import hashlib

    from PIL import Image

    from engine.maps import available_maps, load_map
    from render.board import render_board
    from render.hand import render_hand
    from tools.samples import sample_view

    cases = {}
    for map_id in available_maps():
        game_map = load_map(map_id)
        boards = [sample_view(game_map, players=4, seed=s) for s in range(SEEDS)]
        hands = [sample_view(game_map, players=4, seed=s, seat=1) for s in range(SEEDS)]
        cases[map_id] = (game_map, boards, hands)
        for board, hand in zip(boards, hands, strict=True):  # the bases, each view's sprites and labels
            render_board(board, game_map, highlight_routes=[sorted(board.route_owner)[0]])
            render_hand(hand, game_map)
    print("ready", flush=True)
    done = {m: 0 for m in cases}
    for line in sys.stdin:
        map_id, count = line.split()
        game_map, boards, hands = cases[map_id]
        out: dict[str, list] = {"board": [], "hand": [], "pixels": []}
        for _ in range(int(count)):
            i = done[map_id] % SEEDS
            done[map_id] += 1
            view = boards[i]
            t0 = time.thread_time()
            board = render_board(view, game_map, highlight_routes=[sorted(view.route_owner)[0]]).png
            t1 = time.thread_time()
            hand = render_hand(hands[i], game_map).png
            t2 = time.thread_time()
            out["board"].append((t1 - t0) * 1000)
            out["hand"].append((t2 - t1) * 1000)
            if done[map_id] <= SEEDS:  # the pixels of each picture, once
                out["pixels"].append([hashlib.sha1(Image.open(io.BytesIO(png)).convert("RGB").tobytes()).hexdigest()
                                      for png in (board, hand)])
        print(json.dumps(out), flush=True)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", default=str(HERE))
    parser.add_argument("--pictures", type=int, default=40, help="per map and version")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--maps", default="")
    parser.add_argument("--worker", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker)
    sides = {"before": args.before, "after": args.after}
    procs = {name: subprocess.Popen([sys.executable, __file__, "--before", "-", "--worker", root],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root)
             for name, root in sides.items()}
    for proc in procs.values():
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    sys.path.insert(0, str(HERE))
    from engine.maps import available_maps

    maps = args.maps.split(",") if args.maps else list(available_maps())
    got = {(name, m): {"board": [], "hand": [], "pixels": []} for name in sides for m in maps}
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
    print(f"{per_round * args.rounds} pictures per map and version, ms of CPU (thread time): median / p95")
    print(f"{'map':8} {'board before':>14} {'board after':>14} {'hand before':>14} {'hand after':>14}  same pixels")
    for map_id in maps:
        b, a = got[("before", map_id)], got[("after", map_id)]
        cells = [f"{statistics.median(s[k]):6.2f} / {pct(s[k], 0.95):5.2f}" for k in ("board", "hand") for s in (b, a)]
        print(f"{map_id:8} " + " ".join(f"{c:>14}" for c in cells) + f"  {b['pixels'] == a['pixels']}")


if __name__ == "__main__":
    main()
