"""Game store figures: durable submits, sustained moves per second, memory, cold loads.

    python bench/bench_store.py [--games 1000] [--rounds 3] [--seconds 4] [--dir DIR]
    python bench/bench_store.py --scenario active [--games 10000] [--cache 2000] [--clients 32]
                                [--depth 80] [--seconds 20] [--burst 10000] [--restart]
                                [--pages 3000] [--setup-cache DIR] [--json]

The second form is the "many active games" scenario (issue 16): see `active` below. It also
prints (issue 31) the plain-sqlite3 floor of its window — the same statements in the same
commit groups run again by sqlite3 alone on a copy of the database (`Floor`) — beside the
store's CPU per move, the -wal pages each move writes, and the bytes per cached game;
`--profile FILE` keeps a cProfile of the window's main thread.

Everything runs on a real SQLite file (WAL, synchronous=FULL) in a temporary folder on the
same disk as DIR (default: the system's temporary folder). Prints:

1. the disk: a bare fsync, and SQLite alone committing one move's rows (action, snapshot,
   game row) with FULL sync — interleaved with (2) so both see the same disk weather;
2. one durable submit at a time: the persistence step (`Store.write`, from queueing the
   transaction to its fsynced COMMIT) and the whole `submit` (load, check, apply, write);
3. sustained moves per second through `GameService.submit` with 1,000 games, every game's
   player acting at once (no rendering; moves come from pre-played self-play games): as
   shipped (group commit, one thread hop per group) and the two "befores" (group commit with
   one aiosqlite call per statement; one commit per move), taking turns in short rounds;
4. memory (RSS) with 1,000 active games in the cache, and a cold load (replay + check) per game.

Targets (issue 3): persistence p50 <= 2 ms; >= 1,000 moves/s; <= 300 MB RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import Actor, GameService, Limits  # noqa: E402
from engine.state import GameState  # noqa: E402
from store import Store  # noqa: E402
from store.opening import open_store
from tools.selfplay import play_game  # noqa: E402

VARIANTS = ("usa", "europe")


def rss_mb() -> float:
    """Resident memory of this process now (Linux), in MB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def line(label: str, values_ms: list[float]) -> str:
    return (f"  {label:<34} p50 {statistics.median(values_ms):6.2f} ms   p90 {pct(values_ms, 90):6.2f}   "
            f"p99 {pct(values_ms, 99):6.2f}   (n={len(values_ms)})")


class Plans:
    """Pre-played games: the service is made to deal the same seeds, so their moves replay."""

    def __init__(self, count: int) -> None:
        self.records = []
        self.finals = []
        for i in range(count):
            variant = VARIANTS[i % 2]
            players = 2 + i % 3
            record = play_game(variant, players, 10_000 + i)
            self.records.append((variant, players, 10_000 + i, record.actions))
            self.finals.append(record.state)

    def __len__(self) -> int:
        return len(self.records)


UNLIMITED = Limits.unlimited()  # the bench opens thousands of tables at once


class FixedSeeds:
    """The service's randomness (its `random_bits`), so that each start deals a planned seed."""

    def __init__(self) -> None:
        self.next: list[int] = []

    def randbits(self, bits: int) -> int:
        return self.next.pop(0)


async def timed_write(store: Store, samples: list[float]) -> Callable[..., Awaitable[Any]]:
    original = store.write

    async def write(tx: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return await original(tx)
        finally:
            samples.append(1000 * (time.perf_counter() - t0))

    store.write = write  # type: ignore[method-assign]
    return original


def sqlite_alone(path: Path, n: int, state_json: str) -> Callable[[int], float]:
    """One move's rows committed by plain sqlite3 with the same settings: the floor."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = FULL")
    db.execute("CREATE TABLE IF NOT EXISTS a (g INTEGER, s INTEGER, action TEXT, events TEXT, PRIMARY KEY (g, s))")
    db.execute("CREATE TABLE IF NOT EXISTS snap (g INTEGER PRIMARY KEY, s INTEGER, state TEXT)")
    db.execute("CREATE TABLE IF NOT EXISTS games (g INTEGER PRIMARY KEY, s INTEGER)")
    db.execute("INSERT OR IGNORE INTO games VALUES (1, 0)")

    def one(seq: int) -> float:
        t0 = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE games SET s = ? WHERE g = 1", (seq,))
        db.execute("INSERT INTO a VALUES (1, ?, ?, ?)", (seq, '{"type":"draw_card","player":0,"slot":null}', "[]"))
        db.execute("INSERT INTO snap VALUES (1, ?, ?) ON CONFLICT (g) DO UPDATE SET s = excluded.s, "
                   "state = excluded.state", (seq, state_json))
        db.execute("COMMIT")
        return 1000 * (time.perf_counter() - t0)

    return one


def bare_fsync(path: Path) -> Callable[[], float]:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)

    def one() -> float:
        os.write(fd, b"x" * 4096)
        t0 = time.perf_counter()
        os.fsync(fd)
        return 1000 * (time.perf_counter() - t0)

    return one


async def single_submits(folder: Path, plans: Plans, seeds: FixedSeeds, moves: int) -> None:
    print("\n[1-2] one durable submit at a time (synchronous=FULL, WAL), interleaved with the disk floor")
    service = await GameService.open(folder / "single.sqlite3", random_bits=seeds.randbits, limits=UNLIMITED)
    try:
        games = await create_many(service, plans, seeds, 0, 4)
        persist: list[float] = []
        whole: list[float] = []
        alone: list[float] = []
        fsyncs: list[float] = []
        raw = sqlite_alone(folder / "alone.sqlite3", moves, "x" * 6000)
        fsync = bare_fsync(folder / "fsync.bin")
        await timed_write(service.store, persist)
        cursor = {gid: 0 for gid, _ in games}
        for i in range(moves):
            gid, (channel, actions) = games[i % len(games)]
            k = cursor[gid]
            if k >= len(actions):
                continue
            action = actions[k]
            fsyncs.append(fsync())
            alone.append(raw(i + 1))
            t0 = time.perf_counter()
            await service.moves.submit(gid, Actor.user(1000 * channel + action.player), action, k)
            whole.append(1000 * (time.perf_counter() - t0))
            cursor[gid] = k + 1
        durable = persist[-len(whole):]  # the last ones: the set-up wrote too
        print(line("bare fsync (4 KB)", fsyncs))
        print(line("SQLite alone: one move's rows", alone))
        print(line("Store.write (persistence step)", durable))
        print(line("GameService.submit (whole)", whole))
        print(f"  store's cost over SQLite alone     median of paired differences "
              f"{statistics.median(p - a for p, a in zip(durable, alone, strict=True)):+.2f} ms")
        # The same steps with the fsync switched off: what the code costs, apart from the disk.
        await service.store._writer_db.execute("PRAGMA synchronous = OFF")
        persist.clear()
        whole.clear()
        for i in range(moves):
            gid, (channel, actions) = games[i % len(games)]
            k = cursor[gid]
            if k >= len(actions):
                continue
            t0 = time.perf_counter()
            await service.moves.submit(gid, Actor.user(1000 * channel + actions[k].player), actions[k], k)
            whole.append(1000 * (time.perf_counter() - t0))
            cursor[gid] = k + 1
        print(line("Store.write, fsync off (software)", persist))
        print(line("GameService.submit, fsync off", whole))
    finally:
        await service.close()


CONFIGS = (
    # (label, max_batch, one thread hop per group)
    ("group commit, 1 hop per group (shipped)", 128, True),
    ("group commit, 1 hop per statement", 128, False),
    ("1 commit per move, 1 hop per statement", 1, False),
)


async def sustained(folder: Path, plans: Plans, seeds: FixedSeeds, n_games: int, seconds: float,
                    rounds: int) -> None:
    """All games' players submit at once. The writer configurations take turns in short
    rounds on the same database, so that each sees the same disk and machine weather."""
    path = folder / "sustained.sqlite3"
    store = await open_store(path)
    writer = store._writer  # the bench switches the writer's configuration between rounds
    in_thread = writer._in_thread
    service = GameService(store, cache_size=max(2000, n_games), random_bits=seeds.randbits, limits=UNLIMITED)
    fsync = bare_fsync(folder / "fsync-sustained.bin")
    try:
        t0 = time.perf_counter()
        # Created 50 at a time so that group commit helps here too.
        games: list[tuple[int, Any]] = []
        for start in range(0, n_games, 50):
            games.extend(await create_many(service, plans, seeds, start, min(50, n_games - start)))
        print(f"  {len(games)} games created and started in {time.perf_counter() - t0:.1f} s")
        cursor = {gid: 0 for gid, _ in games}
        rates: dict[str, list[float]] = {label: [] for label, _, _ in CONFIGS}
        latencies: dict[str, list[float]] = {label: [] for label, _, _ in CONFIGS}
        batch: dict[str, list[float]] = {label: [] for label, _, _ in CONFIGS}
        disk: list[float] = []
        for _ in range(rounds):
            for label, max_batch, one_hop in CONFIGS:
                writer._max_batch = max_batch
                writer._in_thread = in_thread if one_hop else None
                disk.append(statistics.median(fsync() for _ in range(15)))
                count = 0
                stop_at = time.perf_counter() + seconds

                async def player(gid: int, channel: int, actions: list[Any], label: str = label,
                                 stop_at: float = stop_at) -> None:
                    nonlocal count
                    while cursor[gid] < len(actions) and time.perf_counter() < stop_at:
                        k = cursor[gid]
                        a = time.perf_counter()
                        await service.moves.submit(gid, Actor.user(1000 * channel + actions[k].player), actions[k], k)
                        latencies[label].append(1000 * (time.perf_counter() - a))
                        cursor[gid] = k + 1
                        count += 1

                tx0, commits0 = store.writer_stats
                began = time.perf_counter()
                await asyncio.gather(*(player(gid, channel, actions) for gid, (channel, actions) in games))
                rates[label].append(count / (time.perf_counter() - began))
                tx1, commits1 = store.writer_stats
                batch[label].append((tx1 - tx0) / max(commits1 - commits0, 1))
        print(f"  bare fsync p50 before each round: {', '.join(f'{d:.1f}' for d in disk)} ms")
        for label, _, _ in CONFIGS:
            print(f"  {label:<42} {statistics.median(rates[label]):6.0f} moves/s median  "
                  f"(rounds: {', '.join(f'{r:.0f}' for r in rates[label])}; "
                  f"{statistics.median(batch[label]):.0f} moves per commit)")
            print(line("    submit latency, all players at once", latencies[label]))
        writer._max_batch, writer._in_thread = CONFIGS[0][1], in_thread

        gc.collect()
        print(f"\n[4] memory with {len(games)} active games cached: RSS {rss_mb():.0f} MB "
              f"(cache holds {service.cached_games})")
        # Those games are early in play; states grow as routes and tickets pile up. Holding as
        # many end-of-game states on top shows the worst case.
        tracemalloc.start()
        late = [GameState.from_canonical(plans.finals[i % len(plans)].to_canonical()) for i in range(len(games))]
        traced, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"  + {len(late)} end-of-game states held as well: RSS {rss_mb():.0f} MB "
              f"({traced / 1024 / len(late):.0f} KB per end-of-game state, by tracemalloc)")
        del late
        await cold_loads(path, [gid for gid, _ in games])
    finally:
        await service.close()


async def create_many(service: GameService, plans: Plans, seeds: FixedSeeds, start: int, count: int
                      ) -> list[tuple[int, Any]]:
    # Seeds are handed out in start order; starting concurrently would shuffle them, so the
    # lobbies fill concurrently and the starts go one by one.
    async def lobby(i: int) -> tuple[int, int, Any]:
        variant, players, seed, actions = plans.records[i % len(plans)]
        channel = 10_000 + i
        made = await service.tables.create_lobby(1, channel, 1000 * channel, "p0", variant, seats_wanted=players)
        for seat in range(1, players):
            await service.tables.join(made.game_id, 1000 * channel + seat, f"p{seat}")
        return made.game_id, channel, (seed, actions)

    made = await asyncio.gather(*(lobby(start + i) for i in range(count)))
    out = []
    for gid, channel, (seed, actions) in made:
        seeds.next.append(seed)
        await service.tables.start(gid, 1000 * channel)
        out.append((gid, (channel, actions)))
    return out


async def cold_loads(path: Path, game_ids: list[int]) -> None:
    service = await GameService.open(path, cache_size=len(game_ids) + 10, limits=UNLIMITED)
    try:
        times = []
        for gid in game_ids:
            t0 = time.perf_counter()
            await service.reads.view(gid)
            times.append(1000 * (time.perf_counter() - t0))
        print(line("cold load (read + replay + check)", times))
    finally:
        await service.close()


async def cache_memory(path: Path, game_ids: list[int]) -> int:
    """Bytes a game in the service's cache holds (its row, its seats and its state), by
    tracemalloc: `game_ids` loaded into the cache of a service just opened."""
    service = await GameService.open(path, cache_size=len(game_ids) + 10, limits=UNLIMITED)
    try:
        await service.reads.view(game_ids[0])  # the first load builds the rule sets and their maps
        gc.collect()
        tracemalloc.start()
        base, _ = tracemalloc.get_traced_memory()
        for gid in game_ids[1:]:
            await service.reads.view(gid)
        gc.collect()
        held, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        return round((held - base) / max(len(game_ids) - 1, 1))
    finally:
        await service.close()


def io_bytes() -> dict[str, int]:
    """This process's I/O counters (Linux): write_bytes (what it sent towards the disk: WAL
    frames, checkpoints) and wchar (bytes passed to write calls)."""
    out: dict[str, int] = {}
    with open("/proc/self/io", encoding="ascii") as io:
        for entry in io:
            name, value = entry.split(":")
            out[name] = int(value)
    return out


def thread_cpu(store: Store) -> dict[str, float]:
    """CPU seconds so far of this process's main thread and of the SQLite store's two
    connection threads (writer, reader), from /proc (Linux; {} elsewhere); "other" is the rest
    of the process."""
    named = {"main": threading.main_thread().native_id}
    for name, attr in (("writer", "_writer_db"), ("reader", "_reader")):
        thread = getattr(getattr(store, attr, None), "_thread", None)  # aiosqlite's connection thread
        if thread is not None and thread.native_id is not None:
            named[name] = thread.native_id
    tick = os.sysconf("SC_CLK_TCK")
    out: dict[str, float] = {}
    try:
        for name, tid in named.items():
            with open(f"/proc/self/task/{tid}/stat", encoding="ascii") as stat:
                fields = stat.read().rpartition(")")[2].split()
            out[name] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    except (OSError, ValueError):
        return {}
    out["other"] = time.process_time() - sum(out.values())
    return out


def peak_rss_mb() -> float:
    """The highest resident memory of this process since it started or since `reset_peak`."""
    with open("/proc/self/status", encoding="ascii") as status:
        for entry in status:
            if entry.startswith("VmHWM:"):
                return int(entry.split()[1]) / 1024
    return float("nan")


def reset_peak() -> None:
    """Start measuring the peak RSS afresh (Linux: clear_refs 5)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as refs:
            refs.write("5")
    except OSError:
        pass


class Clients:
    """Players of many games: each client picks a game at random (uniformly over all of them,
    skipping games another client is moving and games whose plan is played out) and submits
    its next planned move, again and again."""

    def __init__(self, service: GameService, games: list[tuple[int, Any]], cursor: dict[int, int], seed: int) -> None:
        self.service = service
        self.games = games
        self.cursor = cursor
        self.busy: set[int] = set()
        self.rng = random.Random(seed)
        self.latencies: list[float] = []
        self.moves = 0

    def pick(self) -> tuple[int, int, Any] | None:
        for _ in range(100):
            gid, (channel, actions) = self.games[self.rng.randrange(len(self.games))]
            if gid not in self.busy and self.cursor[gid] < len(actions):
                return gid, channel, actions
        return None

    async def submit(self, gid: int, channel: int, actions: list[Any]) -> None:
        k = self.cursor[gid]
        self.busy.add(gid)
        try:
            a = time.perf_counter()
            await self.service.moves.submit(gid, Actor.user(1000 * channel + actions[k].player), actions[k], k)
            self.latencies.append(1000 * (time.perf_counter() - a))
        finally:
            self.busy.discard(gid)
        self.cursor[gid] = k + 1
        self.moves += 1

    async def run(self, clients: int, seconds: float) -> float:
        """`clients` players for `seconds`; returns the seconds it took."""
        stop_at = time.perf_counter() + seconds

        async def client() -> None:
            while time.perf_counter() < stop_at:
                picked = self.pick()
                if picked is None:
                    return
                await self.submit(*picked)

        began = time.perf_counter()
        await asyncio.gather(*(client() for _ in range(clients)))
        return time.perf_counter() - began


async def checkpoint(store: Store) -> None:
    """Fold the -wal into the database file now (SQLite), so that the bytes a window wrote
    include the checkpoint of its pages."""
    db = getattr(store, "_writer_db", None)
    if db is not None:
        await db.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")


class RowBytes:
    """The bytes of the values each transaction writes (text as UTF-8, 8 per number): what the
    moves hand to the database, before pages and indexes. The wrapper of `store.write` only
    keeps each transaction's statements; they are added up by `take`, after the window, so
    that the counting is not in the CPU per move the window measures."""

    def __init__(self, store: Store) -> None:
        self.kept: list[Any] = []
        original = store.write

        async def write(tx: Any) -> Any:
            self.kept.append(tx.statements)
            return await original(tx)

        store.write = write  # type: ignore[method-assign]

    def take(self) -> int:
        """The bytes of the transactions kept since the last call (and forget them)."""
        total = 0
        for statements in self.kept:
            for statement in statements:
                for value in statement.params:
                    total += len(value.encode()) if isinstance(value, str) else 8
        self.kept.clear()
        return total


class Floor:
    """The plain-SQLite floor of a window: the statements the store committed in it, group by
    group, recorded as they were committed, then run again by sqlite3 alone (BEGIN IMMEDIATE,
    the statements, the commit counter, COMMIT) on a copy of the database as it was when the
    window began, with the store's settings. Its CPU time is what the same SQL in the same
    commit groups costs with nothing around it; the -wal frames it writes are the pages
    written."""

    def __init__(self, store: Store, path: Path) -> None:
        self.path = path
        self.copy = path.with_name(f"floor-{path.name}")
        self.groups: list[list[list[Any]]] = []
        self.recording = False
        writer = store._writer  # type: ignore[attr-defined]
        in_thread = writer._in_thread
        if in_thread is None:
            raise SystemExit("the floor needs the writer's one-hop-per-group runner")

        async def recorded(fn: Any, conn: Any, jobs: list[list[Any]], marker: Any) -> Any:
            out = await in_thread(fn, conn, jobs, marker)
            if self.recording and out[2] is None:
                self.groups.append(jobs)
            return out

        writer._in_thread = recorded

    def start(self) -> None:
        """The window begins (the -wal has just been folded into the file): copy the file."""
        shutil.copyfile(self.path, self.copy)
        self.groups.clear()
        self.recording = True

    def stop(self) -> None:
        self.recording = False

    def run(self) -> dict[str, float]:
        """Run the recorded groups with sqlite3 alone: CPU ms per move, -wal pages per move."""
        db = sqlite3.connect(self.copy, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            wal = Path(f"{self.copy}-wal")
            page_size = int(db.execute("PRAGMA page_size").fetchone()[0])
            # The store's writer lets SQLite checkpoint every 1,000 pages; here the -wal is
            # truncated at each checkpoint so that its size counts the frames written.
            db.execute("PRAGMA wal_autocheckpoint = 0")
            frames = 0
            moves = sum(len(jobs) for jobs in self.groups)
            cpu0 = time.process_time()
            for jobs in self.groups:
                db.execute("BEGIN IMMEDIATE")
                for statements in jobs:
                    for statement in statements:
                        db.execute(statement.sql, statement.params)
                db.execute("UPDATE store_state SET commits = commits + 1 WHERE id = 1")
                db.execute("COMMIT")
                size = wal.stat().st_size
                if size >= 32 + 1000 * (24 + page_size):
                    frames += (size - 32) // (24 + page_size)
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            cpu = time.process_time() - cpu0
            size = wal.stat().st_size if wal.exists() else 0
            frames += max(0, size - 32) // (24 + page_size)
        finally:
            db.close()
            for leftover in (self.copy, Path(f"{self.copy}-wal"), Path(f"{self.copy}-shm")):
                leftover.unlink(missing_ok=True)
        return {"floor_cpu_ms_per_move": round(1000 * cpu / max(moves, 1), 3),
                "pages_per_move": round(frames / max(moves, 1), 2),
                "floor_moves": moves}


async def window(service: GameService, clients: Clients, args: argparse.Namespace, row_bytes: RowBytes,
                 floor: Floor | None = None, profile: cProfile.Profile | None = None) -> dict[str, Any]:
    """`clients` players for `seconds`, measured: moves/s, submit latency, bytes written, and
    (with `floor`) the plain-SQLite floor of the same statements. `profile`: profiles the
    players' seconds (its cost is in the CPU per move then)."""
    store = service.store
    await checkpoint(store)
    if floor is not None:
        floor.start()
    clients.latencies.clear()
    clients.moves = 0
    gc.collect()
    reset_peak()
    row_bytes.take()
    threads0 = thread_cpu(store)
    io0, cpu0 = io_bytes(), time.process_time()
    tx0, commits0 = store.writer_stats
    if profile is not None:
        profile.enable()
    took = await clients.run(args.clients, args.seconds)
    cpu1 = time.process_time()
    threads1 = thread_cpu(store)
    if profile is not None:
        profile.disable()
    if floor is not None:
        floor.stop()
    await checkpoint(store)
    io1, rows = io_bytes(), row_bytes.take()
    tx1, commits1 = store.writer_stats
    moves = max(clients.moves, 1)
    out: dict[str, Any] = {
        "moves": clients.moves,
        "moves_per_s": round(clients.moves / took, 1),
        "submit_p50_ms": round(statistics.median(clients.latencies), 2),
        "submit_p95_ms": round(pct(clients.latencies, 95), 2),
        "submit_p99_ms": round(pct(clients.latencies, 99), 2),
        "disk_bytes_per_move": round((io1["write_bytes"] - io0["write_bytes"]) / moves),
        "written_bytes_per_move": round((io1["wchar"] - io0["wchar"]) / moves),
        "row_bytes_per_move": round(rows / moves),
        "moves_per_commit": round((tx1 - tx0) / max(commits1 - commits0, 1), 1),
        # CPU time of the whole process (all its threads) per move: less at the mercy of other
        # work on the machine than the rates.
        "cpu_ms_per_move": round(1000 * (cpu1 - cpu0) / moves, 3),
        "rss_mb": round(rss_mb()),
        "window_peak_rss_mb": round(peak_rss_mb()),
    }
    if threads0 and threads1:
        # Where the CPU per move goes: the event loop's thread, the writer's, the reader's.
        out["cpu_ms_per_move_by_thread"] = {
            name: round(1000 * (threads1[name] - threads0[name]) / moves, 3) for name in threads0}
    if floor is not None:
        out.update(floor.run())
        out["floor_ratio"] = round(out["cpu_ms_per_move"] / max(out["floor_cpu_ms_per_move"], 1e-9), 2)
    return out


async def wal_pages(service: GameService, clients: Clients, moves: int, path: Path) -> dict[str, float]:
    """Which b-trees (tables and indexes) `moves` moves write, in pages per move: the -wal
    file's frames, each a whole page, named with SQLite's dbstat table."""
    db = service.store._writer_db  # type: ignore[attr-defined]
    await db.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
    await db.execute_fetchall("PRAGMA wal_autocheckpoint = 0")
    done0 = clients.moves

    async def client() -> None:
        while clients.moves - done0 < moves:
            picked = clients.pick()
            if picked is None:
                return
            await clients.submit(*picked)

    await asyncio.gather(*(client() for _ in range(32)))
    made = clients.moves - done0
    wal = Path(f"{path}-wal").read_bytes()
    await db.execute_fetchall("PRAGMA wal_autocheckpoint = 1000")
    reader = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = {page: name for name, page in reader.execute("SELECT name, pageno FROM dbstat")}
    finally:
        reader.close()
    page_size = int.from_bytes(wal[8:12], "big")
    counts: dict[str, int] = {}
    for offset in range(32, len(wal) - 24 - page_size + 1, 24 + page_size):
        name = names.get(int.from_bytes(wal[offset:offset + 4], "big"), "?")
        counts[name] = counts.get(name, 0) + 1
    return {name: round(n / max(made, 1), 2) for name, n in sorted(counts.items(), key=lambda kv: -kv[1])}


SETUP_FORMAT = 1  # bump when what the set-up plays changes


def setup_cache_files(args: argparse.Namespace) -> tuple[Path, Path] | None:
    """Where `--setup-cache` keeps the set-up of these arguments: (database, games list), named
    by the arguments that shape it and the schema version of the code that played it (None:
    no cache). A database saved by an older schema is not reused: its migration would time
    the migrated rows, not the rows this code writes."""
    if args.setup_cache is None:
        return None
    from store.migrations import latest_version

    key = f"active-g{args.games}-d{args.depth}-p{args.plans}-s{latest_version()}-f{SETUP_FORMAT}"
    args.setup_cache.mkdir(parents=True, exist_ok=True)
    return args.setup_cache / f"{key}.sqlite3", args.setup_cache / f"{key}.json"


async def play_setup(service: GameService, plans: Plans, seeds: FixedSeeds, args: argparse.Namespace,
                     say: Callable[..., None]) -> tuple[list[tuple[int, Any]], dict[int, int]]:
    """Create `games` games and play each to a depth of 0..`depth` moves (seeded)."""
    t0 = time.perf_counter()
    games: list[tuple[int, Any]] = []
    for start in range(0, args.games, 200):
        games.extend(await create_many(service, plans, seeds, start, min(200, args.games - start)))
    say(f"  {len(games)} games created and started in {time.perf_counter() - t0:.1f} s", flush=True)
    # Each game is played on to its depth by one worker in one go (so it stays in the cache
    # while it is moved: the set-up does not pay for cache misses).
    rng = random.Random(16)
    depth = {gid: rng.randrange(max(1, min(args.depth, len(actions) - 20))) for gid, (_, actions) in games}
    cursor = {gid: 0 for gid, _ in games}
    todo = list(games)
    t0, cpu0 = time.perf_counter(), time.process_time()
    setup = Clients(service, games, cursor, 0)

    async def advance() -> None:
        while todo:
            gid, (channel, actions) = todo.pop()
            while cursor[gid] < depth[gid]:
                await setup.submit(gid, channel, actions)

    await asyncio.gather(*(advance() for _ in range(64)))
    say(f"  played {setup.moves} moves to bring them to their depths (mean "
        f"{statistics.mean(depth.values()):.1f}) in {time.perf_counter() - t0:.1f} s "
        f"({time.process_time() - cpu0:.0f} s of CPU)", flush=True)
    return games, cursor


async def save_setup(store: Store, path: Path, games: list[tuple[int, Any]], cursor: dict[int, int],
                     files: tuple[Path, Path]) -> None:
    """Keep the database just set up and its games (the -wal folded in first), for the next run."""
    await checkpoint(store)
    database, listing = files
    part = database.with_suffix(".part")
    shutil.copyfile(path, part)
    # Nothing is in flight and the -wal was just folded in, so the copy is whole: it says it
    # was closed cleanly, as a bot's database after a stop would (store/commits.py).
    copy = sqlite3.connect(part, isolation_level=None)
    try:
        copy.execute("UPDATE store_state SET running = 0 WHERE id = 1")
    finally:
        copy.close()
    # The game's channel is 10,000 + its plan's index (create_many): enough to find its moves.
    listing.write_text(json.dumps([[gid, channel, cursor[gid]] for gid, (channel, _) in games]))
    part.replace(database)


async def restore_setup(service: GameService, plans: Plans, files: tuple[Path, Path],
                        say: Callable[..., None]) -> tuple[list[tuple[int, Any]], dict[int, int]]:
    """The games of a kept set-up (its database is already in place: `active` copies it), each
    loaded once into the service's cache, as a set-up just played leaves them."""
    t0, cpu0 = time.perf_counter(), time.process_time()
    games: list[tuple[int, Any]] = []
    cursor: dict[int, int] = {}
    for gid, channel, at in json.loads(files[1].read_text()):
        games.append((gid, (channel, plans.records[(channel - 10_000) % len(plans)][3])))
        cursor[gid] = at
    for gid, _ in games:
        await service.reads.view(gid)
    # A snapshot this process did not write is checked against a full replay of its log in the
    # background (app/loader.py); a set-up just played wrote them all itself. Without waiting,
    # the window would measure those checks (several ms of CPU a game) with the moves.
    await service.loader.checks_done()
    # A set-up just played also leaves the store's read cache holding each game's plans and its
    # players' settings (every turn that began read them: store/read_cache.py); so does this.
    for gid, _ in games:
        await service.store.plans.get(gid)
        loaded = service.loader.cached(gid)
        if loaded is not None:
            await service.store.user_settings.get([s.user_id for s in loaded.seats if s.user_id is not None])
    say(f"  {len(games)} games from the kept set-up {files[0].name}, loaded into the cache and their "
        f"snapshots checked in {time.perf_counter() - t0:.1f} s ({time.process_time() - cpu0:.0f} s of CPU)",
        flush=True)
    return games, cursor


async def active(folder: Path, plans: Plans, seeds: FixedSeeds, args: argparse.Namespace) -> dict[str, Any]:
    """Issue 16's scenario: `games` games being played, each `0..depth` moves in, and a
    service with a cache of `cache` games (default: the service's own). `clients` players move games
    picked at random for `seconds` (after `warm` seconds unmeasured, which bring the cache to
    what a running bot's holds); then a burst: one submit to each of `burst` games, all at
    once; then (with --restart) the same players for `seconds` on a service just restarted."""
    say = (lambda *a, **k: None) if args.json else print
    path = folder / "active.sqlite3"
    if args.collector == "bot":
        from app.collector import tune_collector

        tune_collector()  # as the bot does at start (bot.py)
    cached = setup_cache_files(args)
    if cached is not None and cached[0].exists():
        shutil.copyfile(cached[0], path)  # the kept set-up itself is never written to
    store = await open_store(path, max_batch=128)
    if args.wal_autocheckpoint:
        await store._writer_db.execute_fetchall(  # type: ignore[attr-defined]
            f"PRAGMA wal_autocheckpoint = {int(args.wal_autocheckpoint)}")
    row_bytes = RowBytes(store)
    service = GameService(store, cache_size=args.cache, random_bits=seeds.randbits, limits=UNLIMITED)
    if args.snapshot_every and hasattr(service.loader, "snapshot_every"):
        service.loader.snapshot_every = args.snapshot_every
    out: dict[str, Any] = {"games": args.games, "cache": service.cache_size, "clients": args.clients,
                           "snapshot_every": getattr(service.loader, "snapshot_every", 1)}
    try:
        cached = setup_cache_files(args)
        if cached is not None and cached[1].exists():
            games, cursor = await restore_setup(service, plans, cached, say)
            out["mean_depth"] = round(statistics.mean(cursor.values()), 1)
        else:
            games, cursor = await play_setup(service, plans, seeds, args, say)
            out["mean_depth"] = round(statistics.mean(cursor.values()), 1)
            if cached is not None:
                await save_setup(store, path, games, cursor, cached)

        clients = Clients(service, games, cursor, 1)
        if args.warm > 0:
            await clients.run(args.clients, args.warm)
        floor = Floor(store, path) if args.floor else None
        profile = cProfile.Profile() if args.profile else None
        out.update(await window(service, clients, args, row_bytes, floor, profile))
        if profile is not None:
            profile.dump_stats(args.profile)
        say(f"\n[active] {len(games)} games (mean {out['mean_depth']} moves in), cache {out['cache']}, "
            f"{args.clients} clients, {args.seconds:.0f} s after {args.warm:.0f} s of warm-up")
        say(f"  {out['moves_per_s']:.0f} moves/s ({out['moves']} moves, {out['moves_per_commit']} per commit; "
            f"{out['cpu_ms_per_move']} ms of CPU per move)")
        say(line("submit latency", clients.latencies))
        if "cpu_ms_per_move_by_thread" in out:
            say("  CPU per move by thread (ms): " + ", ".join(
                f"{name} {ms}" for name, ms in out["cpu_ms_per_move_by_thread"].items()))
        if floor is not None:
            say(f"  plain sqlite3, the same statements in the same {out['floor_moves']} moves' commit groups: "
                f"{out['floor_cpu_ms_per_move']} ms of CPU per move (the store: {out['cpu_ms_per_move']} ms, "
                f"x{out['floor_ratio']}); {out['pages_per_move']} pages written to the -wal per move")
        say(f"  p95 {out['submit_p95_ms']} ms; per move: disk written {out['disk_bytes_per_move']} B, "
            f"write calls {out['written_bytes_per_move']} B, row values {out['row_bytes_per_move']} B; "
            f"RSS {out['rss_mb']} MB, peak in the window {out['window_peak_rss_mb']} MB", flush=True)

        if args.pages:
            out["wal_pages_per_move"] = pages = await wal_pages(service, clients, args.pages, path)
            say("  pages written to the -wal per move, by b-tree: "
                + ", ".join(f"{name} {n}" for name, n in pages.items()), flush=True)

        if args.burst:
            # One submit to each of `burst` games at once, as a flood of clicks would be.
            chosen = [(gid, channel, actions) for gid, (channel, actions) in games if cursor[gid] < len(actions)]
            random.Random(2).shuffle(chosen)
            chosen = chosen[:args.burst]
            burst = Clients(service, games, cursor, 2)
            gc.collect()
            reset_peak()
            rss0 = rss_mb()
            began = time.perf_counter()
            await asyncio.gather(*(burst.submit(gid, channel, actions) for gid, channel, actions in chosen))
            took = time.perf_counter() - began
            out.update({
                "burst": len(chosen),
                "burst_s": round(took, 2),
                "burst_moves_per_s": round(len(chosen) / took, 1),
                "burst_p95_ms": round(pct(burst.latencies, 95), 1),
                "burst_rss_before_mb": round(rss0),
                "burst_peak_rss_mb": round(peak_rss_mb()),
            })
            say(f"\n[burst] {len(chosen)} submits at once: done in {took:.1f} s "
                f"({out['burst_moves_per_s']:.0f} moves/s); RSS {rss0:.0f} MB before, "
                f"peak {out['burst_peak_rss_mb']} MB")
    finally:
        t0 = time.perf_counter()
        await service.close()
        out["close_s"] = round(time.perf_counter() - t0, 1)
    out["peak_rss_mb"] = max(out.get("window_peak_rss_mb", 0), out.get("burst_peak_rss_mb", 0))

    if args.cache_memory:
        out["cache_bytes_per_game"] = per_game = await cache_memory(path, [gid for gid, _ in games][:args.cache_memory])
        say(f"\n[cache] {per_game / 1024:.1f} KB per cached game (tracemalloc over {args.cache_memory} games "
            f"loaded into a fresh service's cache: row, seats, state)")

    if args.restart:
        # The same players on a service just started on this database: nothing in its cache,
        # no snapshot known good yet (each is checked in the background on first load).
        store = await open_store(path, max_batch=128)
        row_bytes = RowBytes(store)
        service = GameService(store, cache_size=args.cache, limits=UNLIMITED)
        if args.snapshot_every and hasattr(service.loader, "snapshot_every"):
            service.loader.snapshot_every = args.snapshot_every
        try:
            after = await window(service, Clients(service, games, cursor, 3), args, row_bytes)
            stats = getattr(service.loader, "stats", None)
            checked = stats.checked if stats is not None else 0
            out.update({f"restart_{k}": v for k, v in after.items() if k in (
                "moves_per_s", "submit_p50_ms", "submit_p95_ms", "disk_bytes_per_move")})
            out["restart_checked"] = checked
            say(f"\n[restart] {after['moves_per_s']:.0f} moves/s, submit p50 {after['submit_p50_ms']} ms, "
                f"p95 {after['submit_p95_ms']} ms; {checked} snapshots checked in the background meanwhile")
        finally:
            await service.close()
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", choices=("writers", "active"), default="writers",
                        help="writers: sections 1-4 below the title; active: many games past the cache")
    parser.add_argument("--games", type=int, default=None, help="games (writers: 1,000; active: 10,000)")
    parser.add_argument("--cache", type=int, default=None,
                        help="active: the service's cache (games; default: the service's own, by its memory budget)")
    parser.add_argument("--clients", type=int, default=32, help="active: players submitting at once")
    parser.add_argument("--depth", type=int, default=80, help="active: games are 0..DEPTH moves in")
    parser.add_argument("--warm", type=float, default=5.0, help="active: unmeasured seconds before the window")
    parser.add_argument("--burst", type=int, default=10000, help="active: submits fired at once after the window")
    parser.add_argument("--snapshot-every", type=int, default=0, help="active: the loader's snapshot cadence")
    parser.add_argument("--wal-autocheckpoint", type=int, default=0,
                        help="active: SQLite's wal_autocheckpoint (pages; default: SQLite's 1000)")
    parser.add_argument("--pages", type=int, default=0,
                        help="active: this many more moves, and which b-trees they write (pages per move)")
    parser.add_argument("--no-floor", dest="floor", action="store_false",
                        help="active: skip the plain-sqlite3 run of the window's statements")
    parser.add_argument("--profile", type=Path, default=None,
                        help="active: cProfile the window's main thread into this file")
    parser.add_argument("--cache-memory", type=int, default=1000,
                        help="active: games loaded into a fresh cache to measure its bytes per game (0: skip)")
    parser.add_argument("--setup-cache", type=Path, default=None,
                        help="active: keep the set-up (database and games) in this folder and reuse it "
                             "when the same arguments and schema version come again")
    parser.add_argument("--collector", choices=("bot", "python"), default="bot",
                        help="active: the cycle collector's thresholds as the bot sets them (app/collector.py) "
                             "or Python's own")
    parser.add_argument("--restart", action="store_true", help="active: also measure a service just restarted")
    parser.add_argument("--json", action="store_true", help="active: print one JSON object only")
    parser.add_argument("--seconds", type=float, default=None,
                        help="length of one sustained round (writers: 4) or of the window (active: 20)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per writer configuration")
    parser.add_argument("--single", type=int, default=600, help="single submits to time")
    parser.add_argument("--plans", type=int, default=100, help="distinct self-play games to replay")
    parser.add_argument("--dir", type=Path, default=None, help="where to put the temporary databases")
    args = parser.parse_args()
    if args.scenario == "active":
        args.games = args.games or 10_000
        args.seconds = args.seconds or 20.0
        if not args.json:
            print(f"pre-playing {args.plans} self-play games …", flush=True)
        plans = Plans(args.plans)
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            out = await active(Path(tmp), plans, FixedSeeds(), args)
        if args.json:
            print(json.dumps(out))
        return
    args.games = args.games or 1000
    args.seconds = args.seconds or 4.0

    print(f"RSS at start {rss_mb():.0f} MB; pre-playing {args.plans} self-play games …", flush=True)
    t0 = time.perf_counter()
    plans = Plans(args.plans)
    moves = sum(len(r[3]) for r in plans.records)
    print(f"  {moves} moves in {time.perf_counter() - t0:.1f} s; RSS {rss_mb():.0f} MB")
    seeds = FixedSeeds()

    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        folder = Path(tmp)
        await single_submits(folder, plans, seeds, args.single)
        print(f"\n[3] sustained, {args.games} games, every game's player acting at once; "
              f"{args.rounds} rounds of {args.seconds:.0f} s per configuration")
        print(f"  (load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
        await sustained(folder, plans, seeds, args.games, args.seconds, args.rounds)


if __name__ == "__main__":
    asyncio.run(main())
