"""Taking back a move through the service, on SQLite and PostgreSQL: the mover's undo is
stored as an entry of its own, corrects the turn post, gives the mover their turn and clock
back, and survives a restart; what cannot be undone is refused in a sentence and changes
nothing."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from app import Actor, GameService, Limits
from engine.errors import IllegalAction
from engine.game import replay
from engine.state import GameState
from tests.databases import Database

ANN, BEN = 11, 12
HOUR = 3600.0


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(database: Database, clock: Clock) -> AsyncIterator[GameService]:
    svc = await GameService.open(database.target, clock=clock, limits=Limits.unlimited())
    yield svc
    await svc.close()


async def _to_first_claim(service: GameService) -> tuple[int, int, int]:
    """A 2-player USA game (both keep their opening tickets), played until someone can claim.
    Returns (game id, the user whose turn it is, that user's seat)."""
    lobby = await service.create_lobby(guild_id=1, channel_id=1, host_user_id=ANN, host_name="ann",
                                       variant="usa", seats_wanted=2, turn_hours=10.0)
    await service.join(lobby.game_id, BEN, "ben")
    started = await service.start(lobby.game_id, ANN)
    g = started.game_id
    for user in (ANN, BEN):
        legal = await service.legal_actions(g, user)
        seq = (await service.game(g)).seq
        await service.submit(g, Actor.user(user), legal[0], seq)
    for _ in range(200):
        summary = await service.game(g)
        seat = summary.waiting_for[0]
        user = summary.seats[seat].user_id
        assert user is not None
        legal = await service.legal_actions(g, user)
        if any(a.TYPE == "claim_route" for a in legal):
            return g, user, seat
        draw = next(a for a in legal if a.TYPE == "draw_card")
        await service.submit(g, Actor.user(user), draw, summary.seq)
    raise AssertionError("nobody could claim")


async def test_a_claim_taken_back_is_a_log_entry_that_restores_the_turn_and_the_board(
        service: GameService, clock: Clock, database: Database) -> None:
    g, mover, seat = await _to_first_claim(service)
    before = await service.view(g, mover)
    claim = next(a for a in await service.legal_actions(g, mover) if a.TYPE == "claim_route")
    claimed = await service.submit(g, Actor.user(mover), claim, before.seq)
    other = 1 - seat
    assert claimed.waiting_for == (other,)
    assert (await service.view(g, mover)).can_undo
    assert [t.seat for t in await service.pending_timers(g)] == [other, other]

    clock.now += HOUR
    undone = await service.submit(g, Actor.user(mover), {"type": "undo"}, claimed.seq)
    assert undone.waiting_for == (seat,) and undone.seq == claimed.seq + 1
    after = await service.view(g, mover)
    assert after.players == before.players and after.route_owner == before.route_owner
    assert not after.can_undo
    # The mover's clock starts afresh; the other player's timers are gone.
    timers = await service.pending_timers(g)
    assert sorted((t.kind, t.seat) for t in timers) == [("limit", seat), ("reminder", seat)]
    assert min(t.due_at for t in timers) == pytest.approx(clock.now + 5 * HOUR)
    # The turn post is corrected in place, and the mover gets their hand back by DM.
    owed = [d for d in await service.deliveries(g) if d.seq == undone.seq]
    posts = [d for d in owed if d.kind == "post"]
    assert len(posts) == 1 and dict(posts[0].payload) == {"new_turn": False, "undone": True}
    assert any(d.kind == "turn" and d.user_id == mover for d in owed)

    # The log is append-only: claim, then undo; replaying it gives the stored state.
    log = database.fetch("SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", g)
    assert [json.loads(a)["type"] for _, a in log[-2:]] == ["claim_route", "undo"]
    row = database.fetchone("SELECT state FROM snapshots WHERE game_id = ?", g)
    stored = GameState.from_canonical(row[0])
    again = replay("usa", 2, stored.seed, [json.loads(a) for _, a in log[1:]], stored.options,
                   names=stored.names)
    assert again.to_canonical() == stored.to_canonical()


async def test_an_undo_that_is_not_allowed_is_refused_and_changes_nothing(service: GameService) -> None:
    g, mover, seat = await _to_first_claim(service)
    summary = await service.game(g)
    draw = next(a for a in await service.legal_actions(g, mover) if a.TYPE == "draw_card")
    drew = await service.submit(g, Actor.user(mover), draw, summary.seq)
    with pytest.raises(IllegalAction, match="no move of yours to take back"):
        await service.submit(g, Actor.user(mover), {"type": "undo"}, drew.seq)
    assert (await service.game(g)).seq == drew.seq


async def test_an_undo_survives_a_restart(database: Database, clock: Clock) -> None:
    service = await GameService.open(database.target, clock=clock, limits=Limits.unlimited())
    try:
        g, mover, seat = await _to_first_claim(service)
        claim = next(a for a in await service.legal_actions(g, mover) if a.TYPE == "claim_route")
        claimed = await service.submit(g, Actor.user(mover), claim, (await service.game(g)).seq)
    finally:
        await service.close()
    restarted = await GameService.open(database.target, clock=clock, limits=Limits.unlimited())
    try:
        assert (await restarted.view(g, mover)).can_undo
        undone = await restarted.submit(g, Actor.user(mover), {"type": "undo"}, claimed.seq)
        assert undone.waiting_for == (seat,)
    finally:
        await restarted.close()
