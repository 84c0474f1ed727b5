"""Declarative rule scenarios: a rigged position, some steps, and what must follow.

    python -m tools.scenarios tests/scenarios            # every *.yaml below the folder
    python -m tools.scenarios tests/scenarios/base/tunnels.yaml

prints one line per scenario and ends with "N passed, N failed". The format is documented in
docs/scenarios.md.
"""

from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from app.owed import turn_began
from app.plans import Plan, PlanBook, PlanError, run_plan
from app.plans.run import check_plan
from engine.actions import action_from_json
from engine.cards import cards
from engine.chance import RiggedDice
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import apply, load_game, new_game
from engine.maps import GameMap, load_map
from engine.state import GameState
from tools.scenario_names import with_ids

STEP_KEYS = {"by", "do", "refused", "expect", "note", "plan"}

# Reports an expectation that did not hold: what, the wanted value, the value found (it raises).
Fail = Callable[[str, Any, Any], None]


class ScenarioFailure(AssertionError):
    """A scenario's expectation did not hold."""


@dataclass
class Scenario:
    """One scenario as read from a file."""

    name: str
    source: str
    data: dict[str, Any]


def load_scenarios(path: Path) -> list[Scenario]:
    """The scenarios in one YAML file (a list, or documents separated by ---)."""
    out: list[Scenario] = []
    with path.open(encoding="utf-8") as handle:
        for doc in yaml.safe_load_all(handle):
            if doc is None:
                continue
            items = doc if isinstance(doc, list) else [doc]
            for item in items:
                if not isinstance(item, dict) or "name" not in item:
                    raise ScenarioFailure(f"{path}: every scenario needs a name")
                out.append(Scenario(str(item["name"]), str(path), item))
    return out


def find_files(paths: Sequence[str]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            files.extend(sorted(path.rglob("*.yaml")) + sorted(path.rglob("*.yml")))
        else:
            files.append(path)
    return files


# --- running -------------------------------------------------------------------------------


class Runner:
    """Runs one scenario: builds the rigged state, applies the steps, checks expectations."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        data = scenario.data
        players = data.get("players", 2)
        if isinstance(players, list):
            self.names = [str(n) for n in players]
        else:
            self.names = [f"P{i + 1}" for i in range(int(players))]
        self.chance: RiggedDice | None = None  # setup `dice`: every step rolls these first
        self.state = self._initial_state(data)
        self.last_events: list[Event] = []
        # Planned moves (app/plans): each seat's plan for its next turn, run when that turn
        # arrives, as the service runs it; and what each run did (a step's index, or "dropped").
        self.plans: dict[int, Plan] = {}
        self.plan_runs: dict[int, int | str] = {}

    # seats may be named by the scenario's player names or by 0-based numbers
    def seat(self, who: Any) -> int:
        if isinstance(who, int):
            return who
        if who in self.names:
            return self.names.index(who)
        raise ScenarioFailure(f"unknown player {who!r} (players: {', '.join(self.names)})")

    def _initial_state(self, data: dict[str, Any]) -> GameState:
        setup = data.get("setup", {}) or {}
        first = setup.get("current", 0)
        state, _ = new_game(
            data.get("variant", "usa"),
            len(self.names),
            int(data.get("seed", 1)),
            data.get("options") or {},
            first_player=self.seat(first),
            names=self.names,
        )
        if setup.get("deal") == "as_dealt":
            return state
        # The rigged position replaces the opening ticket choice unless it asks for it.
        state.status = "playing"
        state.pending = {"kind": "turn"}
        for p in state.players:
            p.tickets = []
        game = load_game(state)
        if "deck" in setup:
            state.deck = list(reversed(setup["deck"]))
        if "discard" in setup:
            state.discard = list(setup["discard"])
        if "display" in setup:
            state.display = [None if c in (None, "empty") else c for c in setup["display"]]
        if "ticket_decks" in setup:
            state.ticket_decks = {k: list(reversed(v)) for k, v in setup["ticket_decks"].items()}
        for who, hand in (setup.get("hands") or {}).items():
            state.players[self.seat(who)].hand = dict(cards(hand or {}))
        for who, tickets in (setup.get("tickets") or {}).items():
            for t in tickets:
                if t not in game.map.tickets:
                    raise ScenarioFailure(f"unknown ticket {t!r}")
            state.players[self.seat(who)].tickets = list(tickets)
        for who, routes in (setup.get("routes") or {}).items():
            self._give_routes(state, game.map, self.seat(who), routes)
        for who, n in (setup.get("trains") or {}).items():
            state.players[self.seat(who)].trains = int(n)
        for who, cities in (setup.get("stations") or {}).items():
            seat = self.seat(who)
            for city in cities:
                state.stations[city] = seat
                state.players[seat].stations -= 1
        if "pending" in setup:
            state.pending = self._rigged_pending(setup["pending"])
        if "final_turns_left" in setup:
            state.final_turns_left = setup["final_turns_left"]
        for key, value in (setup.get("extra") or {}).items():
            state.extra[key] = value
        for who, values in (setup.get("public") or {}).items():
            state.players[self.seat(who)].public.update(values or {})
        for who, values in (setup.get("private") or {}).items():
            state.players[self.seat(who)].private.update(values or {})
        for key, value in (setup.get("secret") or {}).items():
            # Lists are written top first, like every deck in a scenario.
            state.secret[key] = list(reversed(value)) if isinstance(value, list) else value
        if "dice" in setup:
            self._rig_dice(state, setup["dice"])
        return state

    @staticmethod
    def _give_routes(state: GameState, game_map: GameMap, seat: int, routes: list[str]) -> None:
        """`seat` holds `routes`, scored and paid for in trains, as if it had claimed them."""
        player = state.players[seat]
        for rid in routes:
            route = game_map.routes.get(rid)
            if route is None:
                raise ScenarioFailure(f"unknown route {rid!r}")
            points = game_map.points_for(route.length)
            state.route_owner[rid] = seat
            state.route_scored[rid] = points
            player.routes.append(rid)
            player.route_points += points
            player.trains -= route.length

    def _rigged_pending(self, pending: Any) -> dict[str, Any]:
        """The pending decision a setup names: a kind, or a mapping whose offers may be keyed by
        player."""
        out = {"kind": pending} if isinstance(pending, str) else dict(pending)
        if "offers" in out and isinstance(out["offers"], dict):
            offers: list[Any] = [None] * len(self.names)
            for who, offer in out["offers"].items():
                # Alsace: an offer may be {tickets: [...], tourist: [...], devils: [...]}.
                offers[self.seat(who)] = (
                    {k: list(v) for k, v in offer.items()} if isinstance(offer, dict) else list(offer)
                )
            out["offers"] = offers
        return out

    def _rig_dice(self, state: GameState, results: list[Any]) -> None:
        # Dice Expansion: die results consumed, in order, before the generator (every train,
        # re-roll and tunnel die of the scenario); a rigged turn start rolls at once.
        self.chance = RiggedDice(results)
        if state.pending.get("kind") == "turn":
            game = load_game(state, self.chance)
            for module in game.rules.modules:
                module.on_turn_start(game)
            game.finish()

    def run(self) -> None:
        for i, step in enumerate(self.scenario.data.get("steps") or []):
            self.step(i + 1, step)
        if "expect" in self.scenario.data:
            self.check(self.scenario.data["expect"], "at the end")

    def step(self, number: int, step: dict[str, Any]) -> None:
        unknown = set(step) - STEP_KEYS - {"slot", "route", "payment", "mix", "keep", "city"} - _extra_fields()
        if unknown:
            raise ScenarioFailure(f"step {number}: unknown keys {sorted(unknown)}")
        if "plan" in step:
            self._set_plan(number, step)
        elif "do" in step:
            action_json = {k: v for k, v in step.items() if k not in STEP_KEYS}
            action_json["type"] = step["do"]
            action_json["player"] = self.seat(step["by"])
            if "slot" in action_json and isinstance(action_json["slot"], str):
                action_json["slot"] = None if action_json["slot"] == "deck" else int(action_json["slot"])
            before = self.state.to_canonical()
            try:
                # Names in words are read as the bot reads them: the engine takes only ids.
                action = action_from_json(with_ids(load_map(self.state.map_id), self.state.route_owner, action_json))
                after, events = apply(self.state, action, self.chance)
            except IllegalAction as exc:
                if "refused" not in step:
                    raise ScenarioFailure(f"step {number}: {step['do']} was refused: {exc}") from None
                fragment = str(step["refused"])
                if fragment.lower() not in exc.message.lower():
                    raise ScenarioFailure(
                        f"step {number}: refused with {exc.message!r}, expected it to say {fragment!r}"
                    ) from None
                if self.state.to_canonical() != before:
                    raise ScenarioFailure(f"step {number}: a refused action changed the state") from None
            else:
                if "refused" in step:
                    raise ScenarioFailure(f"step {number}: {step['do']} was accepted, expected a refusal")
                self.state = after
                self.last_events = events
                if turn_began(events):
                    self._run_plans()
        if "expect" in step:
            self.check(step["expect"], f"after step {number}")

    def _set_plan(self, number: int, step: dict[str, Any]) -> None:
        seat = self.seat(step["by"])
        try:
            plan = Plan.from_json(step["plan"])
            check_plan(PlanBook((plan,)), self.state, seat)
        except PlanError as exc:
            fragment = str(step.get("refused", ""))
            if "refused" not in step or fragment.lower() not in exc.message.lower():
                raise ScenarioFailure(f"step {number}: the plan was refused: {exc}") from None
            return
        if "refused" in step:
            raise ScenarioFailure(f"step {number}: the plan was accepted, expected a refusal")
        self.plans[seat] = plan

    def _run_plans(self) -> None:
        """The turn that just arrived is a seat's with a plan: run it (and the next one's)."""
        while self.state.status == "playing" and self.state.current in self.plans:
            seat = self.state.current
            plan = self.plans.pop(seat)
            run = run_plan(self.state, seat, plan, self.chance)
            self.plan_runs[seat] = "dropped" if run.step is None else (
                "fallback" if run.step == len(plan.steps) else run.step + 1)
            self.state = run.state
            if run.moves:
                self.last_events = run.events
            if not run.finished:
                break

    # --- expectations -----------------------------------------------------------------
    def check(self, expect: dict[str, Any], where: str) -> None:
        s = self.state
        game = load_game(s)

        def fail(what: str, want: Any, got: Any) -> None:
            raise ScenarioFailure(f"{where}: {what}: expected {want!r}, got {got!r}")

        for key, want in expect.items():
            checker = _EXPECTATIONS.get(key)
            if checker is None:
                raise ScenarioFailure(f"{where}: unknown expectation {key!r}")
            checker(self, want, fail)
        del game

    def _expect_current(self, want: Any, fail: Fail) -> None:
        s = self.state
        if s.current != self.seat(want):
            fail("current player", want, self.names[s.current])

    def _expect_pending(self, want: Any, fail: Fail) -> None:
        s = self.state
        if isinstance(want, str):
            if s.pending.get("kind") != want:
                fail("pending decision", want, s.pending.get("kind"))
        else:
            for k, v in want.items():
                if s.pending.get(k) != v:
                    fail(f"pending {k}", v, s.pending.get(k))

    def _expect_hands(self, want: Any, fail: Fail) -> None:
        s = self.state
        for who, hand in want.items():
            got = s.players[self.seat(who)].hand
            if dict(cards(hand or {})) != got:
                fail(f"{who}'s hand", dict(cards(hand or {})), got)

    def _expect_hand_size(self, want: Any, fail: Fail) -> None:
        s = self.state
        for who, n in want.items():
            got = s.players[self.seat(who)].hand_size()
            if got != n:
                fail(f"{who}'s hand size", n, got)

    def _expect_display(self, want: Any, fail: Fail) -> None:
        s = self.state
        if s.display != want:
            fail("display", want, s.display)

    def _expect_deck_size(self, want: Any, fail: Fail) -> None:
        s = self.state
        if len(s.deck) != want:
            fail("deck size", want, len(s.deck))

    def _expect_deck_top(self, want: Any, fail: Fail) -> None:
        s = self.state
        got = list(reversed(s.deck))[: len(want)]
        if got != want:
            fail("top of the deck", want, got)

    def _expect_discard(self, want: Any, fail: Fail) -> None:
        s = self.state
        if sorted(s.discard) != sorted(want):
            fail("discard pile", sorted(want), sorted(s.discard))

    def _expect_discard_size(self, want: Any, fail: Fail) -> None:
        s = self.state
        if len(s.discard) != want:
            fail("discard size", want, len(s.discard))

    def _expect_trains(self, want: Any, fail: Fail) -> None:
        s = self.state
        for who, n in want.items():
            if s.players[self.seat(who)].trains != n:
                fail(f"{who}'s trains", n, s.players[self.seat(who)].trains)

    def _expect_stations_left(self, want: Any, fail: Fail) -> None:
        s = self.state
        for who, n in want.items():
            if s.players[self.seat(who)].stations != n:
                fail(f"{who}'s stations left", n, s.players[self.seat(who)].stations)

    def _expect_score(self, want: Any, fail: Fail) -> None:
        s = self.state
        for who, n in want.items():
            if s.players[self.seat(who)].route_points != n:
                fail(f"{who}'s score", n, s.players[self.seat(who)].route_points)

    def _expect_owner(self, want: Any, fail: Fail) -> None:
        s = self.state
        for rid, who in want.items():
            got = s.route_owner.get(rid)
            expected = None if who is None else self.seat(who)
            if got != expected:
                fail(f"owner of {rid}", who, None if got is None else self.names[got])

    def _expect_stations(self, want: Any, fail: Fail) -> None:
        s = self.state
        for city, who in want.items():
            got = s.stations.get(city)
            expected = None if who is None else self.seat(who)
            if got != expected:
                fail(f"station in {city}", who, None if got is None else self.names[got])

    def _expect_tickets(self, want: Any, fail: Fail) -> None:
        s = self.state
        for who, tickets in want.items():
            got = s.players[self.seat(who)].tickets
            if sorted(got) != sorted(tickets):
                fail(f"{who}'s tickets", sorted(tickets), sorted(got))

    def _expect_ticket_deck_top(self, want: Any, fail: Fail) -> None:
        s = self.state
        for deck, ids in want.items():
            got = list(reversed(s.ticket_decks.get(deck, [])))[: len(ids)]
            if got != ids:
                fail(f"top of the {deck} ticket deck", ids, got)

    def _expect_ticket_deck_bottom(self, want: Any, fail: Fail) -> None:
        s = self.state
        for deck, ids in want.items():
            got = s.ticket_decks.get(deck, [])[: len(ids)]
            if list(reversed(got)) != ids:
                fail(f"bottom of the {deck} ticket deck", ids, list(reversed(got)))

    def _expect_ticket_deck_size(self, want: Any, fail: Fail) -> None:
        s = self.state
        for deck, n in want.items():
            if len(s.ticket_decks.get(deck, [])) != n:
                fail(f"size of the {deck} ticket deck", n, len(s.ticket_decks.get(deck, [])))

    def _expect_offer(self, want: Any, fail: Fail) -> None:
        s = self.state
        for who, ids in want.items():
            offers = s.pending.get("offers") or []
            got = offers[self.seat(who)] if offers else None
            if isinstance(got, dict) or isinstance(ids, dict):
                norm = {k: sorted(v) for k, v in (got or {}).items() if v or k in ids}
                if norm != {k: sorted(v) for k, v in ids.items()}:
                    fail(f"{who}'s offer", ids, got)
            elif sorted(got or []) != sorted(ids):
                fail(f"{who}'s ticket offer", sorted(ids), sorted(got or []))

    def _expect_final_turns_left(self, want: Any, fail: Fail) -> None:
        s = self.state
        if s.final_turns_left != want:
            fail("final turns left", want, s.final_turns_left)

    def _expect_game_over(self, want: Any, fail: Fail) -> None:
        s = self.state
        if s.game_over != bool(want):
            fail("game over", want, s.game_over)

    def _expect_events(self, want: Any, fail: Fail) -> None:
        kinds = [e.kind for e in self.last_events]
        for kind in want:
            if kind not in kinds:
                fail("events of the last step to include", kind, kinds)

    def _expect_no_events(self, want: Any, fail: Fail) -> None:
        kinds = [e.kind for e in self.last_events]
        for kind in want:
            if kind in kinds:
                fail("events of the last step to exclude", kind, kinds)

    def _expect_extra(self, want: Any, fail: Fail) -> None:
        s = self.state
        for k, v in want.items():
            if s.extra.get(k) != v:
                fail(f"extra {k}", v, s.extra.get(k))

    def _expect_private(self, want: Any, fail: Fail) -> None:
        s = self.state
        for who, values in want.items():
            got_private = s.players[self.seat(who)].private
            for k, v in values.items():
                if got_private.get(k) != v:
                    fail(f"{who}'s private {k}", v, got_private.get(k))

    def _expect_secret_top(self, want: Any, fail: Fail) -> None:
        s = self.state
        for k, v in want.items():
            got_secret = list(reversed(s.secret.get(k, [])))[: len(v)]
            if got_secret != v:
                fail(f"top of secret {k}", v, got_secret)

    def _expect_secret_bottom(self, want: Any, fail: Fail) -> None:
        s = self.state
        for k, v in want.items():
            got_secret = list(reversed(s.secret.get(k, [])))[-len(v):] if v else []
            if got_secret != v:
                fail(f"bottom of secret {k}", v, got_secret)

    def _expect_plan_ran(self, want: Any, fail: Fail) -> None:
        for who, ran in want.items():
            got_run = self.plan_runs.get(self.seat(who), "not run")
            if got_run != ran:
                fail(f"{who}'s plan", ran, got_run)

    def _expect_plans_left(self, want: Any, fail: Fail) -> None:
        got_left = sorted(self.names[s] for s in self.plans)
        if got_left != sorted(want):
            fail("plans left", sorted(want), got_left)

    def _expect_public(self, want: Any, fail: Fail) -> None:
        s = self.state
        for who, values in want.items():
            got_public = s.players[self.seat(who)].public
            for k, v in values.items():
                if got_public.get(k) != v:
                    fail(f"{who}'s public {k}", v, got_public.get(k))

    def _check_legal(self, want: dict[str, Any], fail: Fail) -> None:
        from engine.game import legal_actions

        for who, spec in want.items():
            seat = self.seat(who)
            legal = [json.loads(json.dumps(a.to_json())) for a in legal_actions(self.state, seat)]
            kinds = {a["type"] for a in legal}
            for kind in spec.get("kinds_include", []):
                if kind not in kinds:
                    fail(f"{who}'s legal action kinds to include", kind, sorted(kinds))
            for kind in spec.get("kinds_exclude", []):
                if kind in kinds:
                    fail(f"{who}'s legal action kinds to exclude", kind, sorted(kinds))
            if "kinds" in spec and sorted(kinds) != sorted(spec["kinds"]):
                fail(f"{who}'s legal action kinds", sorted(spec["kinds"]), sorted(kinds))
            for partial in spec.get("include", []):
                if not any(_matches(a, partial) for a in legal):
                    fail(f"{who}'s legal actions to include", partial, legal[:12])
            for partial in spec.get("exclude", []):
                if any(_matches(a, partial) for a in legal):
                    fail(f"{who}'s legal actions to exclude", partial, "it is listed")
            if "count" in spec and len(legal) != spec["count"]:
                fail(f"number of {who}'s legal actions", spec["count"], len(legal))

    def _check_final(self, want: dict[str, Any], fail: Fail) -> None:
        result = self.state.result
        if result is None:
            fail("final result", "the game to be over", "no result")
            return
        for key, value in want.items():
            if key == "winners":
                got = sorted(self.names[s] for s in result["winners"])
                if got != sorted(value):
                    fail("winners", sorted(value), got)
            elif key == "tie_break":
                if result["tie_break"] != value:
                    fail("tie-break", value, result["tie_break"])
            else:
                sheet = result["sheets"][self.seat(key)]
                for field_name, expected in value.items():
                    got = sheet.get(field_name)
                    if field_name == "completed":
                        got = sorted(t["id"] for t in sheet["tickets"] if t["completed"])
                        expected = sorted(expected)
                    if got != expected:
                        fail(f"{key}'s final {field_name}", expected, got)


# What each field of a scenario's `expect` checks, keyed by the field.
_EXPECTATIONS: dict[str, Callable[[Runner, Any, Fail], None]] = {
    "current": Runner._expect_current,
    "pending": Runner._expect_pending,
    "hands": Runner._expect_hands,
    "hand_size": Runner._expect_hand_size,
    "display": Runner._expect_display,
    "deck_size": Runner._expect_deck_size,
    "deck_top": Runner._expect_deck_top,
    "discard": Runner._expect_discard,
    "discard_size": Runner._expect_discard_size,
    "trains": Runner._expect_trains,
    "stations_left": Runner._expect_stations_left,
    "score": Runner._expect_score,
    "owner": Runner._expect_owner,
    "stations": Runner._expect_stations,
    "tickets": Runner._expect_tickets,
    "ticket_deck_top": Runner._expect_ticket_deck_top,
    "ticket_deck_bottom": Runner._expect_ticket_deck_bottom,
    "ticket_deck_size": Runner._expect_ticket_deck_size,
    "offer": Runner._expect_offer,
    "final_turns_left": Runner._expect_final_turns_left,
    "game_over": Runner._expect_game_over,
    "events": Runner._expect_events,
    "no_events": Runner._expect_no_events,
    "legal": Runner._check_legal,
    "final": Runner._check_final,
    "extra": Runner._expect_extra,
    "private": Runner._expect_private,
    "secret_top": Runner._expect_secret_top,
    "secret_bottom": Runner._expect_secret_bottom,
    "plan_ran": Runner._expect_plan_ran,
    "plans_left": Runner._expect_plans_left,
    "public": Runner._expect_public,
}


def _matches(action: dict[str, Any], partial: dict[str, Any]) -> bool:
    for k, v in partial.items():
        if k == "do":
            k = "type"
        if k == "payment":
            v = dict(cards(v))
        if action.get(k) != v:
            return False
    return True


def _extra_fields() -> set[str]:
    """Fields of every registered action type (variants add their own)."""
    import dataclasses

    from engine.actions import ACTION_TYPES

    return {f.name for cls in ACTION_TYPES.values() for f in dataclasses.fields(cls)} - {"player"}


def run_scenario(scenario: Scenario) -> None:
    """Run one scenario; raise ScenarioFailure (or any error) if it does not hold."""
    Runner(scenario).run()


def iter_results(paths: Sequence[str]) -> Iterator[tuple[Scenario, str | None]]:
    for path in find_files(paths):
        for scenario in load_scenarios(path):
            try:
                run_scenario(scenario)
            except ScenarioFailure as exc:
                yield scenario, str(exc)
            except Exception:  # a crash is a failure too, with its traceback
                yield scenario, traceback.format_exc()
            else:
                yield scenario, None


def main(argv: Sequence[str] | None = None) -> int:
    paths = list(argv if argv is not None else sys.argv[1:]) or ["tests/scenarios"]
    passed = failed = 0
    for scenario, error in iter_results(paths):
        if error is None:
            passed += 1
            print(f"PASS  {scenario.source}: {scenario.name}")
        else:
            failed += 1
            print(f"FAIL  {scenario.source}: {scenario.name}\n      {error}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
