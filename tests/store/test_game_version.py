"""A game's version on PostgreSQL (migration 35): the server moves it at every change of the
game's row that does not raise its seq, and of its seats, so that a process holding the game in
memory compares two numbers at each use instead of reading the row and seats again
(app/loader.py). Its own moves and turn posts cost it no read; another process's changes are
seen at the next use."""

from __future__ import annotations

from typing import Any

from app import Caller, GameService, Limits
from app.copying import copy_database
from tests.databases import Database
from tests.store.test_postgres_reads import first_move as move

UNLIMITED = Limits.unlimited()
HOST, BOB = 100, 101


async def started(service: GameService, channel: int = 1) -> int:
    lobby = await service.tables.create_lobby(1, channel, HOST, "Host", "usa", seats_wanted=2)
    await service.tables.join(lobby.game_id, BOB, "Bob")
    await service.tables.start(lobby.game_id, HOST)
    return lobby.game_id


def stamp(database: Database, game_id: int) -> tuple[int, int]:
    found = database.fetchone("SELECT seq, version FROM games WHERE id = ?", game_id)
    assert found is not None
    return int(found[0]), int(found[1])


async def test_the_version_moves_at_every_change_but_a_move(other_database: Any) -> None:
    database: Database = other_database("postgres")
    service = await GameService.open(database.target, limits=UNLIMITED)
    store = service.store
    try:
        g = await started(service)
        other = await started(service, channel=2)
        seq, version = stamp(database, g)
        assert (seq, await store.games.stamp(g)) == (0, (0, "setup", version))
        # A move raises the seq: the version stays.
        assert await move(service, g) == 1
        assert stamp(database, g) == (1, version)
        # Each change of the row that leaves the seq, and of a seat, moves it by one.
        other_version = stamp(database, other)[1]
        row = await store.games.get(g)
        assert row is not None
        changes = []
        for write in ("pause", "turn post", "absence", "dm closed", "repair"):
            tx = store.tx()
            if write == "pause":
                tx.games.set_paused(g, "paused")
            elif write == "turn post":
                tx.games.set_turn_post(g, 555, 1)
            elif write == "absence":
                tx.seats.set_absence(g, 1, 2, "random")
            elif write == "dm closed":
                tx.seats.set_dm_closed_for_user(BOB, True)  # a seat in each of two games
            else:
                tx.games.repair(g, seq=1, status=row.status, waiting_json=row.waiting_json)
            await store.write(tx)
            changes.append(stamp(database, g))
        assert changes == [(1, version + n) for n in range(1, 6)]
        assert stamp(database, other)[1] == other_version + 1  # (Bob's seat there: DMs closed)
        # A change from outside the bot (a hand edit) too.
        database.execute(("UPDATE players SET name = 'Robert' WHERE game_id = ? AND seat = 1", (g,)))
        assert stamp(database, g) == (1, version + 6)
        database.execute(("UPDATE games SET seq = seq WHERE id = ?", (g,)))
        assert stamp(database, g) == (1, version + 7)
    finally:
        await service.close()


async def test_a_cached_game_reads_its_row_again_only_when_another_process_changed_it(
        other_database: Any) -> None:
    database: Database = other_database("postgres")
    first = await GameService.open(database.target, limits=UNLIMITED)
    second = await GameService.open(database.target, limits=UNLIMITED)
    try:
        g = await started(first)
        await first.reads.view(g, HOST)  # cached, its row and seats read with their version
        stats = first.loader.stats
        reads = stats.row_reads
        for _ in range(4):
            await move(first, g)
        # Its own turn post moves the version by one, which it knows.
        await first.outbox.posted(g, [], 777, 4)
        assert (await first.reads.panel(g, HOST)).summary.seq == 4
        assert stats.row_reads == reads  # its own moves and post: two numbers compared each time
        assert first.loader.cached(g) is not None
        # Another process's change that leaves the seq: seen at the next use, by one read.
        assert await second.clocks.pause(g, Caller(HOST))
        assert (await first.reads.panel(g, HOST)).summary.paused_reason == "paused by the host"
        assert stats.row_reads == reads + 1
        # A seat changed by hand (no process): seen too.
        database.execute(("UPDATE players SET name = 'Robert' WHERE game_id = ? AND seat = 1", (g,)))
        assert [s.name for s in (await first.reads.game(g)).seats] == ["Host", "Robert"]
        # Another process's turn post, after the first's own: the first counts one, finds two.
        await first.outbox.posted(g, [], 778, 4)
        await second.outbox.posted(g, [], 779, 4)
        loaded = await first.loader.load(g)
        assert loaded.row.turn_post_id == 779
        # A move by the other process: loaded afresh (its seq moved on), as before.
        assert await move(second, g) == 5
        assert (await first.reads.game(g)).seq == 5
    finally:
        await first.close()
        await second.close()


async def test_a_copy_keeps_every_version_as_it_was(other_database: Any) -> None:
    src: Database = other_database("postgres", "source")
    dst: Database = other_database("sqlite", "target")
    back: Database = other_database("postgres", "back")
    async with await GameService.open(src.target, limits=UNLIMITED) as service:
        g = await started(service)
        await move(service, g)
        assert await service.clocks.pause(g, Caller(HOST))
    versions = src.fetch("SELECT id, version FROM games ORDER BY id")
    assert versions[0][1] >= 2  # the start, the pause
    await copy_database(src.target, dst.target)
    assert dst.fetch("SELECT id, version FROM games ORDER BY id") == versions
    await copy_database(dst.target, back.target)  # inserting the seats moves no version
    assert back.fetch("SELECT id, version FROM games ORDER BY id") == versions
