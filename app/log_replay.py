"""Replaying a game's stored log from its seed, and reading what in the stored copies disagrees
with it: the full replay of app.loader (a load that cannot use its snapshot, and the background
check of a snapshot). Stored data that cannot be read raises Corrupt, whose message names
columns and entries, never their content (which may be a hand or the deck)."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import TypeVar

from engine.actions import action_from_json
from engine.errors import IllegalAction
from engine.game import actors, apply_in_place, new_game
from engine.state import RULES_VERSION, GameState, canonical_json
from store import GameRow, PlayerRow
from store.records import ActionRow, GameLoad, SnapshotRow

log = logging.getLogger("app.service")

# A replay in the background lets other work run after this many entries.
VERIFY_STEP = 32

T = TypeVar("T")


class Corrupt(Exception):
    """Stored data that cannot be read (the message says which and why)."""


@dataclass(slots=True)
class Rebuilt:
    """A game replayed from its seed: its state after the last entry, and what in the stored
    copies disagreed with the log (`repairs`, logged as warnings) or only lacked a digest
    (`upgrade`, written quietly)."""

    state: GameState
    last: int
    repairs: list[str] = field(default_factory=list)
    upgrade: bool = False


def replay_log(found: GameLoad) -> Generator[None, None, Rebuilt]:
    """Replay the whole log from the seed (`found` holds all of it), comparing the stored
    snapshot with the state at its entry and the game row with the end. A generator that
    pauses every VERIFY_STEP entries (`drain` runs it through; the background check lets
    other work run at each pause). Raises Corrupt for stored data that cannot be read.

    A game from older rules cannot be replayed: its snapshot is used as it is."""
    row, players, snapshot, rows = found.row, found.players, found.snapshot, found.actions
    assert row is not None
    game_id = row.id
    why = unreadable(row, players, rows)
    if why:
        raise Corrupt(why)
    if not rows or rows[0].seq != 0:
        raise Corrupt("the start of its log (entry 0) is missing.")
    for expected, r in enumerate(rows):
        if r.seq != expected:
            raise Corrupt(f"entry {expected} of its log is missing.")
    last = rows[-1].seq
    if row.seed is None or not players:
        raise Corrupt("its seed or its seats are missing.")
    if [p.seat for p in players] != list(range(len(players))):
        raise Corrupt("its seats are not numbered 0, 1, 2, …")
    if row.rules_version != RULES_VERSION:
        return Rebuilt(old_rules_state(row, snapshot, last), last)
    try:
        options = json.loads(row.options_json)
    except ValueError:
        raise Corrupt("its options are not valid JSON.") from None
    try:
        state, _ = new_game(row.variant, len(players), row.seed, options, names=[p.name for p in players])
    except IllegalAction as exc:
        raise Corrupt(f"it cannot be dealt again ({exc.code}).") from None
    except Exception as exc:  # options of the wrong type, say: stored data, not a bug here
        raise Corrupt(f"it cannot be dealt again ({type(exc).__name__}).") from None
    at_snapshot = state.to_canonical() if snapshot is not None and snapshot.seq == 0 else None
    for r in rows[1:]:
        state = replay_one(game_id, state, r)
        if snapshot is not None and r.seq == snapshot.seq:
            at_snapshot = state.to_canonical()
        if r.seq % VERIFY_STEP == 0:
            yield
    for r in rows:
        try:
            json.loads(r.events_json)
        except ValueError:
            raise Corrupt(f"the events of entry {r.seq} of its log are not valid JSON.") from None
    rebuilt = Rebuilt(state, last)
    if snapshot is None:
        rebuilt.repairs.append("the snapshot was missing")
    elif snapshot.unreadable:
        rebuilt.repairs.append(f"the snapshot at seq {snapshot.seq} was not valid UTF-8")
    elif at_snapshot is None:
        rebuilt.repairs.append(f"the snapshot was at seq {snapshot.seq}, the log at {last}")
    elif snapshot.state_json != at_snapshot or snapshot.rules_version != RULES_VERSION:
        rebuilt.repairs.append(f"the snapshot at seq {snapshot.seq} differed from a replay of the log")
    elif snapshot.digest is None:
        rebuilt.upgrade = True  # written before migration 8: give it a digest
    elif not snapshot.intact:
        rebuilt.repairs.append(f"the snapshot at seq {snapshot.seq} did not match its digest")
    if row.seq != last or row.status != state.status or row.waiting_json != canonical_json(actors(state)):
        rebuilt.repairs.append(
            f"the game row said seq {row.seq} ({row.status}), the log seq {last} ({state.status})")
    return rebuilt


def replay_one(game_id: int, state: GameState, r: ActionRow) -> GameState:
    """The state after one stored entry; Corrupt when the entry cannot be read or replayed.
    `state` is the replay's own and is used up: the entry is applied to it in place (no
    copy per entry); on Corrupt it is to be thrown away."""
    try:
        data = json.loads(r.action_json)
    except ValueError:
        raise Corrupt(f"action {r.seq} of its log is not valid JSON.") from None
    try:
        move = action_from_json(data)
    except IllegalAction:
        raise Corrupt(f"action {r.seq} of its log is not an action the game understands.") from None
    if r.actor is not None and move.player != r.actor:
        raise Corrupt(f"action {r.seq} of its log names seat {move.player} but was made by seat {r.actor}.")
    try:
        after, _ = apply_in_place(state, move)
    except IllegalAction as exc:
        # Only the code: the message may describe a player's hand.
        raise Corrupt(f"action {r.seq} of its log is refused by the rules on replay ({exc.code}).") from None
    except Exception as exc:  # an engine crash on stored data must not take the bot down
        log.exception("game %d: replaying action %d crashed the engine", game_id, r.seq)
        raise Corrupt(f"action {r.seq} of its log cannot be replayed ({type(exc).__name__}).") from None
    return after


def old_rules_state(row: GameRow, snapshot: SnapshotRow | None, last: int) -> GameState:
    """A game from older rules cannot be replayed: its snapshot, which must reach the end of
    its log."""
    if snapshot is None or snapshot.seq != last:
        raise Corrupt(
            f"it was played under rules version {row.rules_version}, this bot has version {RULES_VERSION}, "
            "and its snapshot does not reach the end of its log."
        )
    try:
        state = GameState.from_canonical(snapshot.state_json)
    except (ValueError, KeyError, TypeError):
        raise Corrupt(
            f"it was played under rules version {row.rules_version} and its snapshot cannot be read."
        ) from None
    log.info("game %d: rules version %s (engine %d): using its snapshot without a replay check",
             row.id, row.rules_version, RULES_VERSION)
    return state


def drain(steps: Generator[None, None, T]) -> T:
    """Run a pausing replay (`replay_log`) straight through."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            value: T = done.value
            return value


async def drain_slowly(steps: Generator[None, None, T]) -> T:
    """Run a pausing replay, letting other work run at each pause."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            value: T = done.value
            return value
        await asyncio.sleep(0)


def unreadable(row: GameRow, players: list[PlayerRow], rows: list[ActionRow]) -> str:
    """Why the game's stored text cannot be read (it is not valid UTF-8), or "". Only names
    columns and seqs: the text itself may be a hand or the deck."""
    if row.unreadable:
        return f"its game row holds text that is not valid UTF-8 ({', '.join(row.unreadable)})."
    for p in players:
        if p.unreadable:
            return f"the row of seat {p.seat} holds text that is not valid UTF-8 ({', '.join(p.unreadable)})."
    for r in rows:
        if "action" in r.unreadable:
            return f"action {r.seq} of its log is not valid UTF-8."
        if r.unreadable:
            return f"the events of entry {r.seq} of its log are not valid UTF-8."
    return ""
