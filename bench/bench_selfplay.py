"""Self-play speed: whole 4-player Europe games with the random AI, on one core.

    python bench/bench_selfplay.py [--rounds 5] [--games 100] [--variant europe] [--players 4]
    python bench/bench_selfplay.py --breakdown      # where the time goes (adds timer overhead)
    python bench/bench_selfplay.py --dice           # the same games with the Dice Expansion
    python bench/bench_selfplay.py --all            # every variant, without and with dice: a table

`--all` plays every variant (4 players, Nordic 3) without and with dice, one round of each in
turn (so a slow minute of the shared machine touches every row alike), each in a process of its
own, and prints the median games/s per row.

Plays two games to warm up (loading the map, building the rule set), then `rounds` rounds of
`games` games, each round with seeds of its own (the engine keeps the actions it lists for
reuse, so replaying the same games would flatter it), and prints games per second per round,
their median and best: this machine's speed wanders by ±10 % between runs, so one number alone
misleads. Targets: at least 50 games/s for 4-player Europe (issue 2), at least 30 for every
variant with and without dice (issue 16).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.levels import make_ai  # noqa: E402
from engine.game import actors, apply, legal_actions, new_game, view  # noqa: E402
from tools.selfplay import play_game  # noqa: E402


def one_round(variant: str, players: int, games: int, ai: str, options: dict[str, Any],
              first_seed: int = 1000) -> tuple[float, int]:
    """Seconds of CPU time for `games` games (seeds from `first_seed` on), and the decisions
    they took."""
    started = time.process_time()
    decisions = 0
    for g in range(games):
        decisions += len(play_game(variant, players, first_seed + g, (ai,), options).actions)
    return time.process_time() - started, decisions


def warm_up(variant: str, players: int, ai: str, options: dict[str, Any]) -> None:
    """Two games on seeds no round plays, so that no round pays for loading the map."""
    one_round(variant, players, 2, ai, options, first_seed=1)


def every_variant(rounds: int, games: int, ai: str, variants: list[str]) -> None:
    """A table of games/s (median of `rounds`) for every variant, without and with dice.

    Each row of each round runs in a process of its own, as a single table would: variants
    played one after another in one process slow the later ones down (the allocator's and
    the caches' state; up to 15 % for the last rows)."""
    rows = [(v, dice) for v in variants for dice in (False, True)]
    rates: dict[tuple[str, bool], list[float]] = {row: [] for row in rows}
    script = str(Path(__file__).resolve())
    for r in range(rounds):
        for variant, dice in rows:
            players = 3 if variant == "nordic" else 4
            command = [sys.executable, script, "--variant", variant, "--players", str(players), "--games", str(games),
                       "--rounds", "1", "--first-round", str(r), "--ai", ai, *(["--dice"] if dice else [])]
            out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
            rates[(variant, dice)].append(float(out.split("median")[1].split()[0]))
        print(f"round {r + 1} of {rounds} done", file=sys.stderr)
    print("| variant | players | without dice | with dice |")
    print("|---|---|---|---|")
    for variant in variants:
        players = 3 if variant == "nordic" else 4
        cells = [f"{statistics.median(rates[(variant, d)]):.1f}" for d in (False, True)]
        print(f"| {variant} | {players} | {cells[0]} | {cells[1]} |")


def breakdown(variant: str, players: int, games: int, ai: str, options: dict[str, Any]) -> None:
    """Time each step of the self-play loop separately."""
    parts = {"new_game": 0.0, "legal_actions": 0.0, "view": 0.0, "choose": 0.0, "apply": 0.0}
    clock = time.process_time
    for g in range(games):
        t0 = clock()
        state, _ = new_game(variant, players, 1000 + g, options)
        parts["new_game"] += clock() - t0
        ais = [make_ai(ai, g * 31 + i) for i in range(players)]
        while not state.game_over:
            seat = actors(state)[0]
            a = clock()
            legal = legal_actions(state, seat)
            b = clock()
            seen = view(state, seat) if ais[seat].uses_view else None
            c = clock()
            action = ais[seat].choose(seen, legal)
            d = clock()
            state, _ = apply(state, action)
            e = clock()
            parts["legal_actions"] += b - a
            parts["view"] += c - b
            parts["choose"] += d - c
            parts["apply"] += e - d
    total = sum(parts.values())
    for name, seconds in parts.items():
        print(f"  {name:<14} {1000 * seconds / games:6.2f} ms/game  ({100 * seconds / total:4.1f}%)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--variant", default="europe")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--ai", default="random")
    parser.add_argument("--breakdown", action="store_true")
    parser.add_argument("--dice", action="store_true", help="play with the Dice Expansion")
    parser.add_argument("--all", action="store_true",
                        help="every variant without and with dice (4 players, Nordic 3): a table of medians")
    parser.add_argument("--variants", default="", help="with --all: a comma-separated subset")
    parser.add_argument("--first-round", type=int, default=0, help="number the rounds from this one (their seeds)")
    args = parser.parse_args()
    if args.all:
        from engine.rulesets import available_variants

        variants = args.variants.split(",") if args.variants else available_variants()
        print(f"{args.rounds} rounds of {args.games} games per row, {args.ai} AI, CPU time, medians in games/s")
        every_variant(args.rounds, args.games, args.ai, variants)
        return
    options: dict[str, Any] = {"dice": True} if args.dice else {}

    dice = " + dice" if args.dice else ""
    print(f"{args.rounds} rounds of {args.games} {args.players}-player {args.variant}{dice} games, {args.ai} AI, "
          "CPU time")
    if args.breakdown:
        breakdown(args.variant, args.players, args.games, args.ai, options)
        return
    warm_up(args.variant, args.players, args.ai, options)
    rates = []
    for r in range(args.first_round, args.first_round + args.rounds):
        seconds, decisions = one_round(args.variant, args.players, args.games, args.ai, options,
                                       first_seed=1000 + r * args.games)
        rates.append(args.games / seconds)
        print(f"round {r + 1}: {rates[-1]:5.1f} games/s, {decisions / seconds:6.0f} decisions/s, "
              f"{decisions / args.games:.0f} decisions per game")
    print(f"games/s  median {statistics.median(rates):.1f}  best {max(rates):.1f}  worst {min(rates):.1f}")


if __name__ == "__main__":
    main()
