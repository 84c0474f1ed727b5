"""Taking back a move through the service, on SQLite and PostgreSQL: the mover's undo is
stored as an entry of its own, corrects the turn post, gives the mover their turn and clock
back, and survives a restart; what cannot be undone is refused in a sentence and changes
nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from app import Actor, GameService, Limits, ServiceError, SubmitResult
from engine.errors import IllegalAction
from engine.game import replay
from engine.state import GameState
from store.records import TimerRow
from tests.clock import Clock
from tests.databases import Database

ANN, BEN, CAT = 11, 12, 13
HOUR = 3600.0

pytestmark = pytest.mark.clock_at(1_800_000_000.0)


async def _to_first_claim(service: GameService, users: tuple[int, ...] = (ANN, BEN)) -> tuple[int, int, int]:
    """A USA game of these users (all keep their opening tickets; 2 by default), played until
    someone can claim. Returns (game id, the user whose turn it is, that user's seat)."""
    lobby = await service.tables.create_lobby(guild_id=1, channel_id=1, host_user_id=ANN, host_name="ann",
                                       variant="usa", seats_wanted=len(users), turn_hours=10.0)
    for user in users[1:]:
        await service.tables.join(lobby.game_id, user, f"user {user}")
    started = await service.tables.start(lobby.game_id, ANN)
    g = started.game_id
    for user in users:
        legal = await service.reads.legal_actions(g, user)
        seq = (await service.reads.game(g)).seq
        await service.moves.submit(g, Actor.user(user), legal[0], seq)
    for _ in range(200):
        summary = await service.reads.game(g)
        seat = summary.waiting_for[0]
        user = summary.seats[seat].user_id
        assert user is not None
        legal = await service.reads.legal_actions(g, user)
        if any(a.TYPE == "claim_route" for a in legal):
            return g, user, seat
        draw = next(a for a in legal if a.TYPE == "draw_card")
        await service.moves.submit(g, Actor.user(user), draw, summary.seq)
    raise AssertionError("nobody could claim")


async def test_a_claim_taken_back_is_a_log_entry_that_restores_the_turn_and_the_board(
        service: GameService, clock: Clock, database: Database) -> None:
    g, mover, seat = await _to_first_claim(service)
    before = await service.reads.view(g, mover)
    claim = next(a for a in await service.reads.legal_actions(g, mover) if a.TYPE == "claim_route")
    timers_before = sorted((t.kind, t.due_at) for t in await service.clocks.pending_timers(g) if t.seat == seat)
    claimed = await service.moves.submit(g, Actor.user(mover), claim, before.seq)
    other = 1 - seat
    assert claimed.waiting_for == (other,)
    assert (await service.reads.view(g, mover)).can_undo
    assert [(t.kind, t.seat) for t in await service.clocks.pending_timers(g) if t.kind in ("reminder", "limit")] \
        == [("reminder", other), ("limit", other)]

    clock.now += HOUR
    undone = await service.moves.submit(g, Actor.user(mover), {"type": "undo"}, claimed.seq)
    assert undone.waiting_for == (seat,) and undone.seq == claimed.seq + 1
    after = await service.reads.view(g, mover)
    assert after.players == before.players and after.route_owner == before.route_owner
    assert not after.can_undo
    # The mover's clock is as it was — the hour the move stood counts — and the other player's
    # timers are gone.
    timers = await service.clocks.pending_timers(g)
    assert sorted((t.kind, t.seat) for t in timers) == [("limit", seat), ("reminder", seat)]
    assert sorted((t.kind, t.due_at) for t in timers) == timers_before
    # The turn post is corrected in place, and the mover gets their hand back by DM.
    owed = [d for d in await service.outbox.deliveries(g) if d.seq == undone.seq]
    posts = [d for d in owed if d.kind == "post"]
    assert len(posts) == 1 and dict(posts[0].payload) == {"new_turn": False, "undone": True}
    assert any(d.kind == "turn" and d.user_id == mover for d in owed)

    # The log is append-only: claim, then undo; replaying it gives the stored state.
    log = database.fetch("SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", g)
    assert [json.loads(a)["type"] for _, a in log[-2:]] == ["claim_route", "undo"]
    row = database.fetchone("SELECT seq, state FROM snapshots WHERE game_id = ?", g)
    stored = GameState.from_canonical(row[1])
    moves = [json.loads(a) for _, a in log[1:]]
    at_snapshot = replay("usa", 2, stored.seed, moves[:row[0]], stored.options, names=stored.names)
    assert at_snapshot.to_canonical() == stored.to_canonical()
    again = replay("usa", 2, stored.seed, moves, stored.options, names=stored.names)
    service.loader.forget(g)
    assert again.to_canonical() == (await service.loader.load(g)).state.to_canonical()


async def test_an_undo_that_is_not_allowed_is_refused_and_changes_nothing(service: GameService) -> None:
    g, mover, seat = await _to_first_claim(service)
    summary = await service.reads.game(g)
    draw = next(a for a in await service.reads.legal_actions(g, mover) if a.TYPE == "draw_card")
    drew = await service.moves.submit(g, Actor.user(mover), draw, summary.seq)
    with pytest.raises(IllegalAction, match="no move of yours to take back"):
        await service.moves.submit(g, Actor.user(mover), {"type": "undo"}, drew.seq)
    assert (await service.reads.game(g)).seq == drew.seq


async def test_an_undo_survives_a_restart(database: Database, clock: Clock) -> None:
    service = await GameService.open(database.target, clock=clock, limits=Limits.unlimited())
    try:
        g, mover, seat = await _to_first_claim(service)
        claim = next(a for a in await service.reads.legal_actions(g, mover) if a.TYPE == "claim_route")
        claimed = await service.moves.submit(g, Actor.user(mover), claim, (await service.reads.game(g)).seq)
    finally:
        await service.close()
    restarted = await GameService.open(database.target, clock=clock, limits=Limits.unlimited())
    try:
        assert (await restarted.reads.view(g, mover)).can_undo
        undone = await restarted.moves.submit(g, Actor.user(mover), {"type": "undo"}, claimed.seq)
        assert undone.waiting_for == (seat,)
    finally:
        await restarted.close()


async def _claim(service: GameService, g: int, mover: int) -> SubmitResult:
    claim = next(a for a in await service.reads.legal_actions(g, mover) if a.TYPE == "claim_route")
    return await service.moves.submit(g, Actor.user(mover), claim, (await service.reads.game(g)).seq)


async def test_claiming_and_taking_back_never_moves_the_movers_limit(service: GameService, clock: Clock) -> None:
    """Claim, take back, claim, take back …: each undo gives the turn back, not time. The
    mover's limit stays where it was; once it has passed while a move stood, the move stays."""
    g, mover, seat = await _to_first_claim(service)
    limit = next(t.due_at for t in await service.clocks.pending_timers(g) if t.kind == "limit" and t.seat == seat)
    for _ in range(3):
        claimed = await _claim(service, g, mover)
        clock.now += 2 * HOUR
        await service.moves.submit(g, Actor.user(mover), {"type": "undo"}, claimed.seq)
        timers = {t.kind: t.due_at for t in await service.clocks.pending_timers(g) if t.seat == seat}
        assert timers["limit"] == limit
        assert "reminder" not in timers or timers["reminder"] > clock.now  # one gone by is not repeated
    claimed = await _claim(service, g, mover)
    clock.now = limit + 60
    with pytest.raises(ServiceError, match="Too late to take that back") as refused:
        await service.moves.submit(g, Actor.user(mover), {"type": "undo"}, claimed.seq)
    assert refused.value.code == "too_late"
    summary = await service.reads.game(g)
    assert summary.seq == claimed.seq and summary.waiting_for == (1 - seat,)


async def test_votes_to_skip_the_mover_still_count_after_they_take_a_move_back(service: GameService) -> None:
    g, mover, seat = await _to_first_claim(service, (ANN, BEN, CAT))
    first, second = [u for u in (ANN, BEN, CAT) if u != mover]
    vote = await service.seats.vote_skip(g, first, seat)
    assert (vote.votes, vote.needed, vote.played) == (1, 2, False)
    claimed = await _claim(service, g, mover)
    await service.moves.submit(g, Actor.user(mover), {"type": "undo"}, claimed.seq)
    vote = await service.seats.vote_skip(g, second, seat)
    assert (vote.votes, vote.needed, vote.played) == (2, 2, True)  # the first vote still counted
    assert seat not in (await service.reads.game(g)).waiting_for


async def test_the_player_pinged_for_a_turn_taken_back_is_told(service: GameService) -> None:
    g, mover, seat = await _to_first_claim(service)
    other = 1 - seat
    claimed = await _claim(service, g, mover)
    pinged = [d for d in await service.outbox.deliveries(g) if d.seq == claimed.seq and d.kind == "turn"]
    assert [d.payload["seat"] for d in pinged] == [other]
    undone = await service.moves.submit(g, Actor.user(mover), {"type": "undo"}, claimed.seq)
    told = [d for d in await service.outbox.deliveries(g) if d.seq == undone.seq and d.kind == "taken_back"]
    assert len(told) == 1 and told[0].user_id == (await service.reads.game(g)).seats[other].user_id
    assert dict(told[0].payload) == {"seat": other, "by": seat, "turn_dm": pinged[0].key}
    # Sent only if that ping went out: it has not here (no dispatcher ran).
    assert await service.outbox.taken_back_data(told[0]) is None
    await service.outbox.delivered(pinged[0].id, 1)
    assert (await service.outbox.taken_back_data(told[0])) is not None


async def test_the_movers_held_clock_is_the_same_kept_or_read(service: GameService,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim that stays undoable holds the mover's reminder and limit (HELD_CLOCK). On
    SQLite they come from what the last commit wrote (no read) while nothing else touched the
    game's timers; once something did, they are read again — and the held clock is the same
    as the stored timers say either way."""
    store = service.store
    reads: list[int] = []
    cls = type(store.timers)
    original = cls.pending

    async def counted(self: Any, game_id: int) -> list[TimerRow]:
        reads.append(game_id)
        return await original(self, game_id)

    monkeypatch.setattr(cls, "pending", counted)  # the parts have slots: patched on the class

    async def held_matches_stored(g: int, mover: int, seat: int) -> None:
        before = [(t.kind, t.seat, t.due_at, dict(t.payload)) for t in await service.clocks.pending_timers(g)
                  if t.kind in ("reminder", "limit")]
        claimed = await _claim(service, g, mover)
        held = [t for t in await service.clocks.pending_timers(g) if t.kind == "held_clock" and t.seat == seat]
        assert len(held) == 1
        kept = [(t["kind"], seat, t["due_at"], t["payload"]) for t in held[0].payload["timers"]]
        assert kept == sorted((t for t in before if t[1] == seat), key=lambda t: t[2]) and kept
        await service.moves.submit(g, Actor.user(mover), {"type": "undo"}, claimed.seq)

    g, mover, seat = await _to_first_claim(service)
    known = store.timers_stamp(g) is not None  # SQLite: one process writes the timers
    reads.clear()
    await held_matches_stored(g, mover, seat)
    # The claim's read of the pending timers was spared on SQLite (the undo reads its own;
    # the two looks at the stored timers here read too).
    assert reads.count(g) == (3 if known else 4)
    # Something else changes the game's timers: the mover's reminder is gone.
    tx = store.tx()
    tx.timers.cancel(g, kind="reminder", seat=seat, any_seat=False)
    await store.write(tx)
    reads.clear()
    await held_matches_stored(g, mover, seat)
    assert reads.count(g) == 4  # read again: what was kept is no longer known to be so
