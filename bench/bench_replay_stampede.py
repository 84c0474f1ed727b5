"""Benchmark: do replays hold back the turn posts of the games being played?

    .venv/bin/python bench/bench_replay_stampede.py [--games 20] [--moves 12] [--think 0.5]
        [--identical 30] [--different 30] [--rounds 2] [--seed 1] [--json]

Through the real discord.py client and the loopback fake Discord, with the real renderer (its
worker processes): first `--rounds × (--different + 1)` finished games are made (all-AI, USA
and Europe, 4 players: long games whose replays are not drawn yet). Then `--games` tables of
two people play, as in bench/bench_bot.py (each player acts on the turn post the thread shows,
after a random pause averaging `--think` seconds), in measured windows of `--moves` moves per
game, `--rounds` of each kind taking turns (so that other work on the machine falls on both):

- **calm**: nothing else happens;
- **stampede**: at the start of the window, `--identical` people ask `/ttr results replay` for the same
  finished game and `--different` people each for another one, all at once (games of their
  own for each round, so none is drawn yet).

For each kind of window it prints the p50 / p95 / max time from a player's command to the turn post
showing that move (board attached) and the ratio of the p95s (target: stampede ≤ 1.5 × calm),
and for the stampede what became of the replay requests (answered with the GIF during the
window or after it, pointed to the same replay already posted in the channel, refused in a
sentence) and how many replays were drawn. CPU time per turn
post, of the bench's process (bot, fake and players) and of its children (render workers), is
printed for each window: on a machine shared with other work the wall clock shows that work
too, the CPU figures do not.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bot import BenchFake, BenchTable, cpu_seconds, open_table  # noqa: E402

from tests.fake_discord import User  # noqa: E402
from tests.fake_discord.harness import start_bot  # noqa: E402

HOST = 900_000  # the finished games' hosts: HOST + n (the AI plays every seat)


async def finished_games(service: Any, guild_id: int, channel_id: int, n: int) -> list[int]:
    """`n` all-AI games played to the end through the service (no thread: nothing posted)."""
    out = []
    for k in range(n):
        lobby = await service.tables.create_lobby(guild_id, channel_id, HOST + k, f"host {k}", ("usa", "europe")[k % 2],
                                           seats_wanted=4, host_plays=False)
        for seat in range(4):
            await service.tables.add_ai(lobby.game_id, HOST + k, "greedy", expected_seats=seat)
        await service.tables.start(lobby.game_id, HOST + k)
        while (await service.reads.game(lobby.game_id)).status != "over":
            await service.moves.play_bots(lobby.game_id)
        out.append(lobby.game_id)
    return out


class Players:
    """The tables being played, each by two people, move after move (bench/bench_bot.py)."""

    def __init__(self, fake: BenchFake, service: Any, tables: list[BenchTable], people: list[list[User]],
                 think: float, seed: int) -> None:
        self.fake, self.service, self.tables, self.people = fake, service, tables, people
        self.think = think
        self.rngs = [random.Random(seed * 100_003 + g) for g in range(len(tables))]

    async def window(self, moves: int) -> list[float]:
        """Every table makes `moves` moves; the command → turn post time of each."""
        samples: list[float] = []
        await asyncio.gather(*(self._play(g, moves, samples) for g in range(len(self.tables))))
        return samples

    async def _play(self, g: int, moves: int, samples: list[float]) -> None:
        fake, service = self.fake, self.service
        done = 0
        while done < moves:
            table = self.tables[g]
            summary = await table.summary()
            if summary.status == "over":
                fake.forget(table.thread_id)
                self.tables[g] = await open_table(fake, service, self.people[g], "europe")
                continue
            if self.think > 0:
                await asyncio.sleep(self.rngs[g].expovariate(1 / self.think))
            user = table.user_of(self.people[g], summary.waiting_for[0], summary)
            view = await service.reads.view(table.game_id, user.id)
            legal = await service.reads.legal_actions(table.game_id, user.id)
            its = await table.perform(user, table.ai.choose(view, legal), legal, summary.seq)
            after = (await table.summary()).seq
            shown = await fake.shown_at(table.thread_id, after)
            samples.append(shown - its[-1].created)
            done += 1


def figures(samples: list[float]) -> dict[str, float]:
    samples = sorted(samples)
    return {"p50_ms": round(1000 * statistics.median(samples), 1),
            "p95_ms": round(1000 * samples[int(0.95 * (len(samples) - 1))], 1),
            "max_ms": round(1000 * samples[-1], 1), "posts": len(samples)}


async def measured(players: Players, moves: int) -> tuple[list[float], dict[str, float]]:
    """One window, with the CPU it took per turn post (this process; the render workers)."""
    c0, k0, _ = cpu_seconds()
    samples = await players.window(moves)
    c1, k1, _ = cpu_seconds()
    n = len(samples)
    return samples, {"cpu_main_ms_per_post": round(1000 * (c1 - c0) / n, 2),
                     "cpu_children_ms_per_post": round(1000 * (k1 - k0) / n, 2)}


async def stampede(fake: BenchFake, running: Any, players: Players, moves: int, crowd: list[User],
                   wanted: list[int]) -> tuple[list[float], dict[str, float], dict[str, Any]]:
    """A measured window with `crowd[i]` asking for the replay of `wanted[i]`, all at its start."""
    start = time.monotonic()
    ended: dict[int, float] = {}

    async def ask(user: User, game: int) -> str:
        it = await fake.slash(user, "replay", game=f"#{game}")
        await fake.answered(it, timeout=600)
        while True:
            replies = fake.reply_messages(it)
            if any(a["filename"] == "replay.gif" for m in replies for a in m.get("attachments") or ()):
                ended[user.id] = time.monotonic()
                return "gif"
            if replies and replies[-1]["flags"] & 64 and replies[-1]["content"]:
                ended[user.id] = time.monotonic()
                return "pointed" if "was just posted here" in replies[-1]["content"] else "refused"
            await asyncio.sleep(0.05)

    drawn_before = _drawn(running)
    asking = [asyncio.create_task(ask(u, g)) for u, g in zip(crowd, wanted, strict=True)]
    samples, cpu = await measured(players, moves)
    window_end = time.monotonic()
    outcomes = list(await asyncio.gather(*asking))
    during = sum(1 for u, o in zip(crowd, outcomes, strict=True) if o != "refused" and ended[u.id] <= window_end)
    asked = {"answered": outcomes.count("gif"), "pointed": outcomes.count("pointed"),
             "refused": outcomes.count("refused"), "drawn": _drawn(running) - drawn_before,
             "answered_during_window": during,
             "last_answer_s": round(max(ended.values()) - start, 1) if ended else 0.0}
    return samples, cpu, asked


async def run(games: int, moves: int, think: float, identical: int, different: int, rounds: int,
              seed: int) -> dict[str, Any]:
    os.environ.setdefault("TTR_RENDER_PREPARE", "europe")  # the tables' map, before the clock starts
    fake = BenchFake()
    await fake.start()
    running = await start_bot(fake, Path(tempfile.mkdtemp()) / "stampede.sqlite3")
    service = running.service
    from render.pool import default_pool

    await default_pool().prepared()
    calm: list[float] = []
    rush: list[float] = []
    calm_cpu: list[dict[str, float]] = []
    rush_cpu: list[dict[str, float]] = []
    asked: list[dict[str, Any]] = []
    try:
        t0 = time.monotonic()
        done = await finished_games(service, fake.guild_id, fake.channel_id, rounds * (1 + different))
        setup_s = time.monotonic() - t0
        people = [[fake.add_user(f"A{g}"), fake.add_user(f"B{g}")] for g in range(games)]
        tables = [await open_table(fake, service, people[g], "europe") for g in range(games)]
        players = Players(fake, service, tables, people, think, seed)
        await players.window(2)  # warm-up: every table past its opening tickets
        for r in range(rounds):
            samples, cpu = await measured(players, moves)
            calm += samples
            calm_cpu.append(cpu)
            games_now = done[r * (1 + different):(r + 1) * (1 + different)]
            crowd = [fake.add_user(f"Watcher {r}.{n}") for n in range(identical + different)]
            samples, cpu, outcome = await stampede(fake, running, players, moves, crowd,
                                                   [games_now[0]] * identical + games_now[1:])
            rush += samples
            rush_cpu.append(cpu)
            asked.append(outcome)
    finally:
        await running.stop()
        await fake.stop()
    a, b = figures(calm), figures(rush)
    return {
        "games": games, "moves_per_window": moves, "think_s": think, "rounds": rounds,
        "finished_games_setup_s": round(setup_s, 1),
        "calm": {**a, **_mean(calm_cpu)}, "stampede": {**b, **_mean(rush_cpu)},
        "p95_ratio": round(b["p95_ms"] / a["p95_ms"], 2) if a["p95_ms"] else None,
        "replay_requests": {"identical": identical, "different": different,
                            **{k: (max(x[k] for x in asked) if k == "last_answer_s" else sum(x[k] for x in asked))
                               for k in asked[0]}},
        "load_avg": round(os.getloadavg()[0], 2),
    }


def _mean(cpus: list[dict[str, float]]) -> dict[str, float]:
    return {k: round(statistics.mean(c[k] for c in cpus), 2) for k in cpus[0]}


def _drawn(running: Any) -> int:
    """Replays the bot drew for /ttr results replay so far (its request book's count, where it has one)."""
    books = [cog.replays for cog in running.bot.cogs.values() if hasattr(getattr(cog, "replays", None), "drawn")]
    return int(books[0].drawn) if books else -1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=12, help="measured moves per game in each window")
    parser.add_argument("--think", type=float, default=0.5, help="average pause before each move, seconds")
    parser.add_argument("--identical", type=int, default=30)
    parser.add_argument("--different", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=2, help="calm and stampede windows, taking turns")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    r = asyncio.run(run(args.games, args.moves, args.think, args.identical, args.different, args.rounds, args.seed))
    if args.json:
        print(json.dumps(r))
        return 0
    calm, stampede, asked = r["calm"], r["stampede"], r["replay_requests"]
    print(f"{r['games']} games × {r['moves_per_window']} moves per window (think {r['think_s']:g} s), {r['rounds']} "
          f"calm and {r['rounds']} stampede windows taking turns; at each stampede's start {asked['identical']} "
          f"identical + {asked['different']} different replay requests (finished games made in "
          f"{r['finished_games_setup_s']} s)")
    for name, w in (("calm", calm), ("stampede", stampede)):
        print(f"  {name:9} command → turn post p50 {w['p50_ms']:.0f} ms, p95 {w['p95_ms']:.0f} ms, max "
              f"{w['max_ms']:.0f} ms over {w['posts']} posts; CPU per post {w['cpu_main_ms_per_post']:.1f} ms "
              f"(bot) + {w['cpu_children_ms_per_post']:.1f} ms (render workers)")
    print(f"  p95 stampede / calm: {r['p95_ratio']} (target ≤ 1.5)")
    print(f"  replays: {asked['answered']} posted and {asked['pointed']} pointed to the post already in the channel "
          f"({asked['answered_during_window']} of them within the window, the last {asked['last_answer_s']} s after "
          f"the stampede), {asked['refused']} refused in a sentence, {asked['drawn']} drawn; load average "
          f"{r['load_avg']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
