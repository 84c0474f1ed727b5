"""Planned moves and the calendar (issue 29): how long an asynchronous game takes with plans and
without, when players come back at random moments hours apart.

    python bench/bench_plans.py [--games 12] [--players 4] [--variant usa] [--gap-hours 8]
    python bench/bench_plans.py --commit-cost     # the CPU the plans' look-up adds to a move

Each player visits the game at random moments (a Poisson process: exponential gaps with the
mean `--gap-hours`, each player's own stream, seeded). Without plans, a turn waits for its
player's next visit. With plans, every visit of a player who is not to move (and the end of
their own turn) writes a plan for their next turn with the normal AI — what it would do now,
were it its turn: a claim "if that route is still free", a face-up colour "if still shown",
else two cards blind — and when the turn comes, the plan plays it at once (app/plans/run.py,
the code the service runs); a plan that applies to nothing, or a turn it leaves unfinished
(which tickets to keep), waits for the player's visit as before. The same seeds (deal and
visits) are played both ways. Prints, per game, the calendar days each way and their ratio,
then the median ratio with its spread (quartiles, min–max), and the CPU time of a plan's run
against an AI's decision. Target (issue 29): a game with plans takes at most 0.6 × as long.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ai.levels import make_ai  # noqa: E402
from app.owed import turn_began  # noqa: E402
from app.plans import Condition, Plan, PlanMove, Step, run_plan  # noqa: E402
from engine.actions import Action, ClaimRoute, DrawCard, DrawTickets  # noqa: E402
from engine.game import actors, apply, legal_actions, new_game, view  # noqa: E402
from engine.state import GameState  # noqa: E402

HOUR = 3600.0
BLIND = (PlanMove({"type": "draw_card"}), PlanMove({"type": "draw_card"}))
MAX_DECISIONS = 20_000


@dataclass
class Cpu:
    plan_runs: int = 0
    plan_seconds: float = 0.0
    plans_written: int = 0
    write_seconds: float = 0.0
    decisions: int = 0
    decision_seconds: float = 0.0


@dataclass
class Visits:
    """Each player's visit times, drawn lazily from their own generator."""

    gap: float
    rngs: list[random.Random]
    next_at: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.next_at = [r.expovariate(1 / self.gap) for r in self.rngs]

    def advance(self, seat: int) -> None:
        self.next_at[seat] += self.rngs[seat].expovariate(1 / self.gap)

    def next_of(self, seat: int, after: float) -> float:
        while self.next_at[seat] < after:
            self.advance(seat)
        return self.next_at[seat]


def plan_for(state: GameState, seat: int, ai_seed: int, cpu: Cpu) -> Plan | None:
    """The normal AI's plan for `seat`'s next turn, from what it would do now."""
    start = time.process_time()
    what_if = state.clone()
    what_if.current, what_if.pending = seat, {"kind": "turn"}
    legal = legal_actions(what_if, seat)
    if not legal:
        return None
    mine = view(what_if, seat)
    choice = make_ai("normal", ai_seed).choose(mine, legal)
    plan: Plan | None
    if isinstance(choice, ClaimRoute):
        claim = PlanMove({"type": "claim_route", "route": choice.route, "payment": dict(choice.payment)})
        plan = Plan((Step(Condition("route_free", route=choice.route), (claim,)),), BLIND)
    elif isinstance(choice, DrawCard) and choice.slot is not None:
        colour = mine.display[choice.slot] or ""
        plan = Plan((Step(Condition("face_up", colour=colour),
                          (PlanMove({"type": "draw_card", "colour": colour}), PlanMove({"type": "draw_card"}))),),
                    BLIND)
    elif isinstance(choice, DrawTickets):
        plan = Plan((), (PlanMove({"type": "draw_tickets"}),))
    else:
        plan = Plan((), BLIND)
    cpu.plans_written += 1
    cpu.write_seconds += time.process_time() - start
    return plan


def play_turn(state: GameState, seat: int, seed: int, cpu: Cpu) -> GameState:
    """The player, present, plays the rest of their turn with the normal AI."""
    for n in range(MAX_DECISIONS):
        if state.status == "over" or seat not in actors(state):
            break
        start = time.process_time()
        action: Action = make_ai("normal", seed + n).choose(view(state, seat), legal_actions(state, seat))
        cpu.decisions += 1
        cpu.decision_seconds += time.process_time() - start
        state, events = apply(state, action)
        if turn_began(events):
            break
    return state


def opening(state: GameState, seed: int, cpu: Cpu) -> GameState:
    """Everyone chooses their opening tickets at once (the same both ways: not timed)."""
    while state.status == "setup":
        seat = actors(state)[0]
        state = play_turn(state, seat, seed, cpu)
    return state


def calendar(variant: str, players: int, seed: int, gap: float, plans: bool, cpu: Cpu) -> tuple[float, int]:
    """Calendar seconds of one game, and how many turns plans played."""
    state, _ = new_game(variant, players, seed)
    state = opening(state, seed, cpu)
    visits = Visits(gap, [random.Random(seed * 101 + s) for s in range(players)])
    book: dict[int, Plan] = {}
    now = 0.0
    planned = 0
    for _ in range(MAX_DECISIONS):
        if state.status == "over":
            break
        seat = state.current
        if plans and seat in book and actors(state) == [seat]:
            start = time.process_time()
            run = run_plan(state, seat, book.pop(seat))
            cpu.plan_runs += 1
            cpu.plan_seconds += time.process_time() - start
            state = run.state
            if run.finished:
                planned += 1
                continue
        # Wait for the player to come back; meanwhile, the others who visit refresh their plans.
        at = visits.next_of(seat, now)
        if plans:
            for other in range(players):
                if other == seat:
                    continue
                came = False
                while visits.next_of(other, now) <= at:
                    visits.advance(other)
                    came = True
                if came:  # the game stood still meanwhile: one plan, written from it as it stands
                    written = plan_for(state, other, seed + int(at), cpu)
                    if written is not None:
                        book[other] = written
        now = at
        visits.advance(seat)
        state = play_turn(state, seat, seed + int(now), cpu)
        if plans and state.status != "over":
            written = plan_for(state, seat, seed + int(now) + 1, cpu)
            if written is not None:
                book[seat] = written
    return now, planned


async def commit_cost(moves: int, rounds: int) -> None:
    """CPU per stored move through the service (SQLite), with the plans' look-up in every commit
    that begins a turn and with it switched off, in alternating rounds of one process."""
    import tempfile

    import app.core
    from app import Actor, GameService, Limits

    real = app.core.planned_turns

    async def none(*args: object, **kwargs: object) -> None:
        return None

    async def play(svc: GameService) -> tuple[float, int]:
        lobby = await svc.tables.create_lobby(guild_id=1, channel_id=1, host_user_id=1, host_name="a", variant="usa",
                                       seats_wanted=2)
        await svc.tables.join(lobby.game_id, 2, "b")
        g = (await svc.tables.start(lobby.game_id, 1)).game_id
        for user in (1, 2):
            await svc.moves.submit(g, Actor.user(user), (await svc.reads.legal_actions(g, user))[0],
                                   (await svc.reads.game(g)).seq)
        start, done = time.process_time(), 0
        while done < moves:
            summary = await svc.reads.game(g)
            if summary.status != "playing" or (await svc.reads.view(g, None)).deck < 4:
                break
            user = summary.seats[summary.waiting_for[0]].user_id
            assert user is not None
            await svc.moves.submit(g, Actor.user(user), {"type": "draw_card", "slot": None}, summary.seq)
            done += 1
        return time.process_time() - start, done

    figures: dict[str, list[float]] = {"with the plans' look-up": [], "without": []}
    with tempfile.TemporaryDirectory() as tmp:
        svc = await GameService.open(Path(tmp) / "bench.sqlite3", limits=Limits.unlimited())
        try:
            for _ in range(rounds):
                for label, hook in (("with the plans' look-up", real), ("without", none)):
                    app.core.planned_turns = hook  # type: ignore[assignment]
                    seconds, done = await play(svc)
                    figures[label].append(1000 * seconds / done)
        finally:
            app.core.planned_turns = real
            await svc.close()
    for label, ms in figures.items():
        print(f"CPU per stored move ({label}): median {statistics.median(ms):.3f} ms over {rounds} rounds "
              f"({', '.join(f'{m:.3f}' for m in ms)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", default="usa")
    parser.add_argument("--gap-hours", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=2029)
    parser.add_argument("--commit-cost", action="store_true",
                        help="instead: the CPU the plans' look-up adds to each stored move")
    args = parser.parse_args()
    if args.commit_cost:
        import asyncio

        asyncio.run(commit_cost(80, 5))
        return
    gap = args.gap_hours * HOUR
    cpu = Cpu()
    ratios = []
    print(f"{args.variant}, {args.players} players, visits every {args.gap_hours:g} h on average (exponential)")
    print("game  without (days)  with plans (days)  ratio  turns played by plans")
    for i in range(args.games):
        seed = args.seed + i
        without, _ = calendar(args.variant, args.players, seed, gap, False, Cpu())
        with_plans, planned = calendar(args.variant, args.players, seed, gap, True, cpu)
        ratio = with_plans / without
        ratios.append(ratio)
        print(f"{i + 1:4d}  {without / 86400:14.1f}  {with_plans / 86400:17.1f}  {ratio:5.2f}  {planned}")
    q = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else [ratios[0]] * 3
    print(f"ratio with/without: median {statistics.median(ratios):.2f}, quartiles {q[0]:.2f}–{q[2]:.2f}, "
          f"min–max {min(ratios):.2f}–{max(ratios):.2f} (target ≤ 0.60)")
    if cpu.plan_runs and cpu.decisions:
        print(f"CPU: a plan's run {1000 * cpu.plan_seconds / cpu.plan_runs:.2f} ms ({cpu.plan_runs} runs), "
              f"writing a plan {1000 * cpu.write_seconds / max(1, cpu.plans_written):.2f} ms, "
              f"an AI decision {1000 * cpu.decision_seconds / cpu.decisions:.2f} ms")


if __name__ == "__main__":
    main()
