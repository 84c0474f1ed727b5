"""Caps on what one user or one server may open (app.limits), each refused in words with
nothing written (on SQLite and on PostgreSQL); their settings from the environment."""

from __future__ import annotations

import asyncio

import pytest

from app import GameService, LimitReached, Limits
from bot_app.config import Config
from tests.clock import Clock
from tests.databases import Database

HOST, OTHER = 100, 200


async def _service(database: Database, limits: Limits, clock: Clock) -> GameService:
    return await GameService.open(database.target, clock=clock, limits=limits)


async def _lobby(service: GameService, channel: int, host: int = HOST, guild: int = 1):
    return await service.tables.create_lobby(guild, channel, host, f"user{host}", "usa", seats_wanted=2)


async def _count(service: GameService) -> int:
    rows = await service.store.reader.fetch("SELECT COUNT(*) FROM games")
    return rows[0][0]


async def test_a_second_table_within_the_cooldown_is_refused(database: Database):
    clock = Clock(1_000_000.0)
    service = await _service(database, Limits(lobby_cooldown_seconds=10), clock)
    try:
        first = await _lobby(service, channel=1)
        again = await _lobby(service, channel=1)  # a double click: the same table, not a refusal
        assert again.game_id == first.game_id and not again.changed
        with pytest.raises(LimitReached, match=r"wait 10 s"):
            await _lobby(service, channel=2)
        assert await _count(service) == 1
        clock.now += 10
        assert (await _lobby(service, channel=2)).changed
    finally:
        await service.close()


async def test_a_burst_of_new_tables_opens_one(database: Database):
    """One user asking for 300 tables in as many channels at once gets one."""
    service = await _service(database, Limits(), Clock(1_000_000.0))
    try:
        results = await asyncio.gather(*(_lobby(service, channel=c) for c in range(300)), return_exceptions=True)
        opened = [r for r in results if not isinstance(r, BaseException)]
        assert len(opened) == 1
        assert all(isinstance(r, LimitReached) for r in results if isinstance(r, BaseException))
        assert await _count(service) == 1
    finally:
        await service.close()


async def test_open_tables_per_user_and_per_server(database: Database):
    service = await _service(database, Limits(lobbies_per_user=2, lobbies_per_server=3, lobby_cooldown_seconds=0),
                             Clock(1_000_000.0))
    try:
        await _lobby(service, channel=1)
        await _lobby(service, channel=2)
        with pytest.raises(LimitReached, match="already host 2 open tables"):
            await _lobby(service, channel=3)
        await _lobby(service, channel=3, host=OTHER)
        with pytest.raises(LimitReached, match="This server already has 3 open tables"):
            await _lobby(service, channel=4, host=OTHER + 1)
        await _lobby(service, channel=4, host=OTHER + 1, guild=2)  # another server has its own count
        assert await _count(service) == 4
    finally:
        await service.close()


async def test_seats_per_user_count_tables_and_running_games(database: Database):
    service = await _service(database, Limits(games_per_user=2, lobby_cooldown_seconds=0), Clock(1_000_000.0))
    try:
        a = await _lobby(service, channel=1, host=OTHER)
        b = await _lobby(service, channel=2, host=OTHER + 1)
        c = await _lobby(service, channel=3, host=OTHER + 2)
        await service.tables.join(a.game_id, HOST, "host")
        await service.tables.start(a.game_id, OTHER)  # a running game still counts
        await service.tables.join(b.game_id, HOST, "host")
        with pytest.raises(LimitReached, match="already sit at 2 tables and games"):
            await service.tables.join(c.game_id, HOST, "host")
        with pytest.raises(LimitReached, match="already sit at 2"):
            await _lobby(service, channel=4)
        assert len((await service.tables.lobby(c.game_id)).seats) == 1
    finally:
        await service.close()


async def test_running_games_per_server(database: Database):
    service = await _service(database, Limits(games_per_server=1, lobby_cooldown_seconds=0), Clock(1_000_000.0))
    try:
        a = await _lobby(service, channel=1)
        b = await _lobby(service, channel=2, host=OTHER)
        for lobby, host in ((a, HOST), (b, OTHER)):
            await service.tables.add_ai(lobby.game_id, host, "random", 1)
        await service.tables.start(a.game_id, HOST)
        with pytest.raises(LimitReached, match="already has 1 games running"):
            await service.tables.start(b.game_id, OTHER)
        assert (await service.tables.lobby(b.game_id)).status == "lobby"
    finally:
        await service.close()


def test_limits_come_from_the_environment():
    config = Config.from_env({"TTR_MAX_LOBBIES_PER_USER": "5", "TTR_MAX_GAMES_PER_SERVER": "40",
                              "TTR_LOBBY_COOLDOWN_SECONDS": "2.5"})
    assert config.limits == Limits(lobbies_per_user=5, games_per_server=40, lobby_cooldown_seconds=2.5)
    assert Config.from_env({}).limits == Limits()
    for bad in ({"TTR_MAX_GAMES_PER_USER": "lots"}, {"TTR_MAX_LOBBIES_PER_SERVER": "-1"},
                {"TTR_MAX_LOBBIES_PER_USER": "2.5"}):
        with pytest.raises(ValueError, match="TTR_MAX"):
            Config.from_env(bad)


def test_the_memory_of_the_game_cache_comes_from_the_environment():
    # About 16 KB a game (bench_store.py measures it): 192 MB by default keeps 12,288 games.
    assert Config.from_env({}).cache_games == 12_288
    assert Config.from_env({"TTR_GAME_CACHE_MB": "32"}).cache_games == 2048
    for bad in ("lots", "0", "-5", "nan", "inf"):
        with pytest.raises(ValueError, match="TTR_GAME_CACHE_MB"):
            Config.from_env({"TTR_GAME_CACHE_MB": bad})


def test_the_wait_for_a_named_shard_comes_from_the_environment():
    assert Config.from_env({}).shard_wait == 15.0
    assert Config.from_env({"TTR_SHARD_WAIT": "2"}).shard_wait == 2.0
    for bad in ("soon", "-1", "601", "nan"):
        with pytest.raises(ValueError, match="TTR_SHARD_WAIT"):
            Config.from_env({"TTR_SHARD_WAIT": bad})
