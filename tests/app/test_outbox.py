"""The delivery outbox at the service level: what each move owes is stored in the move's own
transaction; a delivery is settled once; a refusal for good pauses the game, holds its other
deliveries and owes the host a notice; resume retries; closed DMs are remembered per player.
Plus migration 4, which turns the old marker timers into real columns. Each test runs on SQLite
and on PostgreSQL (tests/conftest.py), migration 4's on SQLite only (no PostgreSQL database was
ever at version 3)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from ai.levels import make_ai
from app import Actor, Caller, GameService, ServiceError
from app.delivery_ops import backoff
from store.db import connect
from store.migrations import migrate
from store.opening import open_store
from tests.clock import Clock

HOST, BOB = 100, 101


async def _game(service: GameService, ais: int = 0, channel: int = 1) -> int:
    lobby = await service.tables.create_lobby(1, channel, HOST, "Host", "usa", seats_wanted=2 + ais)
    await service.tables.join(lobby.game_id, BOB, "Bob")
    for _ in range(ais):
        lobby = await service.tables.add_ai(lobby.game_id, HOST, "random",
                                            len((await service.tables.lobby(lobby.game_id)).seats))
    await service.tables.start(lobby.game_id, HOST)
    return lobby.game_id


def _kinds(deliveries) -> list[tuple[str, str]]:
    return [(d.kind, d.key) for d in deliveries]


async def _move(service: GameService, game_id: int, kind: str | None = None, **fields: object) -> None:
    """The waiting person makes a move (of `kind`, with these fields, if given)."""
    summary = await service.reads.game(game_id)
    user = summary.seats[summary.waiting_for[0]].user_id
    assert user is not None
    legal = await service.reads.legal_actions(game_id, user)
    choices = [a for a in legal if (kind is None or kind == a.TYPE)
               and all(a.to_json().get(k) == v for k, v in fields.items())] or legal
    action = make_ai("greedy", 1).choose(await service.reads.view(game_id, user), choices)
    await service.moves.submit(game_id, Actor.user(user), action, summary.seq)


async def test_the_start_owes_the_first_post_each_hand_and_the_turn_timers(service: GameService):
    g = await _game(service)
    owed = await service.outbox.deliveries(g)
    assert _kinds(owed) == [("post", "post:0"), ("turn", "turn:0:0"), ("turn", "turn:0:1")]
    assert owed[0].payload == {"new_turn": True}
    assert {d.user_id for d in owed[1:]} == {HOST, BOB}
    timers = sorted((t.kind, t.seat) for t in await service.clocks.pending_timers(g))
    assert timers == [("limit", 0), ("limit", 1), ("reminder", 0), ("reminder", 1)]
    assert service.deliveries_waiting.is_set()


async def test_a_draw_owes_an_edit_and_the_drawer_a_dm(service: GameService):
    g = await _game(service)
    await _move(service, g, "keep_tickets")
    await _move(service, g, "keep_tickets")
    before = len(await service.outbox.deliveries(g))
    summary = await service.reads.game(g)
    mover = summary.waiting_for[0]
    await _move(service, g, "draw_card", slot=None)  # a blind first card: the same turn goes on
    new = (await service.outbox.deliveries(g))[before:]
    seq = (await service.reads.game(g)).seq
    post = [d for d in new if d.kind == "post"]
    assert len(post) == 1 and post[0].payload == {"new_turn": False}
    dms = [d for d in new if d.kind == "dm"]
    assert [(d.key, d.user_id) for d in dms] == [(f"dm:{seq}:{mover}", summary.seats[mover].user_id)]
    # Nothing in a payload is secret: only kinds, seqs and seats.
    for d in new:
        assert set(d.payload) <= {"new_turn", "seat", "seq", "notes"}


async def test_a_delivery_is_owed_once_and_settled_once(service: GameService):
    g = await _game(service)
    tx = service.store.tx()
    tx.deliveries.owe(g, 0, "post", "post:0", payload_json="{}")  # the same key again
    await service.store.write(tx)
    assert len([d for d in await service.outbox.deliveries(g) if d.key == "post:0"]) == 1
    first = (await service.outbox.deliveries(g))[0]
    await service.outbox.delivered(first.id, 555)
    await service.outbox.delivered(first.id, 666)  # a second settlement changes nothing
    row = await service.store.deliveries.get(first.id)
    assert row is not None and (row.status, row.message_id, row.attempts) == ("sent", 555, 1)


async def test_what_one_transaction_owes_in_a_row_is_one_insert_each_row_owed_once(service: GameService):
    g = await _game(service)
    tx = service.store.tx()
    for n in range(10):  # past the most rows one INSERT carries
        tx.deliveries.owe(g, 0, "notice", f"n:{n}", user_id=BOB, payload_json=json.dumps({"n": n}))
    tx.deliveries.owe(g, 0, "notice", "n:3", user_id=BOB, payload_json="{}")  # a key twice in one INSERT
    tx.deliveries.owe(g, 0, "post", "post:0", payload_json="{}")  # a key already stored
    tx.games.set_paused(g, None)
    tx.deliveries.owe(g, 0, "notice", "n:10", user_id=BOB, payload_json="{}")  # after another statement
    assert len(tx.statements) == 4  # rows 1-8; rows 9-12; the pause; row 13
    await service.store.write(tx)
    notices = [d for d in await service.outbox.deliveries(g) if d.kind == "notice"]
    assert [d.key for d in notices] == [f"n:{n}" for n in range(11)]  # in the order owed
    assert [d.payload for d in notices[:10]] == [{"n": n} for n in range(10)]  # the first owe of a key stands
    assert len([d for d in await service.outbox.deliveries(g) if d.key == "post:0"]) == 1


async def test_a_turn_post_settles_every_pending_post_of_the_game(service: GameService):
    g = await _game(service, ais=1)
    await service.moves.play_bots(g)
    for _ in range(4):
        await _move(service, g)
        await service.moves.play_bots(g)
    data = await service.outbox.post_data(g)
    assert data is not None and len(data.deliveries) > 1
    assert data.from_seq == 0 and data.new_turn
    assert data.view.you is None  # the public view
    await service.outbox.posted(g, data.deliveries, 777, data.summary.seq)
    assert await service.outbox.post_data(g) is None
    summary = await service.reads.game(g)
    assert (summary.turn_post_id, summary.turn_post_seq) == (777, summary.seq)


async def test_a_failed_delivery_waits_longer_each_time(service: GameService, clock: Clock):
    g = await _game(service)
    d = (await service.outbox.deliveries(g))[1]
    assert [backoff(n) for n in range(10)] == [2, 4, 8, 16, 32, 64, 128, 256, 300, 300]
    due = await service.outbox.retry_later(d, "HTTP 503")
    assert due == clock.now + 2
    assert d.id not in [x.id for x in await service.outbox.due_deliveries()]
    clock.now += 2
    again = next(x for x in await service.outbox.due_deliveries() if x.id == d.id)
    assert again.attempts == 1
    assert await service.outbox.retry_later(again, "HTTP 503") == clock.now + 4


async def test_a_refusal_for_good_pauses_the_game_and_tells_the_host(service: GameService):
    g = await _game(service)
    post = (await service.outbox.deliveries(g))[0]
    await service.outbox.delivery_refused(post, "I am missing a permission there")
    summary = await service.reads.game(g)
    assert summary.paused_reason and "missing a permission" in summary.paused_reason
    assert not [t for t in await service.clocks.pending_timers(g) if t.kind in ("reminder", "limit")]
    due = await service.outbox.due_deliveries()
    assert [d.kind for d in due] == ["host_notice"]  # the rest of the game waits
    assert due[0].payload["reason"] == "I am missing a permission there"
    # Only the host (or a manager) may resume; resuming retries what was refused.
    with pytest.raises(ServiceError, match="host"):
        await service.clocks.resume(g, Caller(BOB))
    assert await service.clocks.resume(g, Caller(HOST))
    assert (await service.reads.game(g)).paused_reason is None
    retried = {d.id for d in await service.outbox.due_deliveries()}
    assert post.id in retried and len(retried) >= 3
    assert {t.kind for t in await service.clocks.pending_timers(g)} == {"reminder", "limit"}


async def test_closed_dms_are_remembered_in_every_game_until_the_player_asks(service: GameService):
    g1 = await _game(service, channel=1)
    g2 = await _game(service, channel=2)
    dm = next(d for d in await service.outbox.deliveries(g1) if d.user_id == BOB and d.kind == "turn")
    await service.outbox.dm_refused(dm)
    for g in (g1, g2):
        assert (await service.reads.game(g)).seats[1].dm_closed
    notices = [d for d in await service.outbox.deliveries(g1) if d.kind == "dm_closed"]
    assert [(d.key, d.user_id) for d in notices] == [(f"dm_closed:{BOB}", BOB)]
    # While closed, a new turn owes Bob a notice (once per game), not a DM.
    await _move(service, g2, "keep_tickets")
    await _move(service, g2, "keep_tickets")
    owed = await service.outbox.deliveries(g2)
    assert not [d for d in owed if d.user_id == BOB and d.kind in ("turn", "dm") and d.seq > 0]
    assert await service.outbox.dms_known_closed(BOB)
    await service.outbox.dms_open(BOB)
    assert not await service.outbox.dms_known_closed(BOB)
    assert not (await service.reads.game(g1)).seats[1].dm_closed


async def test_kick_pause_resume_need_the_host_or_a_manager(service: GameService):
    g = await _game(service)
    for call in (service.clocks.pause(g, Caller(BOB)), service.clocks.kick(g, 0, Caller(BOB))):
        with pytest.raises(ServiceError, match="host or a server manager"):
            await call
    assert await service.clocks.pause(g, Caller(BOB, manages_server=True))
    assert not await service.clocks.pause(g, Caller(HOST))  # already paused
    await service.clocks.kick(g, 1, Caller(HOST))
    summary = await service.reads.game(g)
    assert summary.seats[1].stand_in == "greedy" and summary.seats[1].absent_turns == 3
    assert 1 not in summary.waiting_for  # the AI chose Bob's opening tickets at once
    assert [d.payload for d in await service.outbox.deliveries(g) if d.kind == "notice"] == [
        {"notice": "stand_in", "seat": 1}]
    await service.clocks.player_seen(g, BOB)
    assert (await service.reads.game(g)).seats[1].stand_in is None


async def test_migration_4_turns_marker_timers_into_columns(tmp_path: Path):
    path = tmp_path / "old.sqlite3"
    old = await connect(path)
    try:
        await migrate(old, str(path), lambda: 0.0, target=3)
    finally:
        await old.close()
    with sqlite3.connect(path) as db:  # a database as version 3 left it, with marker timers
        db.execute("INSERT INTO games (id, guild_id, channel_id, host_user_id, variant, seats_wanted, status, seq,"
                   " created_at, updated_at) VALUES (7, 1, 1, 100, 'usa', 2, 'playing', 3, 0, 0)")
        db.execute("INSERT INTO players VALUES (7, 0, 100, 0, NULL, 'Host', 0), (7, 1, 101, 0, NULL, 'Bob', 0)")
        far = 4_000_000_000.0
        db.execute("INSERT INTO timers (game_id, kind, seat, due_at, payload, created_at) VALUES"
                   " (7, 'paused', NULL, ?, '{}', 0), (7, 'absent', 1, ?, ?, 0), (7, 'reminder', 0, 5, '{}', 0)",
                   (far, far, json.dumps({"misses": 3})))
    store = await open_store(path)
    try:
        game = await store.games.get(7)
        players = await store.games.players(7)
        assert game is not None and game.paused_reason == "paused by the host"
        assert [(p.absent_turns, p.stand_in) for p in players] == [(0, None), (3, "greedy")]
        assert [t.kind for t in await store.timers.pending(7)] == ["reminder"]
    finally:
        await store.close()


async def test_a_restart_moves_on_only_the_games_waiting_for_the_bot(service: GameService):
    human_turn = await _game(service, channel=1)
    bots_turn = await _game(service, ais=1, channel=2)  # the AI has not chosen its tickets yet
    assert await service.reads.games_waiting_for_bots() == [bots_turn]
    await service.moves.play_bots(bots_turn)
    assert await service.reads.games_waiting_for_bots() == []
    await service.clocks.kick(human_turn, 1, Caller(HOST))  # the AI holds Bob's seat: played at once
    assert await service.reads.games_waiting_for_bots() == []
