"""Planned moves (issue 29): what a player says now they will do when their next turn arrives.

A plan is an ordered list of at most five steps, each "if <condition> then <moves>", and a
fallback. When the player's turn arrives the service plays the first step whose condition holds
and whose first move is legal, in the same commit as the move that brought the turn (so it runs
exactly once, across restarts), before anyone is pinged.

- `app.plans.model`: the plan as typed, JSON-serialisable values, and their bounds;
- `app.plans.conditions`: the conditions, each over what the player's own view shows;
- `app.plans.run`: choosing the step and playing its moves (pure: a state in, a state out).

Plans live beside the service, not in the engine: the engine knows nothing of them, and they
read the game only through the player's View and legal actions, as a computer player does.
"""

from app.plans.model import MAX_PLANS, MAX_STEPS, Condition, Plan, PlanBook, PlanError, PlanMove, Step
from app.plans.run import PlanRun, choose_step, run_plan

__all__ = ["MAX_PLANS", "MAX_STEPS", "Condition", "Plan", "PlanBook", "PlanError", "PlanMove", "PlanRun", "Step",
           "choose_step", "run_plan"]
