"""Benchmark: the memory of a render worker with every map prepared.

    .venv/bin/python bench/bench_worker_memory.py [--pictures 2] [--json]

Starts one render worker process (render/pool.py) that prepares every variant's bases, as the
bot's workers do with TTR_RENDER_PREPARE=all, and prints its resident memory (RSS, Linux
/proc) once prepared, its peak while preparing, and its RSS after drawing `--pictures` boards
and hands of every map (the car masks and painted cars a running bot builds as games go on).
Target (issue 31): RSS with all six maps prepared <= 200 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.maps import available_maps  # noqa: E402
from render import jobs  # noqa: E402
from render.pool import RenderPool  # noqa: E402
from tools.samples import sample_view  # noqa: E402


def memory_mb(pid: int) -> dict[str, float]:
    """VmRSS and VmHWM (peak RSS) of a process, in MB."""
    out = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith(("VmRSS:", "VmHWM:")):
                out[line.split(":")[0]] = int(line.split()[1]) / 1024
    return out


async def run(pictures: int) -> dict[str, float]:
    pool = RenderPool(1)
    try:
        started = time.monotonic()
        pool.start()
        await pool.prepared()
        pid = pool.worker_pids()[0]
        prepared = memory_mb(pid)
        prepare_s = time.monotonic() - started
        for seed in range(pictures):
            for map_id in available_maps():
                view = sample_view(map_id, players=4, seed=3 + seed)
                await pool.run(jobs.board_png, view, [sorted(view.route_owner)[0]])
                await pool.run(jobs.hand_png, sample_view(map_id, players=4, seed=3 + seed, seat=1))
        drawn = memory_mb(pid)
    finally:
        pool.close()
    return {"prepare_s": round(prepare_s, 1), "rss_prepared_mb": round(prepared["VmRSS"], 1),
            "peak_preparing_mb": round(prepared["VmHWM"], 1), "rss_after_pictures_mb": round(drawn["VmRSS"], 1),
            "pictures": 2 * pictures * len(available_maps())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pictures", type=int, default=2, help="boards and hands of every map drawn after")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    r = asyncio.run(run(args.pictures))
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"render worker, every map prepared in {r['prepare_s']} s: RSS {r['rss_prepared_mb']:.0f} MB "
          f"(peak while preparing {r['peak_preparing_mb']:.0f} MB); after {r['pictures']} pictures "
          f"{r['rss_after_pictures_mb']:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
