"""Final scoring: route points, then each rule module's lines, then the winner."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.core import Game
    from engine.rules.module import RuleModule


def add_points(sheet: dict[str, Any], line: str, points: int) -> None:
    """Add `points` to one named line of a score sheet and to its total, so the lines always
    sum to the total. `line` is a stable id ("routes", "tickets_won", "stations", ...) or, for a
    bonus, the bonus's name as the rulebook prints it."""
    lines = sheet["lines"]
    lines[line] = lines.get(line, 0) + points
    sheet["total"] += points


def add_bonus(sheet: dict[str, Any], label: str, points: int) -> None:
    """Award a named bonus: its own line of the sheet, and an entry in `bonuses` (which the
    tie-breaks read)."""
    sheet["bonuses"][label] = sheet["bonuses"].get(label, 0) + points
    add_points(sheet, label, points)


ROUTES_LINE = {"routes": "Routes"}


def score_line_names(modules: Iterable[RuleModule]) -> dict[str, str]:
    """Every line a rule set's score sheet may hold, in scoring order: id -> rulebook name."""
    names = dict(ROUTES_LINE)
    for module in modules:
        names.update(module.score_line_names())
    return names


def final_scores(game: Game) -> dict[str, Any]:
    """The final score sheets (one per seat), the winners and the tie-break that decided.

    Every point of a total is on one named line of its sheet (`lines`, in the order the rule
    modules scored them), so the lines sum to the total. Route points are recounted from the
    routes each player holds at the end, so a route that changed hands during the game scores
    for its final owner only."""
    s = game.state
    sheets: list[dict[str, Any]] = []
    for p in s.players:
        routes = sum(s.route_scored.get(r, 0) for r in p.routes)
        sheets.append({"seat": p.seat, "name": game.name(p.seat), "routes": routes, "bonuses": {},
                       "lines": {"routes": routes}, "total": routes})
    for module in game.rules.modules:
        module.score(game, sheets)
    best = max(sheet["total"] for sheet in sheets)
    contenders = [sheet for sheet in sheets if sheet["total"] == best]
    decided_by: list[str] = []
    for tie_break in game.rules.tie_breaks:
        if len(contenders) < 2:
            break
        keys = [tie_break.key(game, sheet) for sheet in contenders]
        top = max(keys)
        narrowed = [sheet for sheet, key in zip(contenders, keys, strict=True) if key == top]
        if len(narrowed) < len(contenders):
            decided_by.append(tie_break.label)
        contenders = narrowed
    ranking = sorted(range(len(sheets)), key=lambda i: (-sheets[i]["total"], i))
    return {
        "sheets": sheets,
        "winners": [sheet["seat"] for sheet in contenders],
        "tie_break": decided_by,
        "ranking": ranking,
    }
