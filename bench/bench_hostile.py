"""Benchmark: the longest the event loop is held while users type hostile text.

    .venv/bin/python bench/bench_hostile.py [--n 10000] [--seed 6000] [--freeze]

Sends N hostile values (tests/fake_discord/hostile.py: up to 6,000 characters, the name
matcher's worst cases and noise) to every text option of /ttr, as commands and autocomplete,
through the real discord.py client and the loopback fake, against a running game. Prints the
longest loop step (CPU time of one callback, the collector's pauses taken out), the longest
pause of Python's cycle collector (the process holds the fake's whole message history too, so
this is an upper bound for the bot alone), and the mean time per interaction. With --freeze,
gc.freeze() is called after the warm-up, as the bot does after start-up. Figures, not a test;
the test (tests/bot_app/test_bot_hostile_input.py) asserts the 50 ms bound."""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fake_discord import FakeDiscord  # noqa: E402
from tests.fake_discord.driver import Table  # noqa: E402
from tests.fake_discord.harness import start_bot  # noqa: E402
from tests.fake_discord.hostile import flood, warm_up  # noqa: E402
from tests.fake_discord.renderer import StubRenderer  # noqa: E402
from tests.fake_discord.steps import LoopSteps  # noqa: E402


async def run(n: int, seed: int, freeze: bool) -> dict[str, float]:
    fake = FakeDiscord()
    await fake.start()
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob"), fake.add_user("Carol")
    running = await start_bot(fake, Path(tempfile.mkdtemp()) / "hostile.sqlite3", renderer=StubRenderer())
    desk = running.bot.desk
    try:
        table = await Table.open(fake, running.service, alice, [bob])
        table.desk = desk
        for _ in range(6):
            await table.play_one([alice, bob])
        await warm_up(fake, desk, alice, table.thread_id)
        if freeze:
            gc.freeze()
        t0 = time.perf_counter()
        with LoopSteps() as steps:
            await flood(fake, desk, [alice, bob, carol], [table.thread_id, fake.channel_id], n,
                        random.Random(seed), steps)
        elapsed = time.perf_counter() - t0
    finally:
        await running.stop()
        await fake.stop()
    return {"interactions": n, "worst_step_ms": steps.worst, "worst_gc_pause_ms": steps.worst_gc,
            "loop_steps": steps.steps, "ms_per_interaction": 1000 * elapsed / n, "where": steps.where}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=6000)
    parser.add_argument("--freeze", action="store_true")
    args = parser.parse_args()
    r = asyncio.run(run(args.n, args.seed, args.freeze))
    print(f"{r['interactions']} hostile interactions, {r['loop_steps']} loop steps, "
          f"{r['ms_per_interaction']:.2f} ms per interaction")
    print(f"longest loop step (handler work): {r['worst_step_ms']:.2f} ms  ({r['where']})")
    print(f"longest cycle-collector pause:    {r['worst_gc_pause_ms']:.2f} ms")


if __name__ == "__main__":
    main()
