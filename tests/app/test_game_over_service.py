"""The news of a game's end as the final move owes it (app/owed.py `game_over`), through the
service, on SQLite and on PostgreSQL: one stored delivery per person who played (none for an AI
seat; a person the AI stands in for hears it too), in the same transaction as the final move;
held until quiet hours end, or for the next daily digest — which carries it — and released at
once when that player turns the digest off. And the place each player is told (ties share a
place; a tie-break decides the winner). Through Discord: tests/bot_app/test_bot_game_over.py."""

from __future__ import annotations

import dataclasses
import random

from ai.levels import make_ai
from app import Actor, GameService, Limits
from app.owed import DIGEST, DIGEST_HOLD, GAME_OVER, SeatInfo, game_over_news
from app.player_clock import PlayerClock
from bot_app.delivery.game_over_news import ordinal, result_words, standing
from tests.clock import BERLIN, Clock, at
from tests.databases import Database
from tools.samples import sample_view

HOST, BOB, CAROL = 100, 101, 102


async def _finish(service: GameService, g: int) -> None:
    ai = make_ai("greedy", 2)
    while (summary := await service.reads.game(g)).status != "over":
        seat = summary.waiting_for[0]
        user = summary.seats[seat].user_id
        if user is None:
            await service.moves.play_bots(g)
            continue
        view = await service.reads.view(g, user)
        legal = await service.reads.legal_actions(g, user)
        await service.moves.submit(g, Actor.user(user), ai.choose(view, legal), summary.seq)


async def test_the_final_move_owes_each_person_the_news_held_for_quiet_hours_and_the_digest(database: Database):
    clock = Clock(at(2024, 6, 3, 23, 30))  # late on a Monday evening in Berlin
    service = await GameService.open(database.target, clock=clock, limits=Limits.unlimited(),
                                     random_bits=random.Random(4).getrandbits)
    try:
        await service.settings.change_settings(BOB, timezone=BERLIN, quiet_hours="23:00-08:00")
        await service.settings.change_settings(CAROL, timezone=BERLIN, digest="9")
        lobby = await service.tables.create_lobby(1, 1, HOST, "Host", "usa", seats_wanted=4)
        await service.tables.join(lobby.game_id, BOB, "Bob")
        await service.tables.join(lobby.game_id, CAROL, "Carol")
        await service.tables.add_ai(lobby.game_id, HOST, "greedy", 3)
        g = (await service.tables.start(lobby.game_id, HOST)).game_id
        await _finish(service, g)
        news = {d.user_id: d for d in await service.outbox.deliveries(g, "pending") if d.kind == GAME_OVER}
        assert set(news) == {HOST, BOB, CAROL}  # the AI seat hears nothing
        final_seq = (await service.reads.game(g)).seq
        assert {d.seq for d in news.values()} == {final_seq}  # owed by the final move itself
        due = {u: (await service.store.deliveries.get(d.id)).due_at for u, d in news.items()}
        assert due[HOST] == clock.now
        assert due[BOB] == at(2024, 6, 4, 8, 0)  # when his quiet hours end
        assert due[CAROL] == at(2024, 6, 4, 9, 0) + DIGEST_HOLD and news[CAROL].payload["digest"] is True

        # Carol's digest at 09:00 carries the news: settled with it, listed in its payload.
        clock.now = at(2024, 6, 4, 9, 0)
        assert await service.clocks.fire_digests() == 1
        digests = [d for d in await service.outbox.deliveries(g) if d.kind == DIGEST and d.user_id == CAROL]
        assert len(digests) == 1 and digests[0].payload["news"] == [news[CAROL].id]
        assert CAROL not in {d.user_id for d in await service.outbox.deliveries(g, "pending") if d.kind == GAME_OVER}
        carried = await service.outbox.digest_news(digests[0])
        assert [n.seat for n in carried] == [news[CAROL].payload["seat"]] and carried[0].view.result
    finally:
        await service.close()


async def test_turning_the_digest_off_releases_the_news_it_held(database: Database):
    clock = Clock(at(2024, 6, 3, 12, 0))
    service = await GameService.open(database.target, clock=clock, limits=Limits.unlimited(),
                                     random_bits=random.Random(5).getrandbits)
    try:
        await service.settings.change_settings(BOB, timezone=BERLIN, digest="9")
        lobby = await service.tables.create_lobby(1, 1, HOST, "Host", "usa", seats_wanted=2)
        await service.tables.join(lobby.game_id, BOB, "Bob")
        g = (await service.tables.start(lobby.game_id, HOST)).game_id
        await _finish(service, g)
        held = next(d for d in await service.outbox.deliveries(g,
                                                               "pending") if d.kind == GAME_OVER and d.user_id == BOB)
        assert (await service.store.deliveries.get(held.id)).due_at > clock.now + DIGEST_HOLD / 2
        clock.advance(60)
        await service.settings.change_settings(BOB, digest="turn")
        assert (await service.store.deliveries.get(held.id)).due_at == clock.now
        assert held.id in {d.id for d in await service.outbox.due_deliveries(clock.now, limit=10_000)}
    finally:
        await service.close()


def test_an_ai_seat_hears_nothing_and_closed_dms_get_a_mention():
    quiet = PlayerClock(BERLIN, (23 * 60, 8 * 60))
    owed = game_over_news([SeatInfo(0, None), SeatInfo(1, 7, dm_closed=True), SeatInfo(2, 8, stand_in="greedy"),
                           SeatInfo(3, 9, clock=quiet)], now=at(2024, 6, 3, 12, 0))
    assert [(o.user_id, o.payload.get("mention", False), o.due_at) for o in owed] == [
        (7, True, None), (8, False, None), (9, False, None)]  # noon: no quiet hours to wait for


def test_the_place_each_player_is_told():
    view = sample_view("usa", players=4, seed=2, over=True)
    sheets = [{"seat": 0, "total": 90}, {"seat": 1, "total": 90}, {"seat": 2, "total": 70}, {"seat": 3, "total": 90}]
    # seats 0, 1 and 3 are level on 90; the tie-break gave it to seat 1
    view = dataclasses.replace(view, result={"sheets": sheets, "winners": [1]})
    assert [standing(view, s).place for s in range(4)] == [2, 1, 4, 2]
    assert result_words(view, 1) == "you won with 90 points"
    assert result_words(view, 2).startswith("you came 4th of 4 with 70 points (")
    shared = dataclasses.replace(view, result={"sheets": sheets, "winners": [0, 1, 3]})
    assert [standing(shared, s).place for s in range(4)] == [1, 1, 4, 1]
    assert "level with" in result_words(shared, 0)
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
