"""Benchmark: command → turn post with the board, through the real discord.py client and the
loopback fake Discord (tests/fake_discord), with the real renderer.

    .venv/bin/python bench/bench_bot.py [--moves 120] [--variant europe]

Two users play a game; for each move made with a slash command (/ttr draw) or the last click of
a button flow (Confirm), it measures the time from the interaction being sent to the turn post
for the new move (board PNG attached) arriving at the fake. Prints p50, p95 and max."""

from __future__ import annotations

import argparse
import asyncio
import re
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fake_discord import FakeDiscord  # noqa: E402
from tests.fake_discord.driver import Table  # noqa: E402
from tests.fake_discord.harness import start_bot  # noqa: E402


async def run(moves: int, variant: str) -> dict[str, float]:
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, Path(tempfile.mkdtemp()) / "bench.sqlite3")
    samples: list[float] = []
    answers: list[float] = []
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant=variant)
        table.desk = running.bot.desk
        while len(samples) < moves:
            summary = await table.summary()
            if summary.status == "over":
                table = await Table.open(fake, running.service, alice, [bob], variant=variant)
                table.desk = running.bot.desk
                continue
            its = await table.play_one([alice, bob])
            after = await table.summary()
            post = table.latest_post()
            last = its[-1]
            # when the post for the new move (with its board) was last written
            if post is None or not re.search(rf"· move {after.seq}\b", post["content"]):
                continue
            if not any(a["filename"] == "board.png" for a in post["attachments"]):
                continue
            samples.append(fake.written[int(post["id"])] - last.created)
            answers += [i.latency for i in its if i.latency is not None]
    finally:
        await running.stop()
        await fake.stop()
    samples.sort()
    return {
        "moves": len(samples),
        "p50_ms": 1000 * statistics.median(samples),
        "p95_ms": 1000 * samples[int(0.95 * (len(samples) - 1))],
        "max_ms": 1000 * samples[-1],
        "answer_p95_ms": 1000 * sorted(answers)[int(0.95 * (len(answers) - 1))],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--variant", default="europe")
    args = parser.parse_args()
    r = asyncio.run(run(args.moves, args.variant))
    print(f"command → turn post with board ({args.variant}, {r['moves']} moves): p50 {r['p50_ms']:.0f} ms, "
          f"p95 {r['p95_ms']:.0f} ms, max {r['max_ms']:.0f} ms; first answer p95 {r['answer_p95_ms']:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
