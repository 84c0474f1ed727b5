"""Snapshots (app/loader.py, migration 8): a game is loaded from its snapshot and the log
entries after it, which gives exactly the state a full replay of its log gives; a snapshot is
written every few moves, when the game ends, and at a clean close; a damaged or wrong snapshot
is noticed and never used again (the log wins); and a burst of moves holds a bounded number of
loads and transactions at once. Each test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable

import pytest

from app import Actor, GameService, Limits
from app.loader import LOADS_AT_ONCE
from engine.game import apply, new_game, replay
from engine.rulesets import available_variants
from engine.state import GameState
from store import SchemaTooNew
from store.migrations import Migration, to_apply
from store.opening import open_store
from store.records import snapshot_digest
from store.writer import QueueBound
from tests.databases import SQLITE_ONLY, Database
from tools.selfplay import play_game

UNLIMITED = Limits.unlimited()
HOST = 1000


class Seeds:
    """The service's randomness: each start deals the next planned seed."""

    def __init__(self, seeds: list[int]) -> None:
        self.seeds = list(seeds)

    def __call__(self, bits: int) -> int:
        return self.seeds.pop(0)


@pytest.fixture
def random_bits() -> Seeds:
    """Every game the service deals is dealt with seed 0 (so `play_game(..., 0)` plans it)."""
    return Seeds([0] * 100)


def user(game: int, seat: int) -> int:
    return HOST + 10 * game + seat


async def deal(service: GameService, game: int, variant: str, options: dict, players: int = 3) -> int:
    """A started table of `players` people in channel `game` (seat n is user(game, n))."""
    lobby = await service.tables.create_lobby(1, game, user(game, 0), "p0", variant, options, seats_wanted=players)
    for seat in range(1, players):
        await service.tables.join(lobby.game_id, user(game, seat), f"p{seat}")
    return (await service.tables.start(lobby.game_id, user(game, 0))).game_id


def stored_replay(database: Database, game_id: int, upto: int | None = None) -> GameState:
    """The state a full replay of the stored log gives (after entry `upto`, default: all)."""
    variant, seed, options = database.fetchone("SELECT variant, seed, options FROM games WHERE id = ?", game_id) or ()
    names = [r[0] for r in database.fetch("SELECT name FROM players WHERE game_id = ? ORDER BY seat", game_id)]
    actions = [json.loads(r[0]) for r in database.fetch(
        "SELECT action FROM actions WHERE game_id = ? AND seq > 0 ORDER BY seq", game_id)]
    return replay(variant, len(names), seed, actions[:upto], json.loads(options), names=names)


async def played(service: GameService, game_id: int, moves: int, seed: int = 0) -> None:
    """`moves` more moves of the planned random game dealt with `seed`."""
    summary = await service.reads.game(game_id)
    plan = play_game(summary.variant, len(summary.seats), seed).actions
    for k in range(summary.seq, summary.seq + moves):
        mover = summary.seats[plan[k].player].user_id
        assert mover is not None
        await service.moves.submit(game_id, Actor.user(mover), plan[k], k)


# --- loading is a full replay, bit for bit ------------------------------------------------


VARIANTS = [(v, o) for v in available_variants() for o in ({}, {"dice": True})]


async def test_every_variant_loaded_from_its_snapshot_and_the_log_after_it_is_its_full_replay_bit_for_bit(
        database: Database) -> None:
    # Whole games of every variant, with and without dice, played at once; before every move
    # each game is dropped from the cache and loaded again from the database.
    seeds = [100 + i for i in range(len(VARIANTS))]
    plans = [play_game(v, 3, seed, options=o) for (v, o), seed in zip(VARIANTS, seeds, strict=True)]
    service = GameService(await open_store(database.target), limits=UNLIMITED, random_bits=Seeds(seeds))
    service.loader.snapshot_every = 5
    try:
        games = [await deal(service, i, v, o) for i, (v, o) in enumerate(VARIANTS)]

        async def play(i: int, game_id: int) -> None:
            variant, options = VARIANTS[i]
            # A table made at /ttr new may take back a move unless its options say not.
            reference, _ = new_game(variant, 3, seeds[i], {"undo": True, **options}, names=["p0", "p1", "p2"])
            for k, action in enumerate(plans[i].actions):
                service.loader.forget(game_id)
                loaded = await service.loader.load(game_id)
                assert loaded.seq == k and loaded.snapshot_seq == k - k % 5
                assert loaded.state.to_canonical() == reference.to_canonical(), f"{variant} {options} at {k}"
                await service.moves.submit(game_id, Actor.user(user(i, action.player)), action, k)
                reference, _ = apply(reference, action)
            assert reference.status == "over"

        await asyncio.gather(*(play(i, g) for i, g in enumerate(games)))
        assert service.loader.stats.full_replays == 0
        assert service.loader.stats.from_snapshot == sum(len(p.actions) for p in plans)
        for game_id in games:
            service.loader.forget(game_id)
            loaded = await service.loader.load(game_id)
            final = stored_replay(database, game_id)
            assert loaded.state.to_canonical() == final.to_canonical() and final.status == "over"
            # A finished game's snapshot is its final state: it loads without replaying anything.
            assert database.fetchone("SELECT seq FROM snapshots WHERE game_id = ?", game_id) == (loaded.seq,)
    finally:
        await service.close()


# --- when snapshots are written -------------------------------------------------------------


async def test_a_snapshot_is_written_every_n_moves_in_the_moves_own_transaction(
        service: GameService, database: Database) -> None:
    service.loader.snapshot_every = 4
    game_id = await deal(service, 0, "usa", {}, players=2)
    plan = play_game("usa", 2, 0).actions
    seen = []
    for k in range(10):
        done = await service.moves.submit(game_id, Actor.user(user(0, plan[k].player)), plan[k], k)
        snapshot_seq, state, digest = database.fetchone(
            "SELECT seq, state, digest FROM snapshots WHERE game_id = ?", game_id) or ()
        seen.append(snapshot_seq)
        assert done.seq == k + 1
        assert state == stored_replay(database, game_id, snapshot_seq).to_canonical()
        assert digest == snapshot_digest(state)
    assert seen == [0, 0, 0, 4, 4, 4, 4, 8, 8, 8]


async def test_a_clean_close_brings_every_snapshot_to_the_end_of_its_log(database: Database) -> None:
    service = GameService(await open_store(database.target), limits=UNLIMITED, random_bits=Seeds([0, 0]))
    games = [await deal(service, i, "usa", {}, players=2) for i in range(2)]
    plan = play_game("usa", 2, 0).actions
    for i, game_id in enumerate(games):
        for k in range(3 + 4 * i):
            await service.moves.submit(game_id, Actor.user(user(i, plan[k].player)), plan[k], k)
    service.loader.forget(games[1])  # in the cache or not
    assert database.fetch("SELECT seq FROM snapshots ORDER BY game_id") == [(0,), (0,)]
    await service.close()
    assert database.fetch("SELECT seq FROM snapshots ORDER BY game_id") == [(3,), (7,)]
    for game_id in games:
        state, digest = database.fetchone("SELECT state, digest FROM snapshots WHERE game_id = ?", game_id) or ()
        assert state == stored_replay(database, game_id).to_canonical() and digest == snapshot_digest(state)


# --- a damaged or wrong snapshot ----------------------------------------------------------------


async def a_game_with_a_snapshot_at(database: Database, moves: int) -> tuple[int, GameState]:
    """A two-player game `moves` moves in, its snapshot at its end (a clean close), and the
    state a full replay gives."""
    service = GameService(await open_store(database.target), limits=UNLIMITED, random_bits=Seeds([0]))
    game_id = await deal(service, 0, "usa", {}, players=2)
    plan = play_game("usa", 2, 0).actions
    for k in range(moves):
        await service.moves.submit(game_id, Actor.user(user(0, plan[k].player)), plan[k], k)
    await service.close()
    assert database.fetchone("SELECT seq FROM snapshots WHERE game_id = ?", game_id) == (moves,)
    return game_id, stored_replay(database, game_id)


def wrong(state: GameState) -> str:
    """The state with one card of the first hand changed: valid, readable, and wrong."""
    data = json.loads(state.to_canonical())
    hand = data["players"][0]["hand"]
    colour = next(c for c, n in hand.items() if n)
    hand[colour] -= 1
    hand["loco"] = hand.get("loco", 0) + 1
    return GameState.from_json(data).to_canonical()


async def test_a_snapshot_that_does_not_match_its_digest_is_not_used_and_the_log_wins(
        database: Database, caplog: pytest.LogCaptureFixture) -> None:
    game_id, truth = await a_game_with_a_snapshot_at(database, 9)
    database.execute(("UPDATE snapshots SET state = ? WHERE game_id = ?", (wrong(truth), game_id)))
    caplog.set_level(logging.WARNING)
    async with await GameService.open(database.target, limits=UNLIMITED) as service:
        loaded = await service.loader.load(game_id)
        assert loaded.state.to_canonical() == truth.to_canonical()
        assert service.loader.stats.full_replays == 1 and service.loader.stats.from_snapshot == 0
        assert f"game {game_id}: the snapshot at seq 9 differed from a replay of the log; the log wins" in caplog.text
        state, digest = database.fetchone("SELECT state, digest FROM snapshots WHERE game_id = ?", game_id) or ()
        assert state == truth.to_canonical() and digest == snapshot_digest(state)


async def test_a_snapshot_whose_digest_alone_is_damaged_is_rewritten(
        database: Database, caplog: pytest.LogCaptureFixture) -> None:
    game_id, truth = await a_game_with_a_snapshot_at(database, 5)
    database.execute(("UPDATE snapshots SET digest = ? WHERE game_id = ?", ("0" * 32, game_id)))
    caplog.set_level(logging.WARNING)
    async with await GameService.open(database.target, limits=UNLIMITED) as service:
        assert (await service.loader.load(game_id)).state.to_canonical() == truth.to_canonical()
        assert f"game {game_id}: the snapshot at seq 5 did not match its digest; the log wins" in caplog.text
    assert database.fetchone("SELECT digest FROM snapshots WHERE game_id = ?", game_id) == (
        snapshot_digest(truth.to_canonical()),)


async def test_a_wrong_snapshot_with_a_good_digest_is_caught_by_the_background_check_and_never_used_again(
        database: Database, caplog: pytest.LogCaptureFixture) -> None:
    # As an engine bug would write it: the digest is right, the state is not.
    game_id, truth = await a_game_with_a_snapshot_at(database, 7)
    bad = wrong(truth)
    database.execute(("UPDATE snapshots SET state = ?, digest = ? WHERE game_id = ?",
                      (bad, snapshot_digest(bad), game_id)))
    caplog.set_level(logging.WARNING)
    async with await GameService.open(database.target, limits=UNLIMITED) as service:
        first = await service.loader.load(game_id)  # used at once: not known good, so checked later
        assert not first.verified and service.loader.checks_waiting == 1
        await service.loader.checks_done()
        assert f"game {game_id}: the snapshot at seq 7 differed from a replay of the log; the log wins" in caplog.text
        assert service.loader.stats.check_failures == 1
        # The game in the cache is the log's now, and so is the stored snapshot.
        again = await service.loader.load(game_id)
        assert again.verified and again.state.to_canonical() == truth.to_canonical()
        assert database.fetchone("SELECT state FROM snapshots WHERE game_id = ?", game_id) == (truth.to_canonical(),)
        # Should the bad snapshot come back (a write lost, a backup restored), it is not used.
        database.execute(("UPDATE snapshots SET state = ?, digest = ? WHERE game_id = ?",
                          (bad, snapshot_digest(bad), game_id)))
        service.loader.forget(game_id)
        replays = service.loader.stats.full_replays
        assert (await service.loader.load(game_id)).state.to_canonical() == truth.to_canonical()
        assert service.loader.stats.full_replays == replays + 1
        assert caplog.text.count("the snapshot at seq 7 differed from a replay of the log; the log wins") == 2


async def test_a_snapshot_is_checked_once_per_process_and_those_it_wrote_itself_not_at_all(
        database: Database) -> None:
    game_id, truth = await a_game_with_a_snapshot_at(database, 6)
    async with await GameService.open(database.target, limits=UNLIMITED) as service:
        for _ in range(3):
            service.loader.forget(game_id)
            await service.loader.load(game_id)
            await service.loader.checks_done()
        assert service.loader.stats.checked == 1 and service.loader.stats.check_failures == 0
        assert service.loader.stats.from_snapshot == 3 and service.loader.stats.full_replays == 0
        # It moves on, and writes snapshots from a state it checked: nothing more to check.
        service.loader.snapshot_every = 2
        await played(service, game_id, 4)
        service.loader.forget(game_id)
        assert (await service.loader.load(game_id)).verified
        assert service.loader.checks_waiting == 0 and service.loader.stats.checked == 1


async def test_a_snapshot_from_before_migration_8_is_replaced_quietly_after_one_full_replay(
        database: Database, caplog: pytest.LogCaptureFixture) -> None:
    game_id, truth = await a_game_with_a_snapshot_at(database, 4)
    database.execute(("UPDATE snapshots SET digest = NULL WHERE game_id = ?", (game_id,)))
    caplog.set_level(logging.WARNING)
    async with await GameService.open(database.target, limits=UNLIMITED) as service:
        assert (await service.loader.load(game_id)).state.to_canonical() == truth.to_canonical()
        service.loader.forget(game_id)
        await service.loader.load(game_id)
        assert service.loader.stats.full_replays == 1 and service.loader.stats.from_snapshot == 1
    assert caplog.text == ""
    assert database.fetchone("SELECT digest FROM snapshots WHERE game_id = ?", game_id) == (
        snapshot_digest(truth.to_canonical()),)


@SQLITE_ONLY
async def test_a_game_loads_the_same_through_the_read_connections_fallback(service: GameService) -> None:
    # Without aiosqlite's internal call, the reads of a load are made one public call each.
    game_id = await deal(service, 0, "usa", {}, players=2)
    await played(service, game_id, 11)
    service.loader.forget(game_id)
    fast = await service.loader.load(game_id)
    service.store._read_in_thread = None  # type: ignore[attr-defined]
    service.loader.forget(game_id)
    slow = await service.loader.load(game_id)
    assert (slow.seq, slow.snapshot_seq, slow.state.to_canonical()) == (11, 8, fast.state.to_canonical())
    assert service.loader.stats.from_snapshot == 2


# --- bounded memory under a burst ---------------------------------------------------------------


async def test_the_writer_queue_is_bounded_and_the_rest_wait_their_turn(database: Database) -> None:
    async with await open_store(database.target) as store:
        writer = store._writer  # type: ignore[attr-defined]
        writer.bound = QueueBound(4)
        gate = asyncio.Event()
        original = writer._commit

        async def held(batch: list) -> None:
            await gate.wait()
            await original(batch)

        writer._commit = held
        tx = []
        for i in range(40):
            t = store.tx()
            t.bot_state.set(f"k{i}", "v")
            tx.append(t)
        writes = [asyncio.create_task(store.write(t)) for t in tx]
        room = asyncio.create_task(store.room())
        for _ in range(20):
            await asyncio.sleep(0)
        assert writer.bound.held == 4 and not any(w.done() for w in writes) and not room.done()
        assert len(writer._queue) <= 4
        gate.set()
        await asyncio.gather(*writes, room)
        assert writer.bound.peak == 4 and writer.bound.held == 0
        assert len(await store.reader.fetch("SELECT key FROM bot_state")) == 40


async def test_a_burst_of_moves_on_many_games_loads_a_bounded_number_at_once(database: Database) -> None:
    service = GameService(await open_store(database.target), limits=UNLIMITED, cache_size=5,
                          random_bits=Seeds([0] * 60))
    try:
        service.store._writer.bound = QueueBound(8)  # type: ignore[attr-defined]
        games = [await deal(service, i, "usa", {}, players=2) for i in range(60)]
        plan = play_game("usa", 2, 0).actions
        for game_id in games:
            service.loader.forget(game_id)
        results = await asyncio.gather(*(
            service.moves.submit(g, Actor.user(user(i, plan[0].player)), plan[0], 0) for i, g in enumerate(games)))
        assert [r.seq for r in results] == [1] * 60
        assert service.loader.loads_peak <= LOADS_AT_ONCE < 60
        assert service.store._writer.bound.peak <= 8  # type: ignore[attr-defined]
        assert service.cached_games == 5
    finally:
        await service.close()


# --- migrations may skip a number ---------------------------------------------------------------


def test_a_migration_number_may_be_skipped_and_is_applied_when_it_lands_later() -> None:
    def migrations(*versions: int) -> tuple[Migration, ...]:
        return tuple(Migration(v, f"m{v}", "") for v in versions)

    # Branch A ships 8 while 7 is still being written elsewhere.
    assert [m.version for m in to_apply(migrations(1, 2, 6, 8), {1, 2, 6}, "db")] == [8]
    # Then 7 lands: a database that already has 8 still gets 7.
    assert [m.version for m in to_apply(migrations(1, 2, 6, 7, 8), {1, 2, 6, 8}, "db")] == [7]
    assert [m.version for m in to_apply(migrations(1, 2, 6, 7, 8), {1, 2}, "db", target=7)] == [6, 7]
    # A database with a migration this code does not know is a newer bot's.
    with pytest.raises(SchemaTooNew):
        to_apply(migrations(1, 2, 6, 8), {1, 2, 6, 7}, "db")
    no_such: Callable[[], object] = lambda: to_apply(migrations(1, 2, 8), set(), "db", target=7)  # noqa: E731
    with pytest.raises(ValueError):
        no_such()
