"""Benchmark: command → turn post with the board, for many games at once, through the real
discord.py client and the loopback fake Discord (tests/fake_discord), with the real renderer
(or the stub one).

    .venv/bin/python bench/bench_bot.py [--games 1] [--moves 120] [--think 0] [--seed 1]
                                        [--variant europe] [--warmup 2] [--stub-renderer] [--json]

`--games N` tables of two people each play at the same time, once the render workers have
prepared their bases. Each game makes `--moves M` measured moves (after `--warmup` unmeasured
ones); before each move its player thinks for a random pause averaging `--think`
seconds (exponential, from `--seed`: the same pauses at every run). A player acts as a person
would: on the turn post the thread shows (its buttons, or a slash command), once that post shows
the previous move. A game that ends is replaced by a new one (not timed).

For every move it measures the time from the interaction that makes it (a `/ttr draw`, or the
last click of a button flow) being sent to the turn post showing that move — board PNG attached
— arriving at the fake. It prints p50, p95 and max of those, the turn posts per second over the
measured window, and where the CPU went: the bench's own process (bot, fake Discord and players
together; and split into the bot's share and the fake's and players' share, `LoopMeter`) and its
child processes (render workers), per turn post. It also counts what each turn post cost in
Discord's budget: the REST requests that count against the bot's rate limit (50/s for one bot;
answers to interactions — callbacks and their follow-ups — are exempt), per turn post and by
route (`Requests`), and the store's transactions (each a commit of its own; group commit may
share one fsync between several) per move. `--json` prints one JSON
object instead: {"games": N, "posts_per_s": …, "p50_ms": …, "p95_ms": …, …}.

On a machine shared with other work the wall clock shows the other work too; the CPU figures do
not: "cpu_posts_per_s" is the posts per second the measured CPU time would allow on `--cores`
idle cores (the busiest process, and all processes spread over the cores, whichever is slower).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fake_discord import FakeDiscord, User  # noqa: E402
from tests.fake_discord.driver import Table  # noqa: E402
from tests.fake_discord.harness import start_bot  # noqa: E402

MOVE = re.compile(r"· move (\d+)\b")
TICKS = os.sysconf("SC_CLK_TCK")


class BenchFake(FakeDiscord):
    """The fake Discord, lighter for long runs: it keeps no picture bytes (a hundred games make
    thousands of boards) and tells a waiting game the moment its thread shows a move."""

    def __init__(self) -> None:
        super().__init__()
        self.latest: dict[int, int] = {}  # thread id → its newest turn post (message id)
        self.shown: dict[int, dict[int, float]] = {}  # thread id → {move: when a post first showed it}
        self.wakers: dict[int, asyncio.Event] = {}
        self.pictures: dict[str, int] = {}  # attachments received, by file name

    def _record(self, msg: dict[str, Any], files: list[tuple[str, bytes]]) -> None:
        for name, _ in files:
            self.pictures[name] = self.pictures.get(name, 0) + 1
        thread = int(msg["channel_id"])
        found = MOVE.search(msg.get("content") or "")
        if found is None:
            return
        mid = int(msg["id"])
        if mid >= self.latest.get(thread, 0):  # every thread, watched or not yet (Table.open reads it)
            self.latest[thread] = mid
        if thread in self.wakers and any(a["filename"] == "board.png" for a in msg.get("attachments") or ()):
            self.shown[thread].setdefault(int(found.group(1)), time.monotonic())
            self.wakers[thread].set()

    def _attachments(self, mid: int, body: dict[str, Any], files: list[tuple[str, bytes]],
                     keep: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
        out = super()._attachments(mid, body, files, keep)
        self.files[mid] = [(name, b"") for name, _ in self.files.get(mid, [])]
        return out

    def watch(self, thread: int) -> None:
        self.shown.setdefault(thread, {})
        self.wakers.setdefault(thread, asyncio.Event())

    def forget(self, thread: int) -> None:
        """Drop a finished game's thread and its messages (memory: long runs)."""
        self.shown.pop(thread, None)
        self.wakers.pop(thread, None)
        self.latest.pop(thread, None)
        for mid in [m for m, msg in self.messages.items() if int(msg["channel_id"]) == thread]:
            self.messages.pop(mid, None)
            self.files.pop(mid, None)
            self.written.pop(mid, None)

    async def shown_at(self, thread: int, move: int, timeout: float = 600.0) -> float:
        """When the thread first showed `move` or a later one (monotonic)."""
        deadline = time.monotonic() + timeout
        while True:
            seen = [t for m, t in self.shown[thread].items() if m >= move]
            if seen:
                return min(seen)
            event = self.wakers[thread]
            event.clear()
            await asyncio.wait_for(event.wait(), max(0.01, deadline - time.monotonic()))


class Requests:
    """The REST requests the fake Discord was sent in a window, by kind: those that count
    against the bot's rate limit (all but the answers to interactions) split into new messages
    in a thread or a channel, DMs, edits, DM channels opened, and the rest."""

    EXEMPT = re.compile(r"/(interactions|webhooks)/.*")
    KINDS = (("dm_channel_opens", "POST", re.compile(r"/users/@me/channels")),
             ("messages", "POST", re.compile(r"/channels/\d+/messages")),
             ("edits", "PATCH", re.compile(r"/channels/\d+/messages/\d+")))

    def __init__(self, fake: FakeDiscord, first: int, last: int) -> None:
        self.by_kind: dict[str, int] = {"dm_channel_opens": 0, "messages": 0, "dms": 0, "edits": 0, "other": 0}
        self.exempt = 0
        for r in fake.log[first:last]:
            if self.EXEMPT.fullmatch(r.path):
                self.exempt += 1
                continue
            kind = next((k for k, method, path in self.KINDS if r.method == method and path.fullmatch(r.path)), "other")
            if kind == "messages" and fake.channels.get(int(r.path.split("/")[2]), {}).get("type") == 1:
                kind = "dms"
            self.by_kind[kind] += 1

    @property
    def limited(self) -> int:
        return sum(self.by_kind.values())


class BenchTable(Table):
    """A table whose newest turn post comes from the fake's index (not a scan of every message)."""

    def latest_post(self) -> dict[str, Any] | None:
        mid = self.fake.latest.get(self.thread_id)
        return None if mid is None else self.fake.messages.get(mid)


class LoopMeter:
    """The main thread's CPU time per event-loop callback, split into the fake's side (the fake
    Discord's HTTP and gateway server, the simulated players and what they ask the service)
    and the rest (the bot). Each callback of the loop is timed with the thread's CPU clock and
    put on the side its owner is on: a task by the code of its outermost coroutine, a socket's
    callback by the protocol reading it (aiohttp's server protocol: the fake; its client: the
    bot). The bot's other threads (SQLite, the render pool's feeder) count as the bot."""

    FAKE = ("/tests/fake_discord/", "/bench/bench_bot.py", "/aiohttp/web_")

    def __init__(self) -> None:
        self.fake = 0.0
        self.bot = 0.0
        self._run = asyncio.events.Handle._run

    def side(self, handle: asyncio.Handle) -> str:
        owner = getattr(handle._callback, "__self__", None)  # type: ignore[attr-defined]
        where = ""
        if isinstance(owner, asyncio.Task):
            code = getattr(owner.get_coro(), "cr_code", None)
            where = code.co_filename if code is not None else ""
        elif owner is not None and hasattr(owner, "_protocol"):
            where = type(owner._protocol).__module__.replace(".", "/")
        return "fake" if any(part in "/" + where for part in self.FAKE) else "bot"

    def __enter__(self) -> LoopMeter:
        meter, run, clock = self, self._run, time.thread_time

        def timed(handle: asyncio.Handle) -> None:
            started = clock()
            try:
                run(handle)
            finally:
                spent = clock() - started
                if meter.side(handle) == "fake":
                    meter.fake += spent
                else:
                    meter.bot += spent

        asyncio.events.Handle._run = timed  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.events.Handle._run = self._run  # type: ignore[method-assign]


def cpu_seconds() -> tuple[float, float, dict[int, float]]:
    """CPU time so far: this process, its children together, and each child (Linux /proc)."""
    me = time.process_time()
    kids: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():  # ppid
            kids[int(entry)] = (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime
    return me, sum(kids.values()), kids


async def open_table(fake: BenchFake, service: Any, players: list[User], variant: str) -> BenchTable:
    table = await BenchTable.open(fake, service, players[0], players[1:], variant=variant)
    fake.watch(table.thread_id)
    return table


async def run(games: int, moves: int, think: float, seed: int, variant: str, warmup: int, stub: bool,
              cores: int) -> dict[str, Any]:
    # Every map prepared before the clock starts (a running bot has them after its first posts).
    os.environ.setdefault("TTR_RENDER_PREPARE", "all")
    fake = BenchFake()
    await fake.start()
    renderer = None
    if stub:
        from tests.fake_discord.renderer import StubRenderer

        renderer = StubRenderer()
    running = await start_bot(fake, Path(tempfile.mkdtemp()) / "bench.sqlite3", renderer=renderer)
    service = running.service
    if not stub:  # the render workers prepare every map's bases when the bot starts: not timed
        from render.pool import default_pool

        await default_pool().prepared()
    samples: list[float] = []
    answers: list[float] = []
    started = asyncio.Event()
    ready = 0
    try:
        people = [[fake.add_user(f"A{g}"), fake.add_user(f"B{g}")] for g in range(games)]
        tables: list[BenchTable] = []
        for first in range(0, games, 10):  # opening is not timed; ten at a time
            tables += await asyncio.gather(*(open_table(fake, service, people[g], variant)
                                             for g in range(first, min(games, first + 10))))

        async def play(g: int) -> None:
            nonlocal ready
            rng = random.Random(seed * 100_003 + g)
            table = tables[g]
            done = 0
            while done < warmup + moves:
                if done == warmup:
                    ready += 1
                    if ready == games:
                        started.set()
                    await started.wait()
                summary = await table.summary()
                if summary.status == "over":
                    fake.forget(table.thread_id)
                    table = await open_table(fake, service, people[g], variant)
                    continue
                if think > 0 and done >= warmup:
                    await asyncio.sleep(rng.expovariate(1 / think))
                seat = summary.waiting_for[0]
                user = table.user_of(people[g], seat, summary)
                view = await service.reads.view(table.game_id, user.id)
                legal = await service.reads.legal_actions(table.game_id, user.id)
                its = await table.perform(user, table.ai.choose(view, legal), legal, summary.seq)
                after = (await table.summary()).seq
                shown = await fake.shown_at(table.thread_id, after)
                if done >= warmup:
                    samples.append(shown - its[-1].created)
                    answers.extend(i.latency for i in its if i.latency is not None)
                done += 1

        tasks = [asyncio.create_task(play(g)) for g in range(games)]
        await started.wait()
        with LoopMeter() as meter:
            t0, (c0, k0, kids0) = time.monotonic(), cpu_seconds()
            load0 = os.getloadavg()[0]
            log0, (tx0, commits0) = len(fake.log), service.store.writer_stats
            await asyncio.gather(*tasks)
            wall = time.monotonic() - t0
            c1, k1, kids = cpu_seconds()
            load1 = os.getloadavg()[0]
            log1, (tx1, commits1) = len(fake.log), service.store.writer_stats
    finally:
        await running.stop()
        await fake.stop()
    samples.sort()
    n = len(samples)
    main_cpu, child_cpu = c1 - c0, k1 - k0
    busiest = max([main_cpu, *(t - kids0.get(pid, 0.0) for pid, t in kids.items())])
    cpu_bound = max(busiest, (main_cpu + child_cpu) / cores)
    requests = Requests(fake, log0, log1)
    return {
        "games": games,
        "moves": n,
        "think_s": think,
        "renderer": "stub" if stub else "real",
        "posts_per_s": round(n / wall, 2),
        "p50_ms": round(1000 * statistics.median(samples), 1),
        "p95_ms": round(1000 * samples[int(0.95 * (n - 1))], 1),
        "max_ms": round(1000 * samples[-1], 1),
        "answer_p95_ms": round(1000 * sorted(answers)[int(0.95 * (len(answers) - 1))], 1) if answers else None,
        "wall_s": round(wall, 2),
        "cpu_main_ms_per_post": round(1000 * main_cpu / n, 2),
        # the bench process without the fake Discord's and the players' share (LoopMeter)
        "cpu_fake_ms_per_post": round(1000 * meter.fake / n, 2),
        "cpu_bot_ms_per_post": round(1000 * (main_cpu - meter.fake) / n, 2),
        "cpu_children_ms_per_post": round(1000 * child_cpu / n, 2),
        "children": len(kids),
        "cpu_posts_per_s": round(n / cpu_bound, 1) if cpu_bound else None,
        "cores": cores,
        "load_avg": [round(load0, 2), round(load1, 2)],
        "pictures": dict(fake.pictures),
        # Discord's budget: rate-limited REST requests per turn post, by kind (and the exempt ones)
        "requests_per_post": round(requests.limited / n, 3),
        "requests_by_kind_per_post": {k: round(v / n, 3) for k, v in requests.by_kind.items()},
        "exempt_requests_per_post": round(requests.exempt / n, 3),
        # the store: transactions (each its own commit) and fsynced group commits per move
        "transactions_per_move": round((tx1 - tx0) / n, 2),
        "group_commits_per_move": round((commits1 - commits0) / n, 2),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--moves", type=int, default=120, help="measured moves per game")
    parser.add_argument("--think", type=float, default=0.0, help="average pause before each move, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--warmup", type=int, default=2, help="unmeasured moves per game first")
    parser.add_argument("--variant", default="europe")
    parser.add_argument("--stub-renderer", action="store_true", help="tiny PNGs, no drawing")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1, help="for the CPU-bound posts/s")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    r = asyncio.run(run(args.games, args.moves, args.think, args.seed, args.variant, args.warmup,
                        args.stub_renderer, args.cores))
    if args.json:
        print(json.dumps(r))
        return 0
    print(f"{r['games']} games × {args.moves} moves ({args.variant}, think {args.think:g} s, {r['renderer']} "
          f"renderer): {r['posts_per_s']:.1f} turn posts/s over {r['wall_s']:.1f} s; command → turn post with "
          f"board p50 {r['p50_ms']:.0f} ms, p95 {r['p95_ms']:.0f} ms, max {r['max_ms']:.0f} ms; first answer "
          f"p95 {r['answer_p95_ms']} ms")
    print(f"CPU per turn post: {r['cpu_main_ms_per_post']:.1f} ms in the bot's process (with the fake and the "
          f"players; without them {r['cpu_bot_ms_per_post']:.1f}, theirs {r['cpu_fake_ms_per_post']:.1f}), "
          f"{r['cpu_children_ms_per_post']:.1f} ms in {r['children']} child processes → "
          f"{r['cpu_posts_per_s']} posts/s on {r['cores']} idle cores; load average {r['load_avg']}")
    kinds = ", ".join(f"{k.replace('_', ' ')} {v:.2f}" for k, v in r["requests_by_kind_per_post"].items())
    print(f"Discord requests per turn post, rate-limited: {r['requests_per_post']:.2f} ({kinds}); exempt "
          f"(interaction answers) {r['exempt_requests_per_post']:.2f}")
    print(f"Store per move: {r['transactions_per_move']:.2f} transactions, {r['group_commits_per_move']:.2f} "
          "group commits")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
