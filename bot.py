"""Ticket to Ride for Discord: the entry point.

    python bot.py --demo [--variant V] [--players N] [--seed S] [--out DIR]

plays a whole game between computer players, offline, and writes its log. The Discord bot
itself (slash commands, threads, private hands) is the next piece of work; until it lands,
running without --demo explains what is there.

    python bot.py --backup PATH

copies the live game database to PATH with SQLite's online backup (safe while the bot runs).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.ai import AI_LEVELS
from engine.selfplay import play_game
from engine.variants import available_variants


def run_demo(variant: str, players: int, seed: int, out: Path, levels: list[str]) -> int:
    """Play one all-AI game and write its log and final scores into `out`."""
    record = play_game(variant, players, seed, levels)
    out.mkdir(parents=True, exist_ok=True)
    log = {
        "variant": variant,
        "players": players,
        "seed": seed,
        "actions": [a.to_json() for a in record.actions],
        "result": record.state.result,
    }
    (out / "game-log.json").write_text(json.dumps(log, indent=1, ensure_ascii=False), encoding="utf-8")
    result = record.state.result or {"sheets": [], "winners": []}
    lines = [f"{variant}, {players} players, seed {seed}: {len(record.actions)} decisions, ended by {record.ended}"]
    for sheet in sorted(result["sheets"], key=lambda s: -s["total"]):
        crown = " (winner)" if sheet["seat"] in result["winners"] else ""
        lines.append(
            f"  {sheet['name']:<10} {sheet['total']:>4}{crown}  routes {sheet['routes']}, "
            f"tickets +{sheet.get('tickets_won', 0)} {sheet.get('tickets_lost', 0)}, "
            f"bonuses {sheet['bonuses'] or '-'}"
        )
    (out / "final-scores.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    print(f"wrote {out / 'game-log.json'} and {out / 'final-scores.txt'}")
    return 0


def run_backup(dest: Path) -> int:
    """Copy the game database with SQLite's online backup; safe while the bot is running."""
    import asyncio

    from store import StoreError, backup_database, default_path

    source = default_path()
    try:
        written = asyncio.run(backup_database(source, dest))
    except (StoreError, OSError) as exc:
        print(f"backup failed: {exc}", file=sys.stderr)
        return 1
    print(f"backed up {source} to {written}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Ticket to Ride for Discord")
    parser.add_argument("--demo", action="store_true", help="play an offline all-AI game (no token needed)")
    parser.add_argument("--variant", default="europe", choices=available_variants())
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("demo-out"))
    parser.add_argument("--ai", default="greedy", help=f"AI level per seat, comma-separated ({', '.join(AI_LEVELS)})")
    parser.add_argument("--backup", type=Path, metavar="PATH",
                        help="copy the live game database ($TTR_DATABASE or data/ttr.sqlite3) to PATH and exit")
    args = parser.parse_args(argv)
    if args.backup is not None:
        return run_backup(args.backup)
    if args.demo:
        return run_demo(args.variant, args.players, args.seed, args.out, args.ai.split(","))
    print(
        "The Discord side of the bot is not built yet (it is the next issue).\n"
        "Meanwhile, watch the engine play a whole game offline:\n"
        "    python bot.py --demo --variant europe --players 4\n",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
