"""Everything owed is checked again before it is sent: a reminder that falls due late (after a
dead process, an outage) goes out only while it is still true — the game is being played and
still waits for that player — and neither after they moved nor after the game ended."""

from __future__ import annotations

from typing import Any

from ai.levels import make_ai
from app import Actor, GameService, Limits
from app.owed import REMINDER
from tests.clock import Clock

HOST, BOB = 100, 101


async def _game(service: GameService) -> int:
    lobby = await service.tables.create_lobby(1, 1, HOST, "Host", "usa", seats_wanted=2)
    await service.tables.join(lobby.game_id, BOB, "Bob")
    await service.tables.start(lobby.game_id, HOST)
    return lobby.game_id


async def _move(service: GameService, game_id: int, user: int) -> None:
    summary = await service.reads.game(game_id)
    legal = await service.reads.legal_actions(game_id, user)
    action = make_ai("random", summary.seq).choose(await service.reads.view(game_id, user), legal)
    await service.moves.submit(game_id, Actor.user(user), action, summary.seq)


async def _reminded(service: GameService, clock: Clock, game_id: int) -> list[Any]:
    """Let half the turn pass: the timer owes a reminder (not yet sent)."""
    clock.now += 25 * 3600
    for timer in await service.clocks.due_timers():
        await service.clocks.fire_timer(timer)
    return [d for d in await service.outbox.deliveries(game_id, "pending") if d.kind == REMINDER]


async def test_a_reminder_is_true_while_the_player_is_still_to_move_and_not_after(tmp_path: Any) -> None:
    clock = Clock()
    async with await GameService.open(tmp_path / "ttr.sqlite3", clock=clock, limits=Limits.unlimited()) as service:
        g = await _game(service)
        reminders = await _reminded(service, clock, g)
        assert {d.user_id for d in reminders} == {HOST, BOB}  # both still choose their tickets
        summary = await service.reads.game(g)
        assert all(summary.still_waits_for(d.payload.get("seat"), d.user_id) for d in reminders)
        await _move(service, g, BOB)  # Bob chose his tickets: his reminder is no longer true
        summary = await service.reads.game(g)
        true_now = {d.user_id for d in reminders if summary.still_waits_for(d.payload.get("seat"), d.user_id)}
        assert true_now == {HOST}
        assert not summary.still_waits_for(None, HOST) and not summary.still_waits_for(0, None)


async def test_no_reminder_is_true_once_the_game_ended_or_is_paused(tmp_path: Any) -> None:
    clock = Clock()
    async with await GameService.open(tmp_path / "ttr.sqlite3", clock=clock, limits=Limits.unlimited()) as service:
        g = await _game(service)
        reminders = await _reminded(service, clock, g)
        summary = await service.reads.game(g)
        paused = type(summary)(**{**{f: getattr(summary, f) for f in summary.__dataclass_fields__},
                                  "paused_reason": "the host paused it"})
        over = type(summary)(**{**{f: getattr(summary, f) for f in summary.__dataclass_fields__}, "status": "over"})
        for d in reminders:
            seat = d.payload.get("seat")
            assert summary.still_waits_for(seat, d.user_id)
            assert not paused.still_waits_for(seat, d.user_id) and not over.still_waits_for(seat, d.user_id)
