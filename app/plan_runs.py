"""Running the stored plans of the turns a commit brings (issue 29), inside that commit.

When a commit's moves begin a turn whose seat has a plan, `planned_turns` plays that plan
(app/plans/run.py) on the state after those moves; if the plan ends its turn and the next
seat has one too, that one runs as well, and so on. The service stores the plans' moves, the
plans taken (deleted, or the next turn's kept) and a private line to each planner in the same
transaction as the moves that brought the turn (app/core.py, `commit`): a plan runs exactly
once — a crash before the commit leaves the turn not yet arrived and the plan waiting, a crash
after it leaves both done — and before anyone is pinged, since the pings are owed by that
commit for whoever the game waits for at its end. A plan whose seat changed hands, or that no
longer reads (a newer bot's format), is dropped; a step that applies to nothing drops the plan
and the player is pinged as usual. The AI standing in for an absent player plays only after
(app/moves.py, in a commit of its own): it never overrides a plan.

Nothing here logs a plan or a move's content: the log names games, seats and step numbers.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field

from app.models import Seat
from app.owed import Owed, turn_began
from app.plans import PlanBook, PlanError, run_plan
from engine.actions import Action
from engine.events import Event
from engine.game import actors, opening
from engine.state import GameState, canonical_json
from store import Store

log = logging.getLogger("app.service")

# The private line to a planner: which step of their plan ran (or that it was dropped).
PLAN_DM = "plan"


@dataclass(slots=True)
class PlannedTurns:
    """What the plans of a commit did: the moves they played (seat, user, action, events), the
    state after them, the plans taken (seat, the revision read, the plans left as JSON or None)
    and the private lines owed."""

    state: GameState
    played: list[tuple[int, int | None, Action, list[Event]]] = field(default_factory=list)
    taken: list[tuple[int, int, str | None]] = field(default_factory=list)
    owed: list[Owed] = field(default_factory=list)


async def planned_turns(store: Store, game_id: int, seats: Sequence[Seat], events: Sequence[Event],
                        after: GameState, seq: int) -> PlannedTurns | None:
    """Run the plans of the turns that `events` (a commit's, ending at `seq` in `after`) bring;
    None when there is none to run."""
    if not turn_began(events) or after.status != "playing" or opening(after):
        return None
    rows = {r.seat: r for r in await store.plans.get(game_id)}
    if not rows:
        return None
    out = PlannedTurns(after)
    while out.state.status == "playing" and actors(out.state) == [out.state.current] and out.state.current in rows:
        seat = out.state.current
        row = rows.pop(seat)
        book = _book(row.plans) if seats[seat].user_id == row.user_id else None
        if book is None or not book.plans:
            out.taken.append((seat, row.revision, None))
            log.info("game %d: the plan of seat %d is dropped (not its player's, or unreadable)", game_id, seat)
            break
        plan = book.plans[0]
        run = run_plan(out.state, seat, plan)
        rest = book.after_next()
        out.taken.append((seat, row.revision, canonical_json(rest.to_json()) if rest.plans else None))
        first = seq + 1
        step: int | str | None = None if run.step is None else (
            "fallback" if run.step == len(plan.steps) else run.step + 1)
        payload = {"seat": seat, "step": step, "from_seq": first, "to_seq": seq + len(run.moves),
                   "finished": run.finished}
        out.owed.append(Owed(PLAN_DM, f"{PLAN_DM}:{first}:{seat}", user_id=row.user_id, payload=payload))
        log.info("game %d: seat %d's plan %s", game_id, seat,
                 "dropped (no step applied)" if step is None else f"ran (step {step}, {len(run.moves)} moves)")
        for action, evs in run.moves:
            out.played.append((seat, row.user_id, action, evs))
        seq += len(run.moves)
        out.state = run.state
        if not run.finished:
            break
    return out


def _book(text: str) -> PlanBook | None:
    try:
        return PlanBook.from_json(json.loads(text))
    except (PlanError, ValueError):
        return None
