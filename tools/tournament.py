"""Tournaments between computer players.

    python -m tools.tournament --variant usa --players 2 --games 400 --ai hard,greedy --seed 1
    python -m tools.tournament --variant europe --players 4 --games 100 --ai hard,greedy,greedy,greedy --json

`--ai` names one agent per seat (cycled when shorter than the table): a level (easy, normal,
hard, random, greedy) or an agent of ai/agents (the 2017 baselines route_focus,
destination_hungry, one_step, long_route; the fifth baseline network, the joint-network
planner; planner, search). Seats rotate between games: each deal (seed) is
played once with every rotation of the agents around the table, so no agent owes a result to
its seat or its cards. Prints per agent: wins (a shared win counts for each winner), the win
rate with its 95 % Wilson interval, the mean score, tickets completed per game, and the
decision time p50/p95 (CPU seconds of the one process playing, so other
programs on the machine do not inflate it; that agent's decisions only). `--json` prints
one JSON object instead: {"agents": {NAME: {"games", "wins", "win_rate", ...}}}.

The players' moves depend only on the seeds: a tournament replays exactly, whatever `--jobs`
says (games run in worker processes); only the timings differ from run to run.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ai.levels import make_ai
from engine.actions import Action
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import actors, apply, legal_actions, new_game, view
from engine.rulesets import available_variants
from engine.state import GameState

MAX_DECISIONS = 20_000  # a game longer than this is a bug: it is reported as stalled

Check = Callable[[GameState, Action | None, GameState, list[Event]], None]


@dataclass
class SeatResult:
    """One agent's seat in one game."""

    agent: str
    seat: int
    score: int
    won: bool
    shared: bool
    tickets_completed: int
    tickets: int
    times: list[float] = field(default_factory=list)


@dataclass
class GameResult:
    seed: int
    rotation: int
    seats: list[SeatResult]
    ended: str
    decisions: int
    actions: list[Action] = field(default_factory=list)


def seating(agents: Sequence[str], players: int, rotation: int) -> list[str]:
    """The agent in each seat for one rotation: the list cycled to the table's size, turned
    by `rotation` places."""
    table = [agents[i % len(agents)] for i in range(players)]
    r = rotation % players
    return table[-r:] + table[:-r] if r else table


def play(variant: str, players: int, seed: int, seats: Sequence[str], options: dict[str, Any] | None = None,
         check: Check | None = None, keep_actions: bool = False, rotation: int = 0) -> GameResult:
    """Play one game, `seats[i]` the agent in seat i. Each decision gets a fresh agent seeded
    from the game's seed, the seat and the decision's number (as the bot does: an AI keeps no
    memory between moves)."""
    state, events = new_game(variant, players, seed, options, first_player=0)
    if check:
        check(state, None, state, events)
    times: list[list[float]] = [[] for _ in range(players)]
    actions: list[Action] = []
    ended = ""
    n = 0
    while not state.game_over:
        if n >= MAX_DECISIONS:
            ended = "stalled"
            break
        seat = actors(state)[0]
        ai = make_ai(seats[seat], (seed * 1_000_003 + seat * 7919 + n) & 0xFFFFFFFF)
        started = time.process_time()
        legal = legal_actions(state, seat)
        seen = view(state, seat) if ai.uses_view else None
        action = ai.choose(seen, legal)
        times[seat].append(time.process_time() - started)
        try:
            after, events = apply(state, action)
        except IllegalAction as exc:  # chosen from legal_actions: an engine or AI bug
            raise AssertionError(f"{seats[seat]} chose a refused action {action} ({exc})") from exc
        if check:
            check(state, action, after, events)
        if keep_actions:
            actions.append(action)
        state = after
        n += 1
    if not ended:
        ended = "deadlock" if state.passes_in_a_row >= players else "end"
    result = state.result or {"sheets": [], "winners": []}
    winners = set(result.get("winners", []))
    sheets = {s["seat"]: s for s in result.get("sheets", [])}
    out = []
    for seat in range(players):
        sheet = sheets.get(seat, {})
        rows = sheet.get("tickets", [])
        out.append(SeatResult(
            agent=seats[seat], seat=seat, score=int(sheet.get("total", 0)), won=seat in winners,
            shared=seat in winners and len(winners) > 1,
            tickets_completed=sum(1 for t in rows if t.get("completed")), tickets=len(rows), times=times[seat]))
    return GameResult(seed, rotation, out, ended, n, actions)


def schedule(games: int, players: int, seed: int, first: int = 0) -> list[tuple[int, int]]:
    """(deal seed, rotation) of each game: every deal is played with each rotation in turn.
    `first`: the number of the first game (a tournament played in parts)."""
    return [(seed + g // players, g % players) for g in range(first, first + games)]


def _play_one(args: tuple[str, int, int, int, tuple[str, ...], dict[str, Any]]) -> GameResult:
    variant, players, deal, rotation, agents, options = args
    return play(variant, players, deal, seating(agents, players, rotation), options, rotation=rotation)


def run(variant: str, players: int, games: int, agents: Sequence[str], seed: int = 1,
        options: dict[str, Any] | None = None, jobs: int = 1,
        progress: Callable[[GameResult], None] | None = None, first: int = 0) -> list[GameResult]:
    """Play a tournament (or its games from number `first` on); results in game order
    whatever `jobs` is."""
    work = [(variant, players, deal, rot, tuple(agents), dict(options or {}))
            for deal, rot in schedule(games, players, seed, first)]
    if jobs <= 1:
        results = []
        for item in work:
            results.append(_play_one(item))
            if progress:
                progress(results[-1])
        return results
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        results = []
        for result in pool.imap(_play_one, work):
            results.append(result)
            if progress:
                progress(result)
    return results


# --- figures ------------------------------------------------------------------------------


def wilson(wins: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def summary(results: Sequence[GameResult]) -> dict[str, Any]:
    """Per agent: games (seats played), wins, win rate and interval, mean score, tickets,
    decision times."""
    by_agent: dict[str, list[SeatResult]] = {}
    for game in results:
        for seat in game.seats:
            by_agent.setdefault(seat.agent, []).append(seat)
    agents: dict[str, Any] = {}
    for name, seats in by_agent.items():
        n = len(seats)
        wins = sum(1 for s in seats if s.won)
        times = [t for s in seats for t in s.times]
        low, high = wilson(wins, n)
        agents[name] = {
            "games": n,
            "wins": wins,
            "shared_wins": sum(1 for s in seats if s.shared),
            "win_rate": wins / n if n else 0.0,
            "win_rate_95": [low, high],
            "mean_score": statistics.fmean(s.score for s in seats) if seats else 0.0,
            "tickets_completed": statistics.fmean(s.tickets_completed for s in seats) if seats else 0.0,
            "tickets_completed_rate": (sum(s.tickets_completed for s in seats) / max(1, sum(s.tickets for s in seats))),
            "decisions": len(times),
            "decision_p50_s": _quantile(times, 0.5),
            "decision_p95_s": _quantile(times, 0.95),
            "decision_max_s": max(times, default=0.0),
        }
    endings: dict[str, int] = {}
    for game in results:
        endings[game.ended] = endings.get(game.ended, 0) + 1
    return {"agents": agents, "games": len(results), "endings": endings}


def lines(report: dict[str, Any], header: str) -> list[str]:
    out = [header,
           f"{'agent':<20} {'games':>5} {'wins':>5} {'win rate':>9} {'95 % interval':>15} {'score':>7} "
           f"{'tickets':>7} {'p50 s':>7} {'p95 s':>7}"]
    for name, a in sorted(report["agents"].items()):
        low, high = a["win_rate_95"]
        out.append(f"{name:<20} {a['games']:>5} {a['wins']:>5} {100 * a['win_rate']:>8.1f}% "
                   f"{100 * low:>6.1f}–{100 * high:>5.1f}% {a['mean_score']:>7.1f} {a['tickets_completed']:>7.2f} "
                   f"{a['decision_p50_s']:>7.4f} {a['decision_p95_s']:>7.4f}")
    out.append("games ended: " + ", ".join(f"{k} {v}" for k, v in sorted(report["endings"].items())))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="usa", choices=available_variants())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--ai", default="hard,greedy", help="agents, one per seat, comma-separated")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dice", action="store_true", help="play with the Dice Expansion")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON",
                        help="a table option, e.g. --option alsace_stations=true")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (results do not depend on it)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--out", help="also write the JSON report to this file")
    parser.add_argument("--progress", action="store_true", help="print a line per game to stderr")
    args = parser.parse_args(argv)
    agents = [a.strip() for a in args.ai.split(",") if a.strip()]
    options: dict[str, Any] = {"dice": True} if args.dice else {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = json.loads(value) if value else True
    try:
        for name in set(agents):
            make_ai(name, 0)
    except ValueError as exc:
        parser.error(str(exc))

    def progress(game: GameResult) -> None:
        scores = ", ".join(f"{s.agent} {s.score}{'*' if s.won else ''}" for s in game.seats)
        print(f"seed {game.seed} rotation {game.rotation}: {scores}", file=sys.stderr, flush=True)

    started = time.perf_counter()
    try:
        results = run(args.variant, args.players, args.games, agents, args.seed, options, args.jobs,
                      progress if args.progress else None)
    except IllegalAction as exc:
        print(f"cannot play: {exc}", file=sys.stderr)
        return 2
    report = summary(results)
    report.update(variant=args.variant, players=args.players, ai=agents, seed=args.seed, options=options,
                  seconds=time.perf_counter() - started)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1, sort_keys=True)
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        dice = " + dice" if options.get("dice") else ""
        header = (f"{args.variant}{dice}, {args.players} players, {args.games} games, agents {','.join(agents)}, "
                  f"seed {args.seed}, {report['seconds']:.1f} s")
        print("\n".join(lines(report, header)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
