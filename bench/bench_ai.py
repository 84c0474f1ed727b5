"""The AI benchmarks of docs/ai.md: the target tournaments, every variant's invariants under the
agents, and the decision times.

    python bench/bench_ai.py targets --out bench-ai [--games 400] [--chunk 20] [--jobs 1] [--only europe] [--start 0]
    python bench/bench_ai.py report --out bench-ai          # the table for docs/ai.md
    python bench/bench_ai.py variants --out bench-variants [--games 100] [--chunk 10] [--only germany]
    python bench/bench_ai.py report --out bench-variants --set variants
    python bench/bench_ai.py invariants [--games 100]       # every variant, with and without dice
    python bench/bench_ai.py targets --out arm --only network --search BUDGET=24000 [--search ...]
    python bench/bench_ai.py pair --out arm --base base     # the arm against a base, game by game

`targets` plays, for the 2-player USA and Europe tables, the hard AI against each baseline
agent and the greedy AI, and hard + 3 greedy on 4-player Europe and USA. The pairings are played in
rounds of `--chunk` games each, each chunk saved as it ends (`OUT/<pairing>-<first game>.json`), so
a run that is stopped resumes where it was. Long: run it under `nice -n 19`, in the
background. `report` merges the chunks and prints one row per pairing: games, the hard AI's
wins and win rate with its 95 % interval, mean scores, and decision times.

`variants` plays the hard AI against the greedy AI, 2 players, on every variant with and
without the Dice Expansion (dice tables first: they are cheaper), chunked and resumable the
same way; `report --set variants` prints its table, with the hard AI's decision p95 and max.

`--search NAME=VALUE` plays with one of the hard AI's search constants changed (ai/agents/search.py,
e.g. `BUDGET`, `LATE_TRAINS`, `CONFIDENCE`): an experiment's arm, in its own `--out`. `pair` then
compares it with a base played on the same deals: per pairing, the games both played, each side's
wins with their 95 % intervals, the flips (games only one side won) and the sign test's p; then
each side's tickets completed (hard / opponent), hard's mean margin and decision CPU p95 / max.

`invariants` plays `--games` tournament games on every variant, with and without the Dice
Expansion, the agents rotating through the seats, checking after every move every invariant
of tests/engine/test_selfplay_invariants.py (cards and trains conserved, routes owned once, views
without secrets, JSON round trips, score lines).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.rulesets import available_variants, build_ruleset  # noqa: E402
from tools import tournament  # noqa: E402
from tools.tournament import GameResult, SeatResult, wilson  # noqa: E402

# The four 2017 agents, and the fifth: the joint-network planner (ai/agents/network.py).
BASELINES = ("route_focus", "destination_hungry", "one_step", "long_route", "network")
# (name, variant, players, agents, table options)
Pairing = tuple[str, str, int, tuple[str, ...], dict[str, Any]]
PAIRINGS: list[Pairing] = [
    *[(f"{v}-2p-hard-vs-{o}", v, 2, ("hard", o), {}) for v in ("usa", "europe") for o in (*BASELINES, "greedy")],
    *[(f"{v}-4p-hard-vs-3-greedy", v, 4, ("hard", "greedy", "greedy", "greedy"), {}) for v in ("europe", "usa")],
]
# Hard against greedy on every variant, the dice tables first (cheaper), then Germany.
_ORDER = ("usa", "europe", "nordic", "germany", "ussr", "alsace")
VARIANT_PAIRINGS: list[Pairing] = [
    *[(f"{v}-2p-dice-hard-vs-greedy", v, 2, ("hard", "greedy"), {"dice": True}) for v in _ORDER],
    *[(f"{v}-2p-hard-vs-greedy", v, 2, ("hard", "greedy"), {})
      for v in ("germany", *(o for o in _ORDER if o != "germany"))],
]
SETS = {"targets": PAIRINGS, "variants": VARIANT_PAIRINGS}
SEED = 1000


def _save(path: Path, results: list[GameResult]) -> None:
    data = [dataclasses.asdict(dataclasses.replace(r, actions=[])) for r in results]
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    tmp.replace(path)


def _load(path: Path) -> list[GameResult]:
    out = []
    for g in json.loads(path.read_text()):
        seats = [SeatResult(**s) for s in g.pop("seats")]
        out.append(GameResult(seats=seats, **g))
    return out


def targets(out: Path, games: int, chunk: int, jobs: int, only: str | None, start: int = 0,
            pairings: list[Pairing] = PAIRINGS) -> None:
    out.mkdir(parents=True, exist_ok=True)
    # Round by round (a chunk of every pairing, then the next): a run stopped early has played
    # about as many games of each pairing.
    for first in range(start, games, chunk):
        for name, variant, players, agents, options in pairings:
            if only and only not in name:
                continue
            path = out / f"{name}-{first:04d}.json"
            if path.exists():
                continue
            started = time.time()
            results = tournament.run(variant, players, min(chunk, games - first), agents, SEED, options, jobs,
                                     first=first)
            _save(path, results)
            hard = sum(1 for g in results for s in g.seats if s.agent == "hard" and s.won)
            slowest = max((t for g in results for s in g.seats if s.agent == "hard" for t in s.times), default=0.0)
            print(f"{name} games {first}-{first + len(results) - 1}: hard won {hard}, "
                  f"{time.time() - started:.0f} s, slowest decision {slowest:.2f} s CPU", flush=True)


def set_search(settings: list[str]) -> dict[str, int | float | bool]:
    """Change the hard AI's search constants for this run (`NAME=VALUE`, the constant's own
    type); ValueError with one sentence for a name or value that is not one."""
    from ai.agents import search

    changed: dict[str, int | float | bool] = {}
    for setting in settings:
        name, _, text = setting.partition("=")
        old = getattr(search, name, None) if name.isupper() else None
        if not isinstance(old, (int, float)) or not text:
            raise ValueError(f"--search {setting}: not NAME=VALUE for a number or switch of ai/agents/search.py")
        try:
            value: int | float | bool = (text.lower() in ("1", "true", "on") if isinstance(old, bool)
                                         else type(old)(text))
        except ValueError:
            kind = "whole number" if isinstance(old, int) else "number"
            raise ValueError(f"--search {setting}: {text!r} is not a {kind}") from None
        setattr(search, name, value)
        if name == "BUDGET":  # the agent's own budget (tests lower it the same way)
            search.SearchAI.budget = int(value)
        changed[name] = value
    return changed


def _played(out: Path, name: str) -> dict[tuple[int, int], GameResult]:
    # Workers that started at different points (or with other chunk sizes) may have played
    # the same game: each (deal, rotation) counts once.
    played: dict[tuple[int, int], GameResult] = {}
    for path in sorted(out.glob(f"{name}-[0-9]*.json")):
        for result in _load(path):
            played.setdefault((result.seed, result.rotation), result)
    return played


def sign_test(a: int, b: int) -> float:
    """Two-sided sign test: how likely a split at least as uneven as a : b of the flips is
    when either side is as likely to win a flip."""
    n = a + b
    if n == 0:
        return 1.0
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(min(a, b) + 1)) / 2**n)


def pair(out: Path, base: Path, pairings: list[Pairing] = PAIRINGS) -> None:
    """The arm in `out` against the base in `base`, on the games both played."""
    print("| pairing | games both played | arm wins | 95 % interval | base wins | 95 % interval "
          "| flips arm / base | sign test p |")
    print("|---|---|---|---|---|---|---|---|")
    for name, *_ in pairings:
        arm, then = _played(out, name), _played(base, name)
        both = sorted(arm.keys() & then.keys())
        if not both:
            continue
        won = {k: (_hard_won(arm[k]), _hard_won(then[k])) for k in both}
        a, b = sum(w for w, _ in won.values()), sum(w for _, w in won.values())
        only_arm = sum(1 for w, v in won.values() if w and not v)
        only_base = sum(1 for w, v in won.values() if v and not w)
        n = len(both)
        (al, ah), (bl, bh) = wilson(a, n), wilson(b, n)
        print(f"| {name} | {n} | {a} ({100 * a / n:.1f} %) | {100 * al:.1f}–{100 * ah:.1f} % "
              f"| {b} ({100 * b / n:.1f} %) | {100 * bl:.1f}–{100 * bh:.1f} % | {only_arm} / {only_base} "
              f"| {sign_test(only_arm, only_base):.2f} |")


def _seats(games: list[GameResult], hard: bool) -> list[SeatResult]:
    return [s for g in games for s in g.seats if (s.agent == "hard") == hard]


def _margin(result: GameResult) -> int:
    """The hard AI's score minus the best other score."""
    mine = max(s.score for s in result.seats if s.agent == "hard")
    return mine - max((s.score for s in result.seats if s.agent != "hard"), default=0)


def _figures(games: list[GameResult]) -> str:
    """Tickets completed a game (hard / the others), hard's mean margin, hard's decision p95 / max."""
    hard, others = _seats(games, True), _seats(games, False)
    times = sorted(t for s in hard for t in s.times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
    return (f"{sum(s.tickets_completed for s in hard) / max(1, len(hard)):.2f} / "
            f"{sum(s.tickets_completed for s in others) / max(1, len(others)):.2f} "
            f"| {sum(_margin(g) for g in games) / max(1, len(games)):+.1f} "
            f"| {p95:.3f} / {max(times, default=0.0):.2f}")


def pair_figures(out: Path, base: Path, pairings: list[Pairing] = PAIRINGS) -> None:
    """What changed besides the wins, on the games both played: each side's tickets completed,
    mean margin and hard's decision CPU p95 / max (seconds)."""
    print("| pairing | side | tickets completed hard / opp. | hard's mean margin | hard p95 / max s |")
    print("|---|---|---|---|---|")
    for name, *_ in pairings:
        arm, then = _played(out, name), _played(base, name)
        both = sorted(arm.keys() & then.keys())
        if both:
            print(f"| {name} | arm | {_figures([arm[k] for k in both])} |")
            print(f"| {name} | base | {_figures([then[k] for k in both])} |")


def _hard_won(result: GameResult) -> bool:
    return any(s.agent == "hard" and s.won for s in result.seats)


def report(out: Path, pairings: list[Pairing] = PAIRINGS) -> None:
    print("| table | opponent | games | hard wins | win rate | 95 % interval | mean score hard / opp. "
          "| hard p50 / p95 / max s | opp. p95 s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, variant, players, agents, options in pairings:
        results = list(_played(out, name).values())
        if not results:
            continue
        figures = tournament.summary(results)["agents"]
        hard = figures["hard"]
        opp_name = agents[1]
        opp = figures[opp_name]
        low, high = hard["win_rate_95"]
        n_games = len(results)
        table = f"{variant}{' + dice' if options.get('dice') else ''} {players}p"
        print(f"| {table} | {'3 × ' if players == 4 else ''}{opp_name} | {n_games} | {hard['wins']} "
              f"| {100 * hard['win_rate']:.1f} % | {100 * low:.1f}–{100 * high:.1f} % "
              f"| {hard['mean_score']:.1f} / {opp['mean_score']:.1f} "
              f"| {hard['decision_p50_s']:.4f} / {hard['decision_p95_s']:.3f} / {hard['decision_max_s']:.2f} "
              f"| {opp['decision_p95_s']:.4f} |")


def invariants(games: int, jobs: int) -> int:
    from tests.engine.test_selfplay_invariants import InvariantChecker

    agents = ("hard", *BASELINES, "greedy", "random")
    failures = 0
    print("| variant | dice | players | games | ended at the end | seconds |")
    print("|---|---|---|---|---|---|")
    for variant in available_variants():
        for dice in (False, True):
            options: dict[str, Any] = {"dice": True} if dice else {}
            rules = build_ruleset(variant, 2 if variant != "germany" else 3, options)
            started = time.process_time()
            ended: dict[str, int] = {}
            for g in range(games):
                players = rules.min_players + g % (rules.max_players - rules.min_players + 1)
                seats = [agents[(g + i) % len(agents)] for i in range(players)]
                try:
                    result = tournament.play(variant, players, SEED + g, seats, options,
                                             check=InvariantChecker(variant, players))
                    ended[result.ended] = ended.get(result.ended, 0) + 1
                except AssertionError as exc:
                    failures += 1
                    print(f"FAILED {variant} dice={dice} game {g} {seats}: {exc}", flush=True)
                    ended["failed"] = ended.get("failed", 0) + 1
            print(f"| {variant} | {'yes' if dice else 'no'} | {rules.min_players}–{rules.max_players} | {games} "
                  f"| {ended.get('end', 0)} | {time.process_time() - started:.0f} |", flush=True)
    return 1 if failures else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=("targets", "variants", "report", "pair", "invariants"))
    parser.add_argument("--set", choices=tuple(SETS), default="targets", help="report: which pairings")
    parser.add_argument("--out", type=Path, default=Path("bench-ai"))
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--only", help="only the pairings whose name contains this")
    parser.add_argument("--start", type=int, default=0,
                        help="targets: begin at this game (a second worker plays later games than the first)")
    parser.add_argument("--search", action="append", default=[], metavar="NAME=VALUE",
                        help="targets/variants: play with this search constant of the hard AI changed")
    parser.add_argument("--base", type=Path, help="pair: the base's --out, played on the same deals")
    args = parser.parse_args()
    if args.search:
        if args.what not in ("targets", "variants"):
            parser.error("--search changes the games played: use it with targets or variants")
        if args.jobs > 1:
            parser.error("--search changes this process's AI only: use it with --jobs 1")
        try:
            print("search constants changed:", set_search(args.search), flush=True)
        except ValueError as exc:
            parser.error(str(exc))
    if args.what == "pair" and args.base is None:
        parser.error("pair needs --base, the directory of the games to compare with")
    if args.what == "targets":
        targets(args.out, args.games or 400, args.chunk, args.jobs, args.only, args.start)
    elif args.what == "variants":
        targets(args.out, args.games or 100, args.chunk, args.jobs, args.only, args.start, VARIANT_PAIRINGS)
    elif args.what == "report":
        report(args.out, SETS[args.set])
    elif args.what == "pair":
        pair(args.out, args.base, SETS[args.set])
        print()
        pair_figures(args.out, args.base, SETS[args.set])
    else:
        return invariants(args.games or 100, args.jobs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
