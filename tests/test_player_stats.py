"""`/ttr stats player:` as a picture: a player's games, wins, average and best score, ticket
completion, favourite routes and cities and games per variant — counted over the finished
games of one server only — and a rating when the ratings part of the bot gives one (the hook
`player_rating`)."""

from __future__ import annotations

from collections import Counter

import pytest

from app import GameService, Limits
from app.player_records import PlayerRecordOps, Rating
from bot_app.after_game import stats_card
from render.stats import StatsCard, render_stats
from render.text import preview_px
from tests.databases import Database
from tests.test_store_service import HOST, Clock, step

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture
def clock() -> Clock:
    return Clock()


async def _finished(service: GameService, guild: int, variant: str) -> int:
    lobby = await service.create_lobby(guild_id=guild, channel_id=guild * 10, host_user_id=HOST, host_name="Host",
                                       variant=variant, seats_wanted=2)
    await service.add_ai(lobby.game_id, HOST, "greedy", 1)
    game_id = (await service.start(lobby.game_id, HOST)).game_id
    for i in range(5000):
        if (await step(service, game_id, i)).status == "over":
            return game_id
    raise AssertionError("the game did not end")


async def test_a_record_counts_one_server_and_its_final_boards(database: Database, clock: Clock) -> None:
    service = await GameService.open(database.target, clock=clock, limits=Limits.unlimited())
    try:
        here = [await _finished(service, 1, "usa"), await _finished(service, 1, "europe")]
        await _finished(service, 2, "usa")  # another server's game never counts here
        record = await service.player_record(HOST, 1)
        s = record.stats
        assert s.games == 2 and record.rating is None
        results = [r for g in here for r in await service.results(g) if r.user_id == HOST]
        assert s.wins == sum(r.won for r in results)
        assert s.tickets_completed == sum(r.tickets_completed for r in results)
        assert record.ticket_share == s.tickets_completed / (s.tickets_completed + s.tickets_failed)
        assert sorted(v for v, _, _ in record.variants) == ["europe", "usa"]
        # favourites: the routes they held at the end of each game, counted once per game
        held: Counter[tuple[str, str]] = Counter()
        for g, r in zip(here, results, strict=True):
            final = await service.view(g, None)
            held.update((final.map_id, rid) for rid, seat in final.route_owner.items() if seat == r.seat)
        assert record.routes and all(held[(m, rid)] == n for m, rid, n in record.routes)
        assert max(held.values()) == record.routes[0][2]
        assert record.cities and record.cities[0][2] >= record.routes[0][2]
        everywhere = await service.player_record(HOST, None)
        assert everywhere.stats.games == 3
    finally:
        await service.close()


async def test_the_rating_hook_shows_on_the_picture(database: Database, clock: Clock) -> None:
    """What the ratings part of the bot connects: `player_rating` returns a Rating; the record
    carries it and the picture gets a tile for it."""

    class Rated(GameService, PlayerRecordOps):
        async def player_rating(self, user_id: int, guild_id: int | None) -> Rating | None:
            return Rating(27.5, "OpenSkill", "rank 1 of 4 · season 1") if guild_id == 1 else None

    service = await Rated.open(database.target, clock=clock, limits=Limits.unlimited())
    try:
        await _finished(service, 1, "usa")
        record = await service.player_record(HOST, 1)
        assert record.rating == Rating(27.5, "OpenSkill", "rank 1 of 4 · season 1")
        card = stats_card("Host", record)
        assert card.rating == ("27.5", "OpenSkill", "rank 1 of 4 · season 1")
        texts = render_stats(card).texts
        words = " ".join(t.text for t in texts)
        assert "27.5" in words and "OpenSkill" in words and "rank 1 of 4" in words
        _no_overlaps([t.box for t in texts])
        assert (await service.player_record(HOST, 2)).rating is None
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


def test_a_finished_game_view_names_routes_for_the_card() -> None:
    """Route and city names come from the map, with the map's name when favourites span maps."""
    from app.models import PlayerStats
    from app.player_records import PlayerRecord

    record = PlayerRecord(PlayerStats(1, 2, 1, 50.0, 60, 3, 1), (("usa", 1, 1), ("europe", 1, 0)),
                          routes=(("europe", "berlin-wien", 1), ("usa", "montreal-new_york", 1)),
                          cities=(("europe", "berlin", 1),))
    card = stats_card("Ann", record)
    assert card.routes[0][0] == "Berlin – Wien (Europe)"
    assert card.routes[1][0] == "Montréal – New York (USA)"
    assert card.cities == [("Berlin (Europe)", 1)]
