"""Planned moves through the service (app/plan_ops.py, app/plan_runs.py), on SQLite and
PostgreSQL: a plan is stored with the game, runs in the commit that brings its turn — before
anyone is pinged, so its player gets a private line instead of a ping — and is then gone; a
plan that applies to nothing is dropped and its player pinged; plans survive a restart; the
AI standing in for an absent player plays only after a plan; a table may allow a second turn's
plan; a plan of the wrong shape changes nothing."""

from __future__ import annotations

import json

import pytest

from app import Actor, GameService, Limits
from app.models import Caller
from app.plan_ops import PLANS_AHEAD
from app.plans import PlanError
from tests.clock import Clock
from tests.databases import Database

ANN, BEN, CAT = 11, 12, 13
BLIND_TWICE = {"else": [{"type": "draw_card"}, {"type": "draw_card"}]}

pytestmark = pytest.mark.clock_at(1_800_000_000.0)


async def _started(service: GameService, users=(ANN, BEN, CAT), options=None) -> int:
    """A USA game of these users, past the opening ticket choice (everyone keeps the first
    choice offered)."""
    lobby = await service.tables.create_lobby(guild_id=1, channel_id=1, host_user_id=users[0], host_name="host",
                                       variant="usa", options=options or {}, seats_wanted=len(users), turn_hours=10.0)
    for user in users[1:]:
        await service.tables.join(lobby.game_id, user, f"user {user}")
    g = (await service.tables.start(lobby.game_id, users[0])).game_id
    for user in users:
        legal = await service.reads.legal_actions(g, user)
        await service.moves.submit(g, Actor.user(user), legal[0], (await service.reads.game(g)).seq)
    return g


async def _mover(service: GameService, g: int) -> tuple[int, int]:
    summary = await service.reads.game(g)
    seat = summary.waiting_for[0]
    user = summary.seats[seat].user_id
    assert user is not None
    return seat, user


async def _blind_turn(service: GameService, g: int, user: int) -> None:
    for _ in range(2):
        await service.moves.submit(g, Actor.user(user), {"type": "draw_card", "slot": None},
                                   (await service.reads.game(g)).seq)


async def _kinds(service: GameService, g: int, after_seq: int) -> list[tuple[str, int | None]]:
    return [(d.kind, d.user_id) for d in await service.outbox.deliveries(g) if d.seq > after_seq]


async def test_a_plan_runs_in_the_commit_that_brings_its_turn_and_its_player_is_told_privately(
        service: GameService) -> None:
    g = await _started(service)
    seat, mover = await _mover(service, g)
    summary = await service.reads.game(g)
    nxt = summary.seats[(seat + 1) % 3]
    assert nxt.user_id is not None
    await service.plans.set_plans(g, nxt.user_id, [BLIND_TWICE])
    assert (await service.plans.plans_of(g, nxt.user_id)).to_json() == [BLIND_TWICE | {"steps": []}]
    before = (await service.reads.game(g)).seq
    hand_before = (await service.reads.view(g, nxt.user_id)).me.hand_size
    await service.moves.submit(g, Actor.user(mover), {"type": "draw_card", "slot": None}, before)
    result = await service.moves.submit(g, Actor.user(mover), {"type": "draw_card", "slot": None}, before + 1)
    # The mover's two draws and the planner's two, in one commit: the game waits for the third.
    assert result.seq == before + 4
    assert result.waiting_for == ((seat + 2) % 3,)
    assert result.action == {"type": "draw_card", "player": seat, "slot": None}  # the caller's own move
    assert (await service.reads.view(g, nxt.user_id)).me.hand_size == hand_before + 2
    assert (await service.plans.plans_of(g, nxt.user_id)).plans == ()
    kinds = await _kinds(service, g, before + 1)
    # The planner gets their private line and no ping; the next player their turn DM.
    assert ("plan", nxt.user_id) in kinds and ("turn", nxt.user_id) not in kinds
    third = summary.seats[(seat + 2) % 3].user_id
    assert ("turn", third) in kinds
    line = next(d for d in await service.outbox.deliveries(g) if d.kind == "plan")
    assert line.payload == {"seat": nxt.seat, "step": "fallback", "from_seq": before + 3, "to_seq": before + 4,
                            "finished": True}
    hand = await service.outbox.hand_data(line)
    assert hand is not None and [e.kind for e in hand.private_events].count("card_drawn") == 2


async def test_a_plan_that_applies_to_nothing_is_dropped_and_its_player_pinged(service: GameService) -> None:
    g = await _started(service, (ANN, BEN))
    seat, mover = await _mover(service, g)
    other = (await service.reads.game(g)).seats[1 - seat].user_id
    assert other is not None
    view = await service.reads.view(g, other)
    absent = next(c for c in ("red", "orange", "yellow", "green", "blue", "pink", "white", "black", "loco")
                  if c not in view.display)
    await service.plans.set_plans(g, other, [{"steps": [{"if": {"kind": "face_up", "colour": absent},
                                                   "then": [{"type": "draw_card", "colour": absent}]}]}])
    before = (await service.reads.game(g)).seq
    await _blind_turn(service, g, mover)
    summary = await service.reads.game(g)
    assert absent not in (await service.reads.view(g, other)).display  # blind draws leave the display
    assert summary.seq == before + 2 and summary.waiting_for == (1 - seat,)
    kinds = await _kinds(service, g, before)
    assert ("turn", other) in kinds and ("plan", other) in kinds
    line = next(d for d in await service.outbox.deliveries(g) if d.kind == "plan")
    assert line.payload["step"] is None
    assert (await service.plans.plans_of(g, other)).plans == ()


async def test_plans_survive_a_restart(database: Database, clock: Clock) -> None:
    async with await GameService.open(database.target, clock=clock, limits=Limits.unlimited()) as svc:
        g = await _started(svc, (ANN, BEN))
        seat, mover = await _mover(svc, g)
        other = (await svc.reads.game(g)).seats[1 - seat].user_id
        assert other is not None
        await svc.plans.set_plans(g, other, [BLIND_TWICE])
    async with await GameService.open(database.target, clock=clock, limits=Limits.unlimited()) as svc:
        assert (await svc.plans.plans_of(g, other)).to_json()[0]["else"] == BLIND_TWICE["else"]
        before = (await svc.reads.game(g)).seq
        await _blind_turn(svc, g, mover)
        summary = await svc.reads.game(g)
        assert summary.seq == before + 4 and summary.waiting_for == (seat,)


async def test_a_plan_comes_before_the_ai_standing_in(service: GameService) -> None:
    g = await _started(service, (ANN, BEN))
    seat, mover = await _mover(service, g)
    other_seat = 1 - seat
    other = (await service.reads.game(g)).seats[other_seat].user_id
    assert other is not None
    await service.plans.set_plans(g, other, [{"else": [{"type": "draw_tickets"}]}])
    # The host hands the absent player's seat to the AI until they come back.
    await service.clocks.kick(g, other_seat, Caller(ANN))
    before = (await service.reads.game(g)).seq
    await _blind_turn(service, g, mover)
    await service.moves.play_bots(g)
    theirs = [(json.loads(r.action_json)["type"], r.user_id)
              for r in await service.store.log.actions(g, after_seq=before) if r.actor == other_seat]
    # Their plan drew tickets (their own move); the AI holding the seat then chose which to keep.
    assert theirs == [("draw_tickets", other), ("keep_tickets", None)]
    assert (await service.reads.game(g)).waiting_for == (seat,)


async def test_a_second_turn_s_plan_only_where_the_table_allows_it(service: GameService) -> None:
    g = await _started(service, (ANN, BEN))
    with pytest.raises(PlanError, match="one turn ahead only"):
        await service.plans.set_plans(g, BEN, [BLIND_TWICE, BLIND_TWICE])
    g2 = await _started(service, (ANN, BEN), {PLANS_AHEAD: 2})
    seat, mover = await _mover(service, g2)
    other = (await service.reads.game(g2)).seats[1 - seat].user_id
    assert other is not None
    await service.plans.set_plans(g2, other, [BLIND_TWICE, {"else": [{"type": "draw_tickets"}]}])
    await _blind_turn(service, g2, mover)
    left = await service.plans.plans_of(g2, other)
    assert left.to_json() == [{"steps": [], "else": [{"type": "draw_tickets"}]}]
    await _blind_turn(service, g2, mover)
    assert (await service.plans.plans_of(g2, other)).plans == ()
    assert (await service.reads.game(g2)).waiting_for == (1 - seat,)  # choosing the tickets the plan drew


async def test_a_bad_plan_changes_nothing_and_only_players_plan(service: GameService) -> None:
    g = await _started(service, (ANN, BEN))
    for bad, says in (([{"else": [{"type": "claim_route", "route": "nowhere", "payment": {"red": 1}}]}],
                       "no route 'nowhere'"),
                      ([{"else": [{"type": "keep_tickets", "keep": []}]}], "asked when they are drawn"),
                      ([], "empty"), ("x", "must be a list")):
        with pytest.raises(PlanError) as caught:
            await service.plans.set_plans(g, BEN, bad)
        assert says in caught.value.message
    assert (await service.plans.plans_of(g, BEN)).plans == ()
    with pytest.raises(Exception, match="not playing"):
        await service.plans.set_plans(g, CAT, [BLIND_TWICE])
    await service.plans.set_plans(g, BEN, [BLIND_TWICE])
    assert await service.plans.cancel_plans(g, BEN)
    assert not await service.plans.cancel_plans(g, BEN)


async def test_the_private_line_waits_for_the_planners_quiet_hours(service: GameService, clock: Clock) -> None:
    g = await _started(service, (ANN, BEN))
    seat, mover = await _mover(service, g)
    other = (await service.reads.game(g)).seats[1 - seat].user_id
    assert other is not None
    clock.now = 1_800_000_000.0 - 1_800_000_000.0 % 86400 + 2 * 3600  # 02:00 UTC
    await service.settings.change_settings(other, quiet_hours="23:00-08:00")
    await service.plans.set_plans(g, other, [BLIND_TWICE])
    await _blind_turn(service, g, mover)
    assert any(d.kind == "plan" for d in await service.outbox.deliveries(g))
    # The plan played at once; the word of it goes out at 08:00, when their quiet hours end.
    assert (await service.reads.game(g)).waiting_for == (seat,)
    assert not any(d.kind == "plan" for d in await service.outbox.due_deliveries(clock.now + 6 * 3600 - 60))
    assert any(d.kind == "plan" for d in await service.outbox.due_deliveries(clock.now + 6 * 3600))
