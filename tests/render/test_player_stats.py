"""`/ttr results stats player:` as a picture: a player's games, wins, average and best score, ticket
completion, favourite routes and cities and games per variant — counted over the finished
games of one server only — and this season's rating and rank from the ratings part
(`app.standings`, `player_card`)."""

from __future__ import annotations

import pytest

from app import GameService, Limits
from bot_app.presentation.after_game import stats_card, stats_words
from render.stats import StatsCard, render_stats
from render.text import preview_px
from tests.app.test_store_service import HOST, step
from tests.clock import Clock
from tests.databases import Database

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


async def _finished(service: GameService, guild: int, variant: str) -> int:
    lobby = await service.tables.create_lobby(guild_id=guild, channel_id=guild * 10, host_user_id=HOST,
                                              host_name="Host",
                                       variant=variant, seats_wanted=2)
    await service.tables.add_ai(lobby.game_id, HOST, "greedy", 1)
    game_id = (await service.tables.start(lobby.game_id, HOST)).game_id
    for i in range(5000):
        if (await step(service, game_id, i)).status == "over":
            return game_id
    raise AssertionError("the game did not end")


async def test_a_record_counts_one_server_and_carries_its_rating(database: Database, clock: Clock) -> None:
    service = await GameService.open(database.target, clock=clock, limits=Limits.unlimited())
    try:
        here = [await _finished(service, 1, "usa"), await _finished(service, 1, "europe")]
        await _finished(service, 2, "usa")  # another server's game never counts here
        record = await service.records.player_record(HOST, 1, "Host")
        s = record.stats
        assert s.games == 2
        results = [r for g in here for r in await service.reads.results(g) if r.user_id == HOST]
        assert s.wins == sum(r.won for r in results)
        assert s.best_score == max(r.score for r in results)
        assert s.tickets_completed == sum(r.tickets_completed for r in results)
        assert record.ticket_share == s.tickets_completed / (s.tickets_completed + s.tickets_failed)
        assert sorted(v for v, _, _ in record.variants) == ["europe", "usa"]
        # the ratings part's card: this season's rating and rank here, the favourites
        card = await service.standings.player_card(1, HOST, "Host")
        assert record.card == card and card.games == 2
        assert record.routes == card.favourite_routes and record.cities == card.favourite_cities
        assert record.routes and record.cities
        assert card.rating is not None and record.rating is not None and record.rating.value == card.rating
        assert f"season {card.season}" in record.rating.detail
        # the picture shows it
        picture = stats_card("Host", record)
        assert picture.rating is not None and picture.rating[0] == str(card.rating)
        words = " ".join(t.text for t in render_stats(picture).texts)
        assert str(card.rating) in words and "rating" in words and picture.routes[0][0] in words
        assert picture.routes[0][0] == record.routes[0][0].split(" (")[0]  # "A – B", without the track
        assert f"Rating {card.rating} (rank {card.rank}" in stats_words("Host", record)  # and in words
        # from a DM: the player's own results everywhere, without a server's rating
        everywhere = await service.records.player_record(HOST, None, "Host")
        assert everywhere.stats.games == 3 and everywhere.rating is None and everywhere.routes == ()
        assert "in all servers" in " ".join(t.text for t in render_stats(stats_card(
            "Host", everywhere, everywhere=True)).texts)
    finally:
        await service.close()


def _no_overlaps(boxes) -> None:
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_the_picture_reads_at_550_pixels() -> None:
    card = StatsCard(name="Alice", games=12, wins=5, average=98.4, best=141, tickets_done=40, tickets_failed=9,
                     routes=[("Berlin – Hamburg", 4), ("Paris – Bruxelles", 3), ("Wien – München", 2)],
                     cities=[("Berlin", 6), ("Paris", 5)], variants=[("Europe", 8, 3), ("USA", 4, 2)])
    pic = render_stats(card)
    legible = preview_px(pic.image.width)
    assert all(t.px >= legible for t in pic.texts)
    words = [t.text for t in pic.texts]
    for expected in ("Alice", "12", "5", "98.4", "141", "82%", "Berlin – Hamburg", "×4", "Berlin", "×6",
                     "Favourite routes", "Favourite cities"):
        assert expected in words, expected
    assert any("Europe: 8 games, 3 wins" in w for w in words)
    assert not any("rating" in w.lower() for w in words)  # no rating given: no tile for one
    _no_overlaps([t.box for t in pic.texts])
    assert pic.image.height < pic.image.width  # one card, not a scroll
