"""Benchmark: `bot.py` from its start to ready, against the loopback fake Discord.

    .venv/bin/python bench/bench_startup.py [--runs 5] [--guilds 1] [--json]

Each run starts `python bot.py` as a new process — the real start-up: imports, the database
opened (a new SQLite file each run), render workers started, the cogs loaded, the commands
synced, the gateway's READY and GUILD_CREATEs — pointed at the fake Discord this bench runs
(tests/fake_discord; the bot's URLs are the one thing changed, before bot.py's own code runs).
It measures the wall time from the process's start to the bot's "logged in as" log line
(`on_ready`), and the CPU time the bot's process had used by then (its render workers' own
start-up runs beside it and is not counted). The bot is then stopped with SIGTERM. Modules'
bytecode is kept between starts, as on an installed bot (one unmeasured start first, the cache
outside the tree); `--no-bytecode-cache` compiles them at every start instead. Target
(issue 31): start → ready <= 1.5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fake_discord import FakeDiscord  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
# The child: discord.py pointed at the fake (what tests.fake_discord.server.install_urls does,
# without importing the fake itself), then bot.py run as the main program.
CHILD = ("import runpy, sys, yarl, discord.gateway, discord.http; discord.http.Route.BASE = sys.argv[1]; "
         "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2]); sys.argv = ['bot.py']; "
         "runpy.run_path('bot.py', run_name='__main__')")


def cpu_s(pid: int) -> float:
    with open(f"/proc/{pid}/stat", encoding="ascii") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


async def one_start(fake: FakeDiscord, folder: Path, n: int, bytecode: bool) -> dict[str, float]:
    env = dict(os.environ, DISCORD_TOKEN="fake-token", TTR_DATABASE=str(folder / f"start-{n}.sqlite3"),
               LOG_LEVEL="INFO", PYTHONPATH=str(ROOT))
    env.pop("TTR_RENDER_PREPARE", None)
    if bytecode:  # compiled modules kept between starts, as on an installed bot (outside the tree)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(sys.executable, "-c", CHILD, fake.base, fake.gateway_url, cwd=ROOT,
                                                env=env, stdout=asyncio.subprocess.DEVNULL,
                                                stderr=asyncio.subprocess.PIPE)
    assert proc.stderr is not None
    try:
        while True:
            line = await asyncio.wait_for(proc.stderr.readline(), 60)
            if not line:
                raise RuntimeError(f"bot.py exited (status {await proc.wait()}) before it was ready")
            if b"logged in as" in line:
                ready = time.monotonic() - started
                cpu = cpu_s(proc.pid)
                break
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        await proc.stderr.read()
        await asyncio.wait_for(proc.wait(), 30)
    return {"ready_s": ready, "cpu_s": cpu}


async def run(runs: int, guilds: int, bytecode: bool) -> dict[str, object]:
    fake = FakeDiscord()
    await fake.start()
    try:
        for g in range(1, guilds):
            await fake.add_guild(f"Guild {g}")
        with tempfile.TemporaryDirectory() as folder:
            if bytecode:
                await one_start(fake, Path(folder), -1, bytecode)  # not timed: compiles every module once
            results = [await one_start(fake, Path(folder), n, bytecode) for n in range(runs)]
    finally:
        await fake.stop()
    ready = [r["ready_s"] for r in results]
    cpu = [r["cpu_s"] for r in results]
    return {"runs": runs, "guilds": guilds, "bytecode_cache": bytecode,
            "ready_p50_s": round(statistics.median(ready), 3), "ready_max_s": round(max(ready), 3),
            "cpu_p50_s": round(statistics.median(cpu), 3),
            "ready_s": [round(x, 3) for x in ready], "load_avg": round(os.getloadavg()[0], 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--guilds", type=int, default=1, help="servers the bot is in")
    parser.add_argument("--no-bytecode-cache", action="store_true",
                        help="compile every module at every start (a first start after installing)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    r = asyncio.run(run(args.runs, args.guilds, not args.no_bytecode_cache))
    if args.json:
        print(json.dumps(r))
        return 0
    cache = "modules compiled before" if r["bytecode_cache"] else "no bytecode cache"
    print(f"bot.py start → ready ({r['guilds']} servers, {r['runs']} runs, {cache}): p50 {r['ready_p50_s']:.2f} s, max "
          f"{r['ready_max_s']:.2f} s (each: {r['ready_s']}); the bot's CPU by then p50 {r['cpu_p50_s']:.2f} s; "
          f"load average {r['load_avg']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
