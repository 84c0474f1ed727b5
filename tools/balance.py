"""A balance report over many self-play games: which routes are claimed, which tickets are
completed, who gets the bonuses, how the scores spread.

    python -m tools.selfplay --variant ussr --players 4 --games 500 --ai greedy --seed 1 --balance

The figures show flaws in a board: a route nobody ever claims, a ticket that is hardly ever
completed, a bonus that always goes to everybody.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from engine.maps import load_map

if TYPE_CHECKING:
    from tools.selfplay import GameRecord


@dataclass
class BalanceReport:
    """Collects finished games (`add`) and prints the figures (`lines`)."""

    map_id: str
    games: int = 0
    scores: list[int] = field(default_factory=list)
    winning: list[int] = field(default_factory=list)
    claimed: Counter[str] = field(default_factory=Counter)
    held: Counter[str] = field(default_factory=Counter)
    completed: Counter[str] = field(default_factory=Counter)
    bonuses: Counter[str] = field(default_factory=Counter)
    bonus_games: Counter[str] = field(default_factory=Counter)
    shared: Counter[str] = field(default_factory=Counter)
    parts: Counter[str] = field(default_factory=Counter)
    actions: Counter[str] = field(default_factory=Counter)
    joint_wins: int = 0

    def add(self, record: GameRecord) -> None:
        state = record.state
        result = state.result
        if result is None:
            return
        self.games += 1
        self.claimed.update(state.route_owner)
        totals = [sheet["total"] for sheet in result["sheets"]]
        self.scores.extend(totals)
        self.winning.append(max(totals))
        self.joint_wins += len(result["winners"]) > 1
        for sheet in result["sheets"]:
            for row in sheet.get("tickets", []):
                self.held[row["id"]] += 1
                self.completed[row["id"]] += row["completed"]
            for part in ("routes", "tickets_won", "tickets_lost", "stations"):
                self.parts[part] += sheet.get(part, 0)
            for label, points in sheet["bonuses"].items():
                self.bonuses[label] += 1
                self.parts["bonuses"] += points
        per_bonus = Counter(label for sheet in result["sheets"] for label in sheet["bonuses"])
        for label, n in per_bonus.items():
            self.bonus_games[label] += 1
            self.shared[label] += n > 1
        self.actions.update(a.TYPE for a in record.actions)

    def lines(self) -> list[str]:
        game_map = load_map(self.map_id)
        n = max(self.games, 1)
        players = max(len(self.scores), 1)
        out = [f"balance over {self.games} games on map {self.map_id}"]
        scores = sorted(self.scores)
        if scores:
            out.append(f"  scores           mean {sum(scores) / len(scores):.1f}, median {scores[len(scores) // 2]}, "
                       f"min {scores[0]}, max {scores[-1]}; winner mean {sum(self.winning) / n:.1f}; "
                       f"joint wins {self.joint_wins}")
        out.append("  points per player " + ", ".join(f"{k} {v / players:.1f}" for k, v in sorted(self.parts.items())))
        for label in sorted(self.bonus_games):
            out.append(f"  bonus {label!r}: awarded in {100 * self.bonus_games[label] / n:.0f}% of games, "
                       f"shared in {self.shared[label]}")
        out.append("  actions per game " + ", ".join(f"{k} {v / n:.1f}" for k, v in sorted(self.actions.items())))
        never = [rid for rid in game_map.routes if not self.claimed[rid]]
        rates = sorted((self.claimed[rid] / n, rid) for rid in game_map.routes)
        out.append(f"  routes           {len(game_map.routes)}; never claimed: {len(never)} {never}")
        out.append("  least claimed    " + ", ".join(f"{rid} {100 * r:.0f}%" for r, rid in rates[:8]))
        out.append(f"  claimed per game {sum(self.claimed.values()) / n:.1f} routes")
        tickets = sorted(game_map.tickets)
        never_done = [t for t in tickets if self.held[t] and not self.completed[t]]
        never_held = [t for t in tickets if not self.held[t]]
        done_rates = sorted((self.completed[t] / self.held[t], t) for t in tickets if self.held[t])
        out.append(f"  tickets          {len(tickets)}; never held: {never_held}; "
                   f"held but never completed: {never_done}")
        out.append("  least completed  " + ", ".join(
            f"{t} {100 * r:.0f}% of {self.held[t]}" for r, t in done_rates[:8]))
        for deck in game_map.deck_names():
            ids = [t.id for t in game_map.ticket_deck(deck)]
            held = sum(self.held[t] for t in ids)
            done = sum(self.completed[t] for t in ids)
            out.append(f"  {deck:5} tickets     completed {100 * done / max(held, 1):.1f}% ({done}/{held})")
        return out
