"""Server leaderboards: OpenSkill ratings from stored results, per variant and overall, by
season; recomputing a season from its results gives the same ratings; a server chooses whether
games with AI seats count. Each service test runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import itertools

import pytest
from openskill.models import PlackettLuce

from ai.levels import make_ai
from app import Actor, Caller, GameService, Limits, SubmitResult
from app.ratings import MODEL, Ratings, rate
from app.standings import SeasonError
from store.records import ResultRow
from tests.clock import Clock
from tests.databases import Database

GUILD, OTHER_GUILD = 1, 2
ANN, BEN, CAT, DON = 11, 12, 13, 14
CHANNELS = itertools.count(100)
MANAGER = Caller(ANN, manages_server=True)

pytestmark = pytest.mark.clock_at(1_800_000_000.0)


def row(game_id: int, seat: int, who: int | None, place: int, *, score: int = 100, variant: str = "usa",
        finished_at: float = 0.0, guild: int = GUILD, ai_level: str | None = None) -> ResultRow:
    return ResultRow(game_id=game_id, seat=seat, user_id=who, is_ai=who is None, ai_level=ai_level,
                     name=f"player{who}" if who else f"AI {ai_level}", guild_id=guild, variant=variant,
                     score=score, place=place, won=place == 1, tickets_completed=2, tickets_failed=1,
                     finished_at=finished_at)


async def finished_game(service: GameService, clock: Clock, places: dict[int | None, int], *, variant: str = "usa",
                        guild: int = GUILD, ai_level: str = "greedy") -> list[ResultRow]:
    """Store the results of one game (a lobby row stands for the game) finishing now."""
    # A table per channel: opening a second one where one is open would give back the first.
    lobby = await service.tables.create_lobby(guild_id=guild, channel_id=next(CHANNELS), host_user_id=ANN,
                                       host_name="ann", variant=variant, seats_wanted=len(places))
    rows = [row(lobby.game_id, seat, who, place, variant=variant, finished_at=clock.now, guild=guild,
                ai_level=None if who else ai_level)
            for seat, (who, place) in enumerate(places.items())]
    tx = service.store.tx()
    tx.results.add(rows)
    await service.store.write(tx)
    clock.now += 60
    return rows


# --- the rating model -----------------------------------------------------------------------

def test_the_model_is_the_librarys_documented_plackett_luce() -> None:
    """openskill's README: two teams of two new players, the first wins."""
    r = MODEL.rating
    [[a, b], [x, y]] = MODEL.rate([[r(), r()], [r(), r()]])
    assert (a.mu, a.sigma) == (26.964294621803063, 8.177962604389991)
    assert (x.mu, x.sigma) == (23.035705378196937, 8.177962604389991)
    assert (a.mu, a.sigma) == (b.mu, b.sigma) and (x.mu, x.sigma) == (y.mu, y.sigma)
    fresh = PlackettLuce().rating()
    assert (fresh.mu, fresh.sigma) == (25.0, 25.0 / 3.0)


def test_a_game_is_rated_as_a_free_for_all_with_shared_places() -> None:
    rows = [row(1, 0, ANN, 1), row(1, 1, BEN, 2), row(1, 2, CAT, 2)]
    ratings = rate(rows)
    r = MODEL.rating
    [[ann], [ben], [cat]] = MODEL.rate([[r()], [r()], [r()]], ranks=[1.0, 2.0, 2.0])
    by_key = ratings.standings
    assert (by_key[f"user:{ANN}"].mu, by_key[f"user:{ANN}"].sigma) == (ann.mu, ann.sigma)
    assert by_key[f"user:{BEN}"].mu == by_key[f"user:{CAT}"].mu == ben.mu == cat.mu
    assert [s.key for s in ratings.ranking()][0] == f"user:{ANN}"
    assert by_key[f"user:{ANN}"].wins == 1 and by_key[f"user:{BEN}"].wins == 0


def test_games_are_rated_in_the_order_they_finished_whatever_order_they_are_read() -> None:
    rows = [row(g, s, who, place, finished_at=float(g))
            for g, pair in enumerate([(ANN, BEN), (BEN, CAT), (CAT, ANN), (ANN, CAT)], 1)
            for s, (who, place) in enumerate(zip(pair, (1, 2), strict=True))]
    expected = rate(rows)
    for order in itertools.islice(itertools.permutations(rows), 0, None, 997):
        again = rate(order)
        assert {k: (s.mu, s.sigma) for k, s in again.standings.items()} == \
               {k: (s.mu, s.sigma) for k, s in expected.standings.items()}


def test_a_newcomer_shows_zero_and_a_winner_climbs() -> None:
    ratings = Ratings()
    assert ratings.ranking() == []
    ratings.add_results([row(1, 0, ANN, 1), row(1, 1, BEN, 2)])
    ann, ben = ratings.standings[f"user:{ANN}"], ratings.standings[f"user:{BEN}"]
    assert ann.shown > ben.shown
    start = MODEL.rating()
    assert round((start.mu - 3 * start.sigma) * 40) == 0


def test_two_ai_seats_of_one_level_are_one_player_and_a_lone_human_game_is_not_rated() -> None:
    rows = [row(1, 0, ANN, 2), row(1, 1, None, 1, ai_level="greedy"), row(1, 2, None, 3, ai_level="greedy")]
    ratings = rate(rows)
    assert set(ratings.standings) == {f"user:{ANN}", "ai:greedy"}
    assert ratings.standings["ai:greedy"].games == 1
    assert rate([row(2, 0, ANN, 1)]).games == 0


def test_a_server_that_does_not_count_ai_games_rates_only_games_between_people() -> None:
    rows = [row(1, 0, ANN, 1), row(1, 1, None, 2, ai_level="greedy"),
            row(2, 0, BEN, 1, finished_at=1), row(2, 1, CAT, 2, finished_at=1)]
    assert set(rate(rows, count_ai_games=False).standings) == {f"user:{BEN}", f"user:{CAT}"}
    assert set(rate(rows, count_ai_games=True).standings) == {f"user:{ANN}", "ai:greedy", f"user:{BEN}",
                                                              f"user:{CAT}"}


# --- the service: leaderboards, seasons, cards ------------------------------------------------

async def test_the_leaderboard_is_the_ratings_of_the_servers_results(service: GameService, clock: Clock) -> None:
    stored = []
    stored += await finished_game(service, clock, {ANN: 1, BEN: 2, CAT: 3})
    stored += await finished_game(service, clock, {BEN: 1, ANN: 2})
    await finished_game(service, clock, {DON: 1, BEN: 2}, guild=OTHER_GUILD)  # another server's
    board = await service.standings.leaderboard(GUILD)
    assert board.season.number == 1 and board.games == 2
    assert [s.key for s in board.standings] == [s.key for s in rate(stored).ranking()]
    assert f"user:{DON}" not in {s.key for s in board.standings}


async def test_recomputing_a_season_gives_the_ratings_the_updates_gave(service: GameService, clock: Clock) -> None:
    stored = []
    for places in ({ANN: 1, BEN: 2}, {BEN: 1, CAT: 2, ANN: 3}, {CAT: 1, ANN: 2}, {ANN: 1, CAT: 1, BEN: 3}):
        stored += await finished_game(service, clock, places)
        await service.standings.leaderboard(GUILD)  # the cached ratings fold in one game at a time
    updated = await service.standings.leaderboard(GUILD)
    fresh = rate(stored)
    assert [(s.key, s.mu, s.sigma, s.games, s.wins) for s in updated.standings] == \
           [(s.key, s.mu, s.sigma, s.games, s.wins) for s in fresh.ranking()]
    restarted = GameService(service.store, clock=clock)  # an empty cache: computed from scratch
    assert [(s.key, s.mu) for s in (await restarted.standings.leaderboard(GUILD)).standings] == \
           [(s.key, s.mu) for s in updated.standings]


async def test_a_leaderboard_per_variant_and_overall(service: GameService, clock: Clock) -> None:
    await finished_game(service, clock, {ANN: 1, BEN: 2}, variant="usa")
    await finished_game(service, clock, {BEN: 1, CAT: 2}, variant="europe")
    usa = await service.standings.leaderboard(GUILD, variant="usa")
    europe = await service.standings.leaderboard(GUILD, variant="europe")
    overall = await service.standings.leaderboard(GUILD)
    assert {s.key for s in usa.standings} == {f"user:{ANN}", f"user:{BEN}"}
    assert {s.key for s in europe.standings} == {f"user:{BEN}", f"user:{CAT}"}
    assert overall.games == 2 and len(overall.standings) == 3


async def test_a_new_season_starts_every_rating_afresh_and_old_seasons_stay(service: GameService,
                                                                            clock: Clock) -> None:
    first = await finished_game(service, clock, {ANN: 1, BEN: 2})
    season = await service.standings.start_season(GUILD, MANAGER)
    assert season.number == 2
    clock.now += 1
    second = await finished_game(service, clock, {BEN: 1, CAT: 2})
    now = await service.standings.leaderboard(GUILD)
    assert now.season.number == 2 and now.seasons == 2
    assert {s.key for s in now.standings} == {f"user:{BEN}", f"user:{CAT}"}
    assert now.standings[0].mu == rate(second).standings[f"user:{BEN}"].mu
    old = await service.standings.leaderboard(GUILD, season=1)
    assert {s.key for s in old.standings} == {f"user:{ANN}", f"user:{BEN}"}
    assert old.standings[0].mu == rate(first).standings[f"user:{ANN}"].mu
    with pytest.raises(SeasonError, match="has had 2 seasons; there is no season 3"):
        await service.standings.leaderboard(GUILD, season=3)
    assert (await service.standings.leaderboard(OTHER_GUILD)).season.number == 1  # seasons are per server
    with pytest.raises(SeasonError, match="Only someone who can manage this server"):
        await service.standings.start_season(GUILD, Caller(BEN))
    assert (await service.standings.leaderboard(GUILD)).seasons == 2


async def test_whether_ai_games_count_is_the_servers_choice(service: GameService, clock: Clock) -> None:
    await finished_game(service, clock, {ANN: 1, None: 2})
    await finished_game(service, clock, {BEN: 1, CAT: 2})
    assert (await service.standings.leaderboard(GUILD)).games == 2  # they count by default
    await service.standings.set_rate_ai_games(GUILD, False, MANAGER)
    board = await service.standings.leaderboard(GUILD)
    assert board.games == 1 and not board.rate_ai_games
    assert {s.key for s in board.standings} == {f"user:{BEN}", f"user:{CAT}"}
    await service.standings.set_rate_ai_games(GUILD, True, MANAGER)
    assert (await service.standings.leaderboard(GUILD)).games == 2


async def test_a_players_card_after_a_real_game(service: GameService, clock: Clock) -> None:
    lobby = await service.tables.create_lobby(guild_id=GUILD, channel_id=5, host_user_id=ANN, host_name="ann",
                                       variant="usa", seats_wanted=2)
    await service.tables.add_ai(lobby.game_id, ANN, "greedy", 1)
    game_id = (await service.tables.start(lobby.game_id, ANN)).game_id
    for _ in range(3000):
        done = await play_one(service, game_id)
        if done.ended:
            break
    assert done.ended
    card = await service.standings.player_card(GUILD, ANN, "ann")
    assert card.games == 1 and card.rank in (1, 2) and card.rating is not None
    assert card.favourite_routes and card.favourite_cities
    state = (await service.loader.load(game_id)).state
    assert len(state.players[0].routes) >= card.favourite_routes[0][1] >= 1
    assert (await service.standings.player_card(GUILD, DON, "don")).rating is None  # never played here


async def play_one(service: GameService, game_id: int) -> SubmitResult:
    """Whoever the game waits for moves: the AI seat by itself, ANN as the greedy AI would."""
    summary = await service.reads.game(game_id)
    seat = summary.seats[summary.waiting_for[0]]
    if seat.is_ai:
        done = await service.moves.play_ai(game_id, summary.seq)
        assert done is not None
        return done
    assert seat.user_id is not None
    legal = await service.reads.legal_actions(game_id, seat.user_id)
    seen = await service.reads.view(game_id, seat.user_id)
    action = make_ai("greedy", summary.seq).choose(seen, legal)
    return await service.moves.submit(game_id, Actor.user(seat.user_id), action, summary.seq)


@pytest.mark.parametrize(("source", "target"), [("sqlite", "postgres"), ("postgres", "sqlite")])
async def test_copy_db_takes_each_servers_seasons_and_leaderboard_settings(other_database, source, target):
    from app.copying import copy_database

    src: Database = other_database(source, "source")
    dst: Database = other_database(target, "target")
    async with await GameService.open(src.target, limits=Limits.unlimited()) as svc:
        await svc.standings.start_season(GUILD, MANAGER)
        await svc.standings.set_rate_ai_games(GUILD, False, MANAGER)
        seasons = await svc.store.standings.seasons(GUILD)
    await copy_database(src.target, dst.target)
    async with await GameService.open(dst.target, limits=Limits.unlimited()) as copied:
        assert await copied.store.standings.seasons(GUILD) == seasons
        assert [s.number for s in seasons][-1] == 2
        assert await copied.store.standings.rate_ai_games(GUILD) is False
