"""Self-play: AI players play whole games, for figures and for finding bugs.

    python -m tools.selfplay --variant europe --players 4 --games 100 --seed 1

prints games per second, turns per game, the average score, the ticket completion rate and
how the games ended. `--blunders` also judges every move (tools/blunders.py) and prints, per
level, the count of each blunder of the list per 100 games:

    python -m tools.selfplay --variant europe --players 2 --games 100 --ai normal,hard --blunders
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ai.levels import AI_LEVELS, make_ai
from engine.actions import Action
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import actors, apply, legal_actions, new_game, view
from engine.rulesets import available_variants
from engine.state import GameState
from tools.blunders import BLUNDERS, Judge

# A game that takes more decisions than this is reported as stalled (a bug to look at).
MAX_DECISIONS = 20_000


@dataclass
class GameRecord:
    """One finished self-play game."""

    seed: int
    state: GameState
    actions: list[Action] = field(default_factory=list)
    ended: str = ""


def play_game(
    variant: str,
    players: int,
    seed: int,
    levels: Sequence[str] = ("random",),
    options: dict | None = None,
    check: Callable[[GameState, Action | None, GameState, list[Event]], None] | None = None,
) -> GameRecord:
    """Play one game between AIs (`levels` is cycled over the seats). `check`, if given, is
    called after every action with (before, action, after, events)."""
    state, events = new_game(variant, players, seed, options)
    if check:
        check(state, None, state, events)
    ais = [make_ai(levels[i % len(levels)], seed * 31 + i) for i in range(players)]
    record = GameRecord(seed, state)
    while not state.game_over:
        if len(record.actions) >= MAX_DECISIONS:
            record.ended = "stalled"
            break
        seat = actors(state)[0]
        legal = legal_actions(state, seat)
        seen = view(state, seat) if ais[seat].uses_view else None
        action = ais[seat].choose(seen, legal)
        try:
            after, events = apply(state, action)
        except IllegalAction as exc:  # an AI chose from legal_actions: this is an engine bug
            raise AssertionError(f"legal action refused: {action} ({exc})") from exc
        if check:
            check(state, action, after, events)
        record.actions.append(action)
        state = after
    record.state = state
    if not record.ended:
        record.ended = "deadlock" if state.passes_in_a_row >= players else "trains"
    return record


def blunder_lines(blunders: dict[str, Counter[str]], seats_of: Counter[str]) -> list[str]:
    """Per level: each blunder's count per 100 games of that level (a game counted once per
    seat the level held)."""
    out = ["blunders per 100 games " + " ".join(f"{b:>13}" for b in BLUNDERS)]
    for level in sorted(seats_of):
        found = blunders.get(level, Counter())
        out.append(f"{level:<22} " + " ".join(f"{100 * found[b] / seats_of[level]:>13.1f}" for b in BLUNDERS))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="europe", choices=available_variants())
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai", default="random", help=f"AI level per seat, comma-separated ({', '.join(AI_LEVELS)})")
    parser.add_argument("--dice", action="store_true", help="play with the Dice Expansion")
    parser.add_argument("--blunders", action="store_true",
                        help="also count each blunder of the list per level, per 100 games (tools/blunders.py)")
    parser.add_argument("--balance", action="store_true",
                        help="also print a balance report: routes claimed, tickets completed, bonuses")
    args = parser.parse_args(argv)
    levels = args.ai.split(",")
    options = {"dice": True} if args.dice else {}

    started = time.perf_counter()
    decisions = 0
    turns = 0
    scores: list[int] = []
    tickets_done = tickets_all = 0
    endings: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    balance = None
    if args.balance:
        from engine.rulesets import build_ruleset
        from tools.balance import BalanceReport

        balance = BalanceReport(build_ruleset(args.variant, args.players, options).map_id)
    blunders: dict[str, Counter[str]] = {}
    seats_of: Counter[str] = Counter()
    for i in range(args.games):
        judge = Judge() if args.blunders else None
        try:
            record = play_game(args.variant, args.players, args.seed + i, levels, options,
                               judge.check if judge else None)
        except IllegalAction as exc:
            print(f"cannot play: {exc}", file=sys.stderr)
            return 2
        decisions += len(record.actions)
        if judge is not None:
            judge.finish(record.state)
            for seat in range(args.players):
                level = levels[seat % len(levels)]
                seats_of[level] += 1
                blunders.setdefault(level, Counter()).update(judge.of_seat(seat))
        if balance is not None:
            balance.add(record)
        turns += record.state.turn + 1
        endings[record.ended] += 1
        result = record.state.result or {"sheets": [], "winners": []}
        for sheet in result["sheets"]:
            scores.append(sheet["total"])
            tickets_all += len(sheet.get("tickets", []))
            tickets_done += sum(1 for t in sheet.get("tickets", []) if t["completed"])
        for seat in result["winners"]:
            wins[f"seat {seat + 1} ({levels[seat % len(levels)]})"] += 1
    elapsed = time.perf_counter() - started
    n = max(args.games, 1)
    print(f"variant {args.variant}{' + dice' if args.dice else ''}, {args.players} players, "
          f"{args.games} games, AI {args.ai}, seed {args.seed}")
    print(f"games/s            {args.games / elapsed:.1f}  ({elapsed:.2f} s)")
    print(f"turns per game     {turns / n:.1f}  ({decisions / n:.1f} decisions)")
    print(f"average score      {sum(scores) / max(len(scores), 1):.1f}")
    print(f"tickets completed  {100 * tickets_done / max(tickets_all, 1):.1f}%  ({tickets_done}/{tickets_all})")
    print("games ended        " + ", ".join(f"{k}: {v}" for k, v in sorted(endings.items())))
    print("wins               " + ", ".join(f"{k}: {v}" for k, v in sorted(wins.items())))
    if args.blunders:
        print("\n".join(blunder_lines(blunders, seats_of)))
    if balance is not None:
        print("\n".join(balance.lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
