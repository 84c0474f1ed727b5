"""Turning stored rows and engine results into the service's models (app.models)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.loaded import Loaded, seat_of_row
from app.models import Delivery, GameSummary, Seat, SubmitResult, Timer
from engine.actions import Action, action_from_json
from engine.errors import IllegalAction
from engine.events import PRIVATE, PUBLIC, Event
from engine.game import actors
from engine.state import GameState, canonical_json
from store import GameRow, PlayerRow, ResultRow
from store.records import DeliveryRow, TimerRow


def bind(action: Action | Mapping[str, Any], seat: int) -> Action:
    """The action as an Action of `seat`: a JSON dict without "player" gets the seat; naming
    another seat is refused."""
    if not isinstance(action, Action):
        if not isinstance(action, Mapping):
            raise IllegalAction("That action is not in a form the game understands.", "malformed")
        data = dict(action)
        data.setdefault("player", seat)
        action = action_from_json(data)
    if action.player != seat:
        raise IllegalAction("You can only act for your own seat.", "not_your_seat")
    return action


def events_json(events: Iterable[Event]) -> str:
    return canonical_json([e.to_json() for e in events])


def result(game_id: int, seq: int, seat: int | None, state: GameState, events: Sequence[Event],
            action: Action | None = None) -> SubmitResult:
    private: dict[int, list[Event]] = {}
    for e in events:
        if e.visibility == PRIVATE and e.seat is not None:
            private.setdefault(e.seat, []).append(e)
    return SubmitResult(
        game_id=game_id,
        seq=seq,
        actor=seat,
        status=state.status,
        ended=state.status == "over",
        waiting_for=tuple(actors(state)),
        public_events=tuple(e for e in events if e.visibility == PUBLIC),
        private_events={s: tuple(evs) for s, evs in private.items()},
        result=state.result,
        action=action.to_json() if action is not None else None,
        _state=state,
    )


def results(loaded: Loaded, state: GameState, now: float) -> list[ResultRow]:
    result = state.result or {}
    sheets = result.get("sheets", [])
    winners = set(result.get("winners", []))
    rows = []
    for sheet in sheets:
        seat = loaded.seats[sheet["seat"]]
        tickets = sheet.get("tickets", [])
        rows.append(ResultRow(
            game_id=loaded.row.id, seat=seat.seat, user_id=seat.user_id, is_ai=seat.is_ai, ai_level=seat.ai_level,
            name=seat.name, guild_id=loaded.row.guild_id, variant=loaded.row.variant, score=sheet["total"],
            place=1 + sum(1 for other in sheets if other["total"] > sheet["total"]), won=seat.seat in winners,
            tickets_completed=sum(1 for t in tickets if t.get("completed")),
            tickets_failed=sum(1 for t in tickets if not t.get("completed")), finished_at=now,
        ))
    return rows


def seat_of(seats: Iterable[Seat], user_id: int | None) -> int | None:
    if user_id is None:
        return None
    return next((s.seat for s in seats if s.user_id == user_id), None)


LANGUAGE = "language"  # the table option naming its language (engine/rulesets COMMON_OPTIONS)


def _language(options_json: str) -> str:
    """A table's language code from its stored options ("en" where none can be read)."""
    try:
        code = json.loads(options_json).get(LANGUAGE)
    except (ValueError, TypeError, AttributeError):
        return "en"
    return code if isinstance(code, str) and code else "en"


def summary(row: GameRow, players: list[PlayerRow], user_id: int | None) -> GameSummary:
    try:
        waiting = tuple(int(s) for s in json.loads(row.waiting_json))
    except (ValueError, TypeError):
        waiting = ()  # a derived column: a bad value only loses the "whose turn" hint
    seats = tuple(seat_of_row(p) for p in players)
    return GameSummary(
        game_id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, thread_id=row.thread_id,
        variant=row.variant, status=row.status, seq=row.seq, your_seat=seat_of(seats, user_id), seats=seats,
        waiting_for=waiting, turn_hours=row.turn_hours, updated_at=row.updated_at, broken_reason=row.broken_reason,
        host_user_id=row.host_user_id, paused_reason=row.paused_reason, turn_post_id=row.turn_post_id,
        turn_post_seq=row.turn_post_seq, max_away_days=row.max_away_days, language=_language(row.options_json),
    )


def summary_of(loaded: Loaded, user_id: int | None = None) -> GameSummary:
    """A loaded game's summary (no database read)."""
    row = loaded.row
    return GameSummary(
        game_id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, thread_id=row.thread_id,
        variant=row.variant, status=loaded.state.status, seq=loaded.seq, your_seat=seat_of(loaded.seats, user_id),
        seats=loaded.seats, waiting_for=tuple(actors(loaded.state)), turn_hours=row.turn_hours,
        updated_at=row.updated_at, broken_reason=row.broken_reason, host_user_id=row.host_user_id,
        paused_reason=row.paused_reason, turn_post_id=row.turn_post_id, turn_post_seq=row.turn_post_seq,
        max_away_days=row.max_away_days, language=str(loaded.state.options.get(LANGUAGE) or "en"),
    )


def timer(row: TimerRow) -> Timer:
    try:
        payload = json.loads(row.payload_json)
    except ValueError:
        payload = {}
    return Timer(row.id, row.game_id, row.kind, row.seat, row.for_seq, row.due_at, payload, row.fired_at,
                 row.cancelled_at, row.rev)


def delivery(row: DeliveryRow) -> Delivery:
    try:
        payload = json.loads(row.payload_json)
    except ValueError:
        payload = {}
    return Delivery(row.id, row.game_id, row.seq, row.kind, row.key, row.user_id,
                    payload if isinstance(payload, dict) else {}, row.attempts, row.message_id)
