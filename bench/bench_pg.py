"""Several bot processes on one PostgreSQL database, against one process on SQLite.

    python bench/bench_pg.py [--games 5000] [--seconds 20] [--after-kill 10] [--timers 1000]

Starts a throwaway PostgreSQL server (tests/pg_cluster.py) with fsync and synchronous commits
ON, like a real one, in a temporary folder on the same disk as the SQLite file. Then:

1. one submit at a time (no contention): `GameService.submit` p50/p95 on SQLite and on
   PostgreSQL, and on PostgreSQL without the per-use check of a cached game (what that check
   costs);
2. sustained: every game's player submitting at once, moves replayed from pre-played
   self-play games, the same work for each set-up — SQLite: ONE process with 2 × GAMES games
   (SQLite serves one process); PostgreSQL: ONE process with 2 × GAMES games, and TWO
   processes with GAMES games each, as shipped (every waiting transaction of a process in one
   call of `ttr_batch`, up to 128, its statements prepared once per connection:
   store/postgres_writer.py; the reads every move makes grouped likewise, store/pg_reads.py);
   with --before, also one and two processes as before: every statement whole, in JSON, a
   subtransaction per transaction (`ttr_write`), and a commit leaving the cached game's row
   as it was read (so the check of the next use reloads a game whose status changed); with
   --baseline DIR, also one and two processes running the code of the checkout DIR (an
   earlier commit: before and after side by side in one run); with --batch N, also two
   processes with at most N per call. The set-ups
   take turns, --rounds rounds of --seconds each (so a change in the machine's load falls on
   all of them). Aggregate moves/s, submit p50/p95, CPU per move (the bot processes' own, plus
   the PostgreSQL server's backends), and their ratios to SQLite;
3. on PostgreSQL, after the measured window: one process is killed (SIGKILL) in the middle of
   its submits and restarted; it finds its games in the database and carries on;
4. 1,000 due timers, fired by the two processes' timer loops at once: each exactly once;
5. the check: every move a process acknowledged (it prints each) is in the log, in order,
   exactly as planned, and every log is the plan's prefix with its game row at its end and
   its snapshot (written every few moves) whole, at one of its entries.

Each process is this script with --worker, driven through its stdin and stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import Actor, GameService, Limits  # noqa: E402
from engine.state import canonical_json  # noqa: E402
from store.opening import open_store
from tools.selfplay import play_game  # noqa: E402

VARIANTS = ("usa", "europe")
UNLIMITED = Limits.unlimited()
CHANNELS = 1_000_000  # channel = CHANNELS * (worker + 1) + game number: unique per worker


# --------------------------------------------------------------------------------------------
# The worker: one bot process's store and service, playing planned moves flat out
# --------------------------------------------------------------------------------------------


class Plans:
    """Pre-played games; the service deals the same seeds (its `random_bits`), so they replay."""

    def __init__(self, count: int) -> None:
        self.records = []
        for i in range(count):
            record = play_game(VARIANTS[i % 2], 2 + i % 3, 10_000 + i)
            self.records.append((VARIANTS[i % 2], 2 + i % 3, 10_000 + i, record.actions))


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


class Worker:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.plans = Plans(args.plans)
        self.seeds: list[int] = []
        self.games: dict[int, tuple[int, list[Any]]] = {}  # game id -> (channel, planned actions)
        self.cursor: dict[int, int] = {}
        self.latencies: list[float] = []
        self.count = 0
        self.playing = asyncio.Event()
        self.service: GameService

    async def run(self) -> None:
        store = await open_store(self.args.db, max_batch=self.args.batch or None)
        if self.args.json_writes:  # as before migration 32
            await json_writes(store)
        if self.args.ungrouped:  # as before store/pg_reads.py: each read its own round trip
            from store.games import GameReads
            from store.plans import PlanReads
            from store.user_settings import SettingsReads

            store.games = GameReads(store.reader)
            store.plans = PlanReads(store.reader)
            store.user_settings = SettingsReads(store.reader)
        self.service = GameService(store, cache_size=self.args.games + 100, limits=UNLIMITED,
                                   random_bits=lambda _bits: self.seeds.pop(0))
        if self.args.json_writes:
            stale_rows(self.service)
        if self.args.resume:
            await self.find_games()
        else:
            await self.create_games()
        say(f"ready {len(self.games)}")
        commands: asyncio.Queue[str] = asyncio.Queue()
        loop = asyncio.get_running_loop()
        threading.Thread(target=lambda: [loop.call_soon_threadsafe(commands.put_nowait, line.strip())
                                         for line in sys.stdin], daemon=True).start()
        players: list[asyncio.Task[None]] = []
        while True:
            command = await commands.get()
            if command == "go":
                self.playing.set()
                players = [asyncio.create_task(self.player(g)) for g in self.games]
            elif command == "report":
                lat = self.latencies
                say("r " + json.dumps({"moves": self.count, "p50": statistics.median(lat) if lat else None,
                                       "p95": pct(lat, 95), "batch": store.writer_stats,
                                       "cpu": time.process_time()}))
                self.count, self.latencies = 0, []
            elif command == "stop":
                self.playing.clear()
                await asyncio.gather(*players)
                say("stopped")
            elif command == "timers":
                fired = stale = 0
                while due := await self.service.clocks.due_timers(limit=50):
                    for outcome in await asyncio.gather(*(self.service.clocks.fire_timer(t) for t in due)):
                        fired += outcome == "fired"
                        stale += outcome == "stale"
                say(f"t {fired} {stale}")
            elif command == "exit":
                self.playing.clear()
                await asyncio.gather(*players)
                await self.service.close()
                say("bye")
                return

    async def create_games(self) -> None:
        base = CHANNELS * (self.args.index + 1)
        for start in range(0, self.args.games, 50):
            async def lobby(i: int) -> tuple[int, int, int, Any]:
                variant, players, seed, actions = self.plans.records[i % len(self.plans.records)]
                channel = base + i
                made = await self.service.tables.create_lobby(self.args.index + 1, channel, 1000 * channel, "p0",
                                                              variant,
                                                       seats_wanted=players)
                for seat in range(1, players):
                    await self.service.tables.join(made.game_id, 1000 * channel + seat, f"p{seat}")
                return made.game_id, channel, seed, actions

            made = await asyncio.gather(*(lobby(i) for i in range(start, min(start + 50, self.args.games))))
            for game_id, channel, seed, actions in made:  # one by one: the seeds go in start order
                self.seeds.append(seed)
                await self.service.tables.start(game_id, 1000 * channel)
                self.games[game_id] = (channel, actions)
                self.cursor[game_id] = 0

    async def find_games(self) -> None:
        """After a restart: this worker's games are those of its guild; the plan is in the channel."""
        base = CHANNELS * (self.args.index + 1)
        rows = await self.service.store.reader.fetch(
            "SELECT id, channel_id, seq FROM games WHERE guild_id = ? AND status IN ('setup', 'playing', 'over')",
            (self.args.index + 1,))
        for game_id, channel, seq in rows:
            actions = self.plans.records[(channel - base) % len(self.plans.records)][3]
            self.games[game_id] = (channel, actions)
            self.cursor[game_id] = seq

    async def player(self, game_id: int) -> None:
        channel, actions = self.games[game_id]
        while self.playing.is_set() and self.cursor[game_id] < len(actions):
            k = self.cursor[game_id]
            began = time.perf_counter()
            done = await self.service.moves.submit(game_id, Actor.user(1000 * channel + actions[k].player), actions[k],
                                                   k)
            self.latencies.append(1000 * (time.perf_counter() - began))
            self.cursor[game_id] = done.seq
            self.count += 1
            say(f"a {game_id} {done.seq}")


async def json_writes(store: Any) -> None:
    """Give `store` the writer as it was before migration 32 (for --before): every statement
    whole with its values in, the batch in JSON, each transaction in a subtransaction of its
    own (`ttr_write`, migration 6)."""
    from store.postgres_writer import PgWriter, inline

    class JsonWrites(PgWriter):
        async def _call(self, conn: Any, batch: list[Any]) -> Any:
            payload = [[{"sql": inline(st.sql, st.params) + (" RETURNING id" if st.returns_id else ""),
                         "id": st.returns_id, **({"expect": st.expect_rows} if st.expect_rows is not None else {})}
                        for st in job.sent] for job in batch]
            answer = json.loads(await conn.fetchval("SELECT ttr_write($1::jsonb)", json.dumps(payload)))
            counts: list[int] = []
            ids: list[int | None] = []
            for outcome in answer:
                if "ok" not in outcome:  # (the others were written: a bench's moves never fail)
                    raise RuntimeError(f"a planned move failed: {outcome}")
                for rows, new_id in outcome["ok"]:  # (per statement sent)
                    counts.append(rows)
                    ids.append(new_id)
            return None, counts, ids

    old = store._writer
    await old.close()
    store._writer = JsonWrites(store._write_pool, connections=old._connections, max_batch=old._max_batch)
    store._writer.start()


def stale_rows(service: GameService) -> None:
    """As before (for --before): a commit leaves the cached game's row as it was read, so the
    next use's check on PostgreSQL finds its status changed (setup → playing) and loads the
    game again."""
    commit = service.core.commit

    async def commit_leaving_the_row(loaded: Any, *args: Any, **kwargs: Any) -> Any:
        row = loaded.row
        try:
            return await commit(loaded, *args, **kwargs)
        finally:
            loaded.row = row

    service.core.commit = commit_leaving_the_row  # type: ignore[method-assign]


# --------------------------------------------------------------------------------------------
# The parent: starts the server and the processes, measures, kills, checks
# --------------------------------------------------------------------------------------------


@dataclass
class Proc:
    index: int
    popen: subprocess.Popen[str]
    acked: dict[int, int] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)
    reader: threading.Thread | None = None
    reply: threading.Condition = field(default_factory=threading.Condition)

    def pump(self) -> None:
        assert self.popen.stdout is not None
        for line in self.popen.stdout:
            if line.startswith("a "):
                _, game, seq = line.split()
                self.acked[int(game)] = max(self.acked.get(int(game), 0), int(seq))
                continue
            with self.reply:
                self.lines.append(line.strip())
                if line.startswith("ready"):
                    self.ready.set()
                self.reply.notify_all()

    def send(self, command: str, expect: str | None = None, timeout: float = 600) -> str:
        assert self.popen.stdin is not None
        with self.reply:
            seen = len(self.lines)
        self.popen.stdin.write(command + "\n")
        self.popen.stdin.flush()
        if expect is None:
            return ""
        with self.reply:
            ok = self.reply.wait_for(lambda: any(x.startswith(expect) for x in self.lines[seen:]), timeout)
            if not ok:
                raise RuntimeError(f"worker {self.index}: no answer to {command}")
            return next(x for x in self.lines[seen:] if x.startswith(expect))


def start_worker(db: str, index: int, games: int, plans: int, batch: int, resume: bool = False,
                 ungrouped: bool = False, json_writes: bool = False, tree: str | None = None) -> Proc:
    script = str(Path(tree) / "bench" / "bench_pg.py") if tree else __file__
    command = [sys.executable, script, "--worker", "--db", db, "--index", str(index), "--games", str(games),
               "--plans", str(plans), "--batch", str(batch)] + (["--resume"] if resume else []) + (
               ["--ungrouped"] if ungrouped else []) + (["--json-writes"] if json_writes else [])
    popen = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    proc = Proc(index, popen)
    proc.reader = threading.Thread(target=proc.pump, daemon=True)
    proc.reader.start()
    return proc


def wait_ready(procs: list[Proc], timeout: float = 1800) -> None:
    for p in procs:
        if not p.ready.wait(timeout):
            raise RuntimeError(f"worker {p.index} did not get ready")


def server_cpu(cluster: Any) -> float:
    """CPU seconds the PostgreSQL server has used so far: the postmaster and every backend
    (live ones' own time, ended ones' through the postmaster's children time)."""
    if cluster is None:
        return 0.0
    postmaster = int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
    ticks = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == postmaster or int(fields[1]) == postmaster:
            ticks += sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")


def measure(procs: list[Proc], seconds: float, cluster: Any = None) -> dict[str, Any]:
    """All processes play for `seconds`; aggregate moves/s, the slowest process's p50/p95, and
    the CPU time used per move: the bot processes' own, and (PostgreSQL) the server's."""
    before = [json.loads(p.send("report", "r ")[2:]) for p in procs]  # resets the counts
    server0 = server_cpu(cluster)
    began = time.perf_counter()
    time.sleep(seconds)
    reports = [json.loads(p.send("report", "r ")[2:]) for p in procs]
    elapsed = time.perf_counter() - began
    moves = sum(r["moves"] for r in reports)
    bot_cpu = sum(r["cpu"] - b["cpu"] for r, b in zip(reports, before, strict=True))
    server = server_cpu(cluster) - server0
    return {"moves": moves, "elapsed": elapsed, "moves_s": moves / elapsed,
            "p50": max(r["p50"] or 0 for r in reports), "p95": max(r["p95"] or 0 for r in reports),
            "bot_cpu": bot_cpu, "server_cpu": server,
            "per_process": [round(r["moves"] / elapsed) for r in reports]}


def total(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The rounds of one set-up together: moves/s over all its windows, CPU ms per move, the
    median of the rounds' p50s and p95s."""
    moves = sum(r["moves"] for r in rounds)
    return {"moves_s": moves / sum(r["elapsed"] for r in rounds),
            "bot_ms": 1000 * sum(r["bot_cpu"] for r in rounds) / max(moves, 1),
            "server_ms": 1000 * sum(r["server_cpu"] for r in rounds) / max(moves, 1),
            "p50": statistics.median(r["p50"] for r in rounds), "p95": statistics.median(r["p95"] for r in rounds),
            "per_round": [round(r["moves_s"]) for r in rounds]}


async def single_submits(db: str, plans: Plans, moves: int, check: bool = True) -> tuple[float, float]:
    seeds: list[int] = []
    service = await GameService.open(db, limits=UNLIMITED, random_bits=lambda _b: seeds.pop(0))
    try:
        service.store.shared = service.store.shared and check
        games = []
        for i in range(8):
            variant, players, seed, actions = plans.records[i]
            channel = 9_000_000 + i + (0 if check else 100)
            lobby = await service.tables.create_lobby(99, channel, 1000 * channel, "p0", variant, seats_wanted=players)
            for seat in range(1, players):
                await service.tables.join(lobby.game_id, 1000 * channel + seat, f"p{seat}")
            seeds.append(seed)
            await service.tables.start(lobby.game_id, 1000 * channel)
            games.append((lobby.game_id, channel, actions))
        times = []
        cursor = dict.fromkeys(range(len(games)), 0)
        for n in range(moves):
            i = n % len(games)
            game_id, channel, actions = games[i]
            k = cursor[i]
            if k >= len(actions):
                continue
            began = time.perf_counter()
            await service.moves.submit(game_id, Actor.user(1000 * channel + actions[k].player), actions[k], k)
            times.append(1000 * (time.perf_counter() - began))
            cursor[i] = k + 1
        return statistics.median(times), pct(times, 95)
    finally:
        await service.close()


async def create_timers(db: str, count: int) -> int:
    """`count` timers due now, one per game, of a kind the service fires without a move."""
    service = await GameService.open(db, limits=UNLIMITED)
    try:
        game_ids = (await service.reads.active_game_ids())[:count]
        tx = service.store.tx()
        for game_id in game_ids:
            tx.timers.schedule(game_id, "bench", tx.now - 1)
        await service.store.write(tx)
        return len(game_ids)
    finally:
        await service.close()


async def check_logs(db: str, plans: Plans, acked: dict[int, int]) -> tuple[int, int]:
    """Every acknowledged move is stored; every log is its plan's prefix; rows agree. Returns
    (games, log entries) checked."""
    store = await open_store(db)
    try:
        games = await store.reader.fetch("SELECT id, guild_id, channel_id, seq FROM games WHERE guild_id IN (1, 2)")
        entries = 0
        for game_id, guild, channel, seq in games:
            actions = plans.records[(channel - CHANNELS * guild) % len(plans.records)][3]
            log = await store.log.actions(game_id)
            assert [a.seq for a in log] == list(range(seq + 1)), f"game {game_id}: log and seq disagree"
            assert seq >= acked.get(game_id, 0), f"game {game_id}: acknowledged seq {acked[game_id]} lost"
            for row in log[1:]:
                assert row.action_json == canonical_json(actions[row.seq - 1].to_json()), f"game {game_id}"
            snapshot = await store.log.snapshot(game_id)
            assert snapshot is not None and snapshot.seq <= seq and snapshot.intact
            entries += len(log)
        return len(games), entries
    finally:
        await store.close()


def parent(args: argparse.Namespace) -> None:
    from tests.pg_cluster import Cluster

    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}; pre-playing {args.plans} games …",
          flush=True)
    plans = Plans(args.plans)
    cluster = Cluster.start(durable=True)
    folder = Path(tempfile.mkdtemp(prefix="ttr-bench-"))
    results: dict[str, Any] = {}
    try:
        admin = cluster.url("postgres")
        import asyncpg

        async def createdb(name: str) -> str:
            conn = await asyncpg.connect(admin)
            await conn.execute(f"CREATE DATABASE {name}")
            await conn.close()
            return cluster.url(name)

        sqlite_db = str(folder / "bench.sqlite3")
        pg_single = asyncio.run(createdb("single"))
        print("\n[1] one submit at a time (8 games, fsync on)")
        for label, db, check in (("SQLite", str(folder / "single.sqlite3"), True), ("PostgreSQL", pg_single, True),
                                 ("PostgreSQL, no cache check", pg_single, False)):
            p50, p95 = asyncio.run(single_submits(db, plans, args.single, check))
            results[f"single {label}"] = (p50, p95)
            print(f"  {label:<30} submit p50 {p50:6.2f} ms  p95 {p95:6.2f} ms")

        print(f"\n[2] sustained, every game's player submitting at once: {args.rounds} rounds in rotation of "
              f"{args.seconds:.0f} s each", flush=True)
        setups: dict[str, tuple[list[Proc], Any]] = {}
        t0 = time.perf_counter()
        setups[f"SQLite, 1 process × {2 * args.games} games"] = (
            [start_worker(sqlite_db, 0, 2 * args.games, args.plans, 0)], None)
        one = asyncio.run(createdb("one"))
        setups[f"PostgreSQL, 1 process × {2 * args.games} games"] = (
            [start_worker(one, 0, 2 * args.games, args.plans, 0)], cluster)
        db = asyncio.run(createdb("sustained0"))
        two = [start_worker(db, i, args.games, args.plans, 0) for i in range(2)]
        setups[f"PostgreSQL, 2 processes × {args.games} games"] = (two, cluster)
        if args.before:
            one_before = asyncio.run(createdb("one_before"))
            setups[f"PostgreSQL, 1 × {2 * args.games}, as before"] = (
                [start_worker(one_before, 0, 2 * args.games, args.plans, 0, json_writes=True)], cluster)
            two_before = asyncio.run(createdb("two_before"))
            setups[f"PostgreSQL, 2 × {args.games}, as before"] = (
                [start_worker(two_before, i, args.games, args.plans, 0, json_writes=True) for i in range(2)], cluster)
        if args.baseline:
            # The same set-ups with the code of another checkout (an earlier commit), each on
            # a database of its own that its code migrated.
            one_base = asyncio.run(createdb("one_baseline"))
            setups[f"PostgreSQL, 1 × {2 * args.games}, baseline"] = (
                [start_worker(one_base, 0, 2 * args.games, args.plans, 0, tree=args.baseline)], cluster)
            two_base = asyncio.run(createdb("two_baseline"))
            setups[f"PostgreSQL, 2 × {args.games}, baseline"] = (
                [start_worker(two_base, i, args.games, args.plans, 0, tree=args.baseline) for i in range(2)], cluster)
        if args.ungrouped:
            before = asyncio.run(createdb("ungrouped"))
            setups[f"PostgreSQL, 2 × {args.games}, reads one by one (before)"] = (
                [start_worker(before, i, args.games, args.plans, 0, ungrouped=True) for i in range(2)], cluster)
        if args.batch:
            single_db = asyncio.run(createdb(f"sustained{args.batch}"))
            setups[f"PostgreSQL, 2 × {args.games}, at most {args.batch} per call"] = (
                [start_worker(single_db, i, args.games, args.plans, args.batch) for i in range(2)], cluster)
        wait_ready([p for procs, _ in setups.values() for p in procs])
        print(f"  games created in {time.perf_counter() - t0:.0f} s", flush=True)
        rounds: dict[str, list[dict[str, Any]]] = {label: [] for label in setups}
        for _ in range(args.rounds):
            for label, (procs, server) in setups.items():
                for p in procs:
                    p.send("go")
                rounds[label].append(measure(procs, args.seconds, server))
                for p in procs:
                    p.send("stop", "stopped")
        first = next(iter(setups))
        base = total(rounds[first])
        for label, (procs, _server) in setups.items():
            t = total(rounds[label])
            results[label] = t
            cpu = t["bot_ms"] + t["server_ms"]
            print(f"  {label:<44} {t['moves_s']:6.0f} moves/s (rounds {t['per_round']}), p50 {t['p50']:.0f} ms, "
                  f"p95 {t['p95']:.0f} ms; CPU per move {cpu:.2f} ms (bot {t['bot_ms']:.2f}, "
                  f"server {t['server_ms']:.2f})")
            if label != first and base["moves_s"]:
                print(f"    ratios to SQLite: moves/s ×{t['moves_s'] / base['moves_s']:.2f}, CPU per move "
                      f"×{cpu / (base['bot_ms'] + base['server_ms']):.2f}", flush=True)
            if procs is not two:
                for p in procs:
                    p.send("exit", "bye")
        procs, batch = two, 0
        for p in procs:
            p.send("go")
        print(f"\n[3] killing process 1 (SIGKILL) in the middle of its submits, then restarting it; "
              f"{args.after_kill:.0f} s more")
        time.sleep(1.0)
        killed = procs[1]
        killed.popen.send_signal(signal.SIGKILL)
        killed.popen.wait()
        assert killed.reader is not None
        killed.reader.join(30)  # every line it managed to print has been read
        acked = dict(killed.acked)
        restarted = start_worker(db, 1, args.games, args.plans, batch, resume=True)
        wait_ready([restarted])
        restarted.acked = dict(acked)
        restarted.send("go")
        procs[1] = restarted
        after = measure(procs, args.after_kill)
        print(f"  after the restart: {after['moves_s']:.0f} moves/s (per process {after['per_process']})")

        for p in procs:
            p.send("stop", "stopped")
        created = asyncio.run(create_timers(db, args.timers))
        print(f"\n[4] {created} timers due now; both processes' timer loops at once")
        outcomes: list[str] = []

        def fire(p: Proc, into: list[str] = outcomes) -> None:
            into.append(p.send("timers", "t "))

        threads = [threading.Thread(target=fire, args=(p,)) for p in procs]
        t0 = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        fired = [int(o.split()[1]) for o in outcomes]
        stale = [int(o.split()[2]) for o in outcomes]
        counts = asyncio.run(count_timers(db))
        print(f"  fired per process {fired} (sum {sum(fired)}), stale {stale}, in {time.perf_counter() - t0:.1f} s;"
              f" database: {counts[0]} fired, {counts[1]} still pending")
        assert sum(fired) == created == counts[0] and counts[1] == 0, "a timer fired twice or not at all"
        for p in procs:
            p.send("exit", "bye")

        acked_all = {**procs[0].acked, **restarted.acked}
        games, entries = asyncio.run(check_logs(db, plans, acked_all))
        print(f"\n[5] checked {games} games, {entries} log entries: every move acknowledged in them (up to "
              f"the last acknowledged seq of each of {len(acked_all)} games, {len(acked)} of them the killed "
              "process's) is stored, once, in order, as planned: 0 lost, 0 applied twice")
        print(f"\nload average now {os.getloadavg()[0]:.1f}")
    finally:
        cluster.stop()
        import shutil

        shutil.rmtree(folder, ignore_errors=True)


async def count_timers(db: str) -> tuple[int, int]:
    store = await open_store(db)
    try:
        rows = await store.reader.fetch("SELECT count(fired_at), count(*) - count(fired_at) - count(cancelled_at)"
                                        " FROM timers WHERE kind = 'bench'")
        return int(rows[0][0]), int(rows[0][1])
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5000, help="games per PostgreSQL process (SQLite: twice)")
    parser.add_argument("--seconds", type=float, default=20.0, help="the measured window")
    parser.add_argument("--after-kill", type=float, default=10.0, help="play on after the restart")
    parser.add_argument("--timers", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3, help="rounds of the sustained set-ups, in rotation")
    parser.add_argument("--single", type=int, default=400, help="submits timed one at a time")
    parser.add_argument("--plans", type=int, default=60, help="distinct self-play games to replay")
    parser.add_argument("--batch", type=int, default=0, help="also measure PostgreSQL with at most this many per call")
    parser.add_argument("--ungrouped", action="store_true",
                        help="also two PostgreSQL processes with each read its own round trip (as before pg_reads)")
    parser.add_argument("--before", action="store_true",
                        help="also one and two PostgreSQL processes as before: writes through ttr_write (migration 6),"
                             " a commit leaving the cached row as it was read")
    parser.add_argument("--baseline", metavar="DIR",
                        help="also one and two PostgreSQL processes running the code of the checkout DIR (say, a git"
                             " worktree of an earlier commit), in the same rotation")
    parser.add_argument("--json-writes", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db", help=argparse.SUPPRESS)
    parser.add_argument("--index", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--resume", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        asyncio.run(Worker(args).run())
    else:
        parent(args)


if __name__ == "__main__":
    main()
