"""Discord's global rate limit shared by two bot processes (store/rate_limit.py).

    python bench/bench_rate_limit.py [--seconds 4] [--per-process 100]

Starts a throwaway PostgreSQL server (tests/pg_cluster.py) and the loopback fake Discord, then
twice runs two child processes (this script with --child), each a discord.py HTTPClient that
tries to post `--per-process` messages a second (200/s together) for `--seconds`:

1. without the shared budget (each process's discord.py alone, as before),
2. with it (bot_app/adapter/rate_share.py over store/rate_limit.py, as the bot runs on PostgreSQL).

Prints, as the fake saw them: the requests, their rate over the busy window, the most in any
one second (Discord's global limit: 50), the responses 429, and each run's CPU seconds (the
children's, and the fake's process). The fake itself never answers 429 on its own: "most in
any second" above 50 is what Discord would have refused.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from store.opening import open_store

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class TimedList(list[Any]):
    """The fake's request log, with when each request arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def append(self, item: Any) -> None:
        self.times.append(time.monotonic())
        super().append(item)


async def child(url: str, base: str, channel: int, rate: float, seconds: float, shared: bool) -> None:
    import discord.http

    from bot_app.adapter.rate_share import share_global_limit
    from tests.fake_discord.server import install_urls

    install_urls(base, base.replace("http", "ws") + "/gateway")
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    await http.static_login("bench-token")
    store = await open_store(url)
    if shared:
        share_global_limit(SimpleNamespace(http=http), store.rate_slot)  # type: ignore[arg-type]
    route = discord.http.Route("POST", "/channels/{channel_id}/messages", channel_id=channel)
    tasks = []
    start = time.monotonic()
    n = 0
    while (now := time.monotonic()) - start < seconds:
        due = start + n / rate
        if due > now:
            await asyncio.sleep(due - now)
        tasks.append(asyncio.create_task(http.request(route, json={"content": f"m{n}"})))
        n += 1
    await asyncio.gather(*tasks, return_exceptions=True)
    await http.close()
    await store.close()


def most_in_a_second(times: list[float]) -> int:
    best, j = 0, 0
    for i, t in enumerate(times):
        while times[j] <= t - 1.0:
            j += 1
        best = max(best, i - j + 1)
    return best


async def run(url: str, per_process: float, seconds: float, shared: bool) -> dict[str, Any]:
    from tests.fake_discord import FakeDiscord

    fake = FakeDiscord()
    fake.requests = TimedList()
    await fake.start()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = time.process_time()
    try:
        procs = [await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--child", url, fake.base, str(fake.channel_id), str(per_process),
            str(seconds), "1" if shared else "0", cwd=ROOT, stdout=subprocess.DEVNULL) for _ in range(2)]
        for p in procs:
            await p.wait()
    finally:
        await fake.stop()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    times = [t for t, (m, p) in zip(fake.requests.times, fake.requests, strict=True)
             if m == "POST" and p.endswith("/messages")]
    span = (times[-1] - times[0]) if len(times) > 1 else 0.0
    return {"requests": len(times), "per_second": len(times) / span if span else 0.0,
            "most_in_a_second": most_in_a_second(times),
            "responses_429": fake.count("POST", ".*/messages", status=429),
            "answered_200": fake.count("POST", ".*/messages", status=200),
            "children_cpu": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
            "fake_cpu": time.process_time() - own}


async def main(args: argparse.Namespace) -> None:
    from tests.databases import pg_admin
    from tests.pg_cluster import Cluster

    cluster = Cluster.start()
    try:
        pg_admin(cluster, "CREATE DATABASE bench")
        url = cluster.url("bench")
        store = await open_store(url)  # migrated once, before the children
        await store.close()
        for shared in (False, True):
            r = await run(url, args.per_process, args.seconds, shared)
            print(f"{'shared budget' if shared else 'each process alone'}: {r['requests']} requests, "
                  f"{r['per_second']:.1f}/s, most in any second {r['most_in_a_second']}, "
                  f"429s {r['responses_429']}, 200s {r['answered_200']}; "
                  f"CPU children {r['children_cpu']:.2f} s, fake {r['fake_cpu']:.2f} s")
    finally:
        cluster.stop()


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        _, _, url, base, channel, rate, seconds, shared = sys.argv
        os.environ.setdefault("LOG_LEVEL", "WARNING")
        asyncio.run(child(url, base, int(channel), float(rate), float(seconds), shared == "1"))
    else:
        parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
        parser.add_argument("--seconds", type=float, default=4.0)
        parser.add_argument("--per-process", type=float, default=100.0)
        asyncio.run(main(parser.parse_args()))
