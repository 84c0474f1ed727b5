"""Where a board's and a hand's CPU goes, map by map (cProfile with the thread's CPU clock).

    python bench/bench_render_profile.py [--maps germany,nordic,...] [--rounds 3]

Ten sample views a map (4 players, seeds 0-9, the first claim marked on the board, seat 1's
hand), each drawn once first (bases, sprites, labels cached as in a worker), then drawn
`--rounds` times under the profiler. Prints per picture, in ms of profiled CPU (the
profiler adds ~60 % to Python-heavy code, little to the C calls): the total, Pillow's core
pastes and their count, the base copy, ISA-L's deflate, the nearest-colour lookup of the
tiles drawn on, the cars, the legend and the rule parts' overlays of a board; Pillow's octree,
the pastes, deflate, the small map and the ticket paths of a hand. Figures, not a test.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.maps import available_maps, load_map  # noqa: E402
from render.board import render_board  # noqa: E402
from render.hand import render_hand  # noqa: E402
from tools.samples import sample_view  # noqa: E402

CORE = {
    "paste": "<method 'paste' of 'ImagingCore' objects>",
    "copy": "<method 'copy' of 'ImagingCore' objects>",
    "convert": "<method 'convert' of 'ImagingCore' objects>",
    "octree": "<method 'quantize' of 'ImagingCore' objects>",
    "isal": "<built-in method isal.isal_zlib.compress>",
}


def cost(stats: pstats.Stats, name: str, pictures: int, cumulative: bool = False) -> tuple[float, float]:
    """(ms per picture, calls per picture) of a function: a key of CORE, or "file.py:function"
    (summed over every function of that name)."""
    ms = calls = 0.0
    for (path, _, fn), (_, ncalls, tottime, cumtime, _) in stats.stats.items():  # type: ignore[attr-defined]
        if fn == CORE.get(name) or f"{Path(path).name}:{fn}" == name or (name.startswith("*:") and fn == name[2:]):
            ms += (cumtime if cumulative else tottime) * 1000
            calls += ncalls
    return ms / pictures, calls / pictures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--maps", default=",".join(available_maps()))
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    for map_id in args.maps.split(","):
        profile_map(map_id, args.rounds)


def profile_map(map_id: str, rounds: int) -> None:
    """Print the two lines of one map."""
    game_map = load_map(map_id)
    boards = [sample_view(game_map, players=4, seed=s) for s in range(10)]
    hands = [sample_view(game_map, players=4, seed=s, seat=1) for s in range(10)]

    def board(i: int) -> None:
        render_board(boards[i], game_map, highlight_routes=[sorted(boards[i].route_owner)[0]])

    def hand(i: int) -> None:
        render_hand(hands[i], game_map)

    for i in range(10):
        board(i)
        hand(i)
    for what, draw in (("board", board), ("hand", hand)):
        prof = cProfile.Profile(time.thread_time)
        prof.enable()
        for _ in range(rounds):
            for i in range(10):
                draw(i)
        prof.disable()
        st = pstats.Stats(prof)
        n = 10 * rounds
        total = st.total_tt / n * 1000  # type: ignore[attr-defined]
        pastes, count = cost(st, "paste", n)
        if what == "board":
            print(f"{map_id:8} board {total:5.1f}: core pastes {pastes:.1f} ({count:.0f}), base copy "
                  f"{cost(st, 'copy', n)[0]:.1f}, isal {cost(st, 'isal', n)[0]:.1f}, tile lookup "
                  f"{cost(st, 'convert', n)[0]:.1f}, cars {cost(st, 'board.py:paste_route', n, True)[0]:.1f}, "
                  f"legend {cost(st, 'legend.py:draw_legend', n, True)[0]:.1f}, "
                  f"parts' overlays {cost(st, '*:overlay', n, True)[0]:.1f}", flush=True)
        else:
            print(f"{map_id:8} hand  {total:5.1f}: octree {cost(st, 'octree', n)[0]:.1f}, core pastes "
                  f"{pastes:.1f} ({count:.0f}), isal {cost(st, 'isal', n)[0]:.1f}, small map "
                  f"{cost(st, 'hand.py:_draw_mini', n, True)[0]:.1f}, ticket paths "
                  f"{cost(st, 'paths.py:shortest_open_path', n, True)[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
