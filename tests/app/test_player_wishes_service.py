"""What asynchronous players asked for (issue 19), through the service, on SQLite and on
PostgreSQL, with a clock the test moves: quiet hours and time zones stop a player's turn clock
(across midnight and a daylight-saving night), a vacation stops it and keeps the AI away, a
daily digest replaces the ping per turn, a substitute takes a seat (a person's or the AI's) and
gets its hand, and the other players vote a slow turn to the AI. Each survives a restart (a new
service on the same database). Through Discord: tests/bot_app/test_bot_wishes.py."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable

import pytest

from app import Actor, Caller, GameService, Limits, ServiceError
from app.owed import DIGEST, LIMIT, NOTICE, POST, REMINDER, SEAT_DM, TURN_DM
from tests.clock import BERLIN, Clock, at, berlin
from tests.databases import Database

HOST, BOB, CAROL, DAVE = 100, 101, 102, 103
HOUR = 3600.0
DAY = 86400.0

pytestmark = pytest.mark.clock_at(at(2024, 6, 3, 12, 0))  # a Monday in summer


@pytest.fixture
def random_bits() -> Callable[[int], int]:
    """The same deals every run."""
    return random.Random(3).getrandbits


async def _open(database: Database, clock: Clock) -> GameService:
    return await GameService.open(database.target, clock=clock, limits=Limits.unlimited(),
                                  random_bits=random.Random(3).getrandbits)


async def _game(service: GameService, users: tuple[int, ...] = (HOST, BOB), *, first: int = 1,
                turn_hours: float = 4.0, max_away_days: float = 7.0, ais: int = 0) -> int:
    """A USA game whose opening tickets are chosen; seat `first` plays first. The first turn
    begins at the clock's time when the last opening choice is made."""
    lobby = await service.tables.create_lobby(1, 1, HOST, "Host", "usa", {"first_player": first},
                                       seats_wanted=len(users) + ais, turn_hours=turn_hours,
                                       max_away_days=max_away_days)
    for user in users[1:]:
        await service.tables.join(lobby.game_id, user, f"user{user}")
    for i in range(ais):
        await service.tables.add_ai(lobby.game_id, HOST, "greedy", len(users) + i)
    g = (await service.tables.start(lobby.game_id, HOST)).game_id
    for user in users:
        legal = await service.reads.legal_actions(g, user)
        await service.moves.submit(g, Actor.user(user), legal[0], (await service.reads.game(g)).seq)
    await service.moves.play_bots(g)
    return g


async def _limits(service: GameService, g: int) -> dict[tuple[str, int | None], float]:
    return {(t.kind, t.seat): t.due_at for t in await service.clocks.pending_timers(g)}


async def _pass_turn(service: GameService, g: int, user: int) -> None:
    """`user` draws two cards from the deck: their turn ends."""
    for _ in range(2):
        summary = await service.reads.game(g)
        draw = next(a for a in await service.reads.legal_actions(g, user) if a.TYPE == "draw_card"
                    and a.to_json().get("slot") is None)
        await service.moves.submit(g, Actor.user(user), draw, summary.seq)


# --- quiet hours and time zones ---------------------------------------------------------------


async def test_quiet_hours_move_the_turn_limit_across_midnight_and_survive_a_restart(database, clock):
    service = await _open(database, clock)
    try:
        await service.settings.change_settings(BOB, timezone=BERLIN, quiet_hours="23:00-08:00")
        clock.now = at(2024, 6, 3, 20, 0)
        g = await _game(service)  # Bob's turn begins Monday 20:00
        timers = await _limits(service, g)
        # 4 hours of Bob's running time: 20:00–23:00, the night off, 08:00–09:00.
        assert berlin(timers[(LIMIT, 1)]) == dt.datetime(2024, 6, 4, 9, 0)
        assert berlin(timers[(REMINDER, 1)]) == dt.datetime(2024, 6, 3, 22, 0)
        # The turn post shows the real deadline.
        assert (await service.outbox.post_data(g)).deadlines[1] == timers[(LIMIT, 1)]
        # The host has no quiet hours: his own turns keep the plain 4 hours.
        assert (await service.settings.settings(HOST)).quiet is None
    finally:
        await service.close()
    clock.now = at(2024, 6, 4, 0, 30)  # past where a plain 4-hour limit would have been
    service = await _open(database, clock)
    try:
        # The reminder (due at 22:00, while the bot was down) is not sent in quiet hours: it
        # waits for their end; the limit waits for the morning.
        assert [t.kind for t in await service.clocks.due_timers()] == [REMINDER]
        assert await service.clocks.fire_timer((await service.clocks.due_timers())[0]) == "moved"
        assert berlin((await _limits(service, g))[(REMINDER, 1)]) == dt.datetime(2024, 6, 4, 8, 0)
        assert await service.clocks.due_timers() == []
        clock.now = at(2024, 6, 4, 8, 0)
        assert await service.clocks.fire_timer((await service.clocks.due_timers())[0]) == "reminded"
        clock.now = at(2024, 6, 4, 9, 0)
        due = await service.clocks.due_timers()
        assert [t.kind for t in due] == [LIMIT]
        assert await service.clocks.fire_timer(due[0]) == "played"
        assert 1 not in (await service.reads.game(g)).waiting_for
    finally:
        await service.close()


async def test_no_reminder_in_quiet_hours_it_waits_until_they_end(service, clock):
    await service.settings.change_settings(BOB, timezone=BERLIN)
    clock.now = at(2024, 6, 3, 19, 0)
    g = await _game(service, turn_hours=6.0)  # reminder at 22:00
    assert berlin((await _limits(service, g))[(REMINDER, 1)]) == dt.datetime(2024, 6, 3, 22, 0)
    # Bob sets quiet hours from 21:30 at 21:00: two hours of his three to the reminder are
    # used; the third runs from 21:00 to 21:30 and 08:00 to 08:30 (the limit's four left: to 11:30).
    clock.now = at(2024, 6, 3, 21, 0)
    await service.settings.change_settings(BOB, quiet_hours="21:30-08:00")
    timers = await _limits(service, g)
    assert berlin(timers[(REMINDER, 1)]) == dt.datetime(2024, 6, 4, 8, 30)
    assert berlin(timers[(LIMIT, 1)]) == dt.datetime(2024, 6, 4, 11, 30)
    # The turn post is owed an edit: it shows the deadline.
    assert any(d.kind == POST and d.key.startswith("post:clock:") for d in await service.outbox.deliveries(g,
                                                                                                           "pending"))
    # A reminder that falls due in quiet hours anyway (set by an older bot, say) waits too.
    clock.now = at(2024, 6, 3, 23, 0)
    await service.clocks.schedule_timer(g, REMINDER, clock.now, seat=1,
                                 payload={"turn": 0, "setup": False, "from": clock.now, "left": 0.0})
    due = await service.clocks.due_timers()
    assert [t.kind for t in due] == [REMINDER]
    assert await service.clocks.fire_timer(due[0]) == "moved"
    assert berlin((await _limits(service, g))[(REMINDER, 1)]) == dt.datetime(2024, 6, 4, 8, 0)
    assert not [d for d in await service.outbox.deliveries(g) if d.kind == REMINDER]


async def test_the_night_the_clocks_go_back_gives_an_hour_more_and_survives_a_restart(database):
    clock = Clock(at(2024, 10, 26, 12, 0))
    service = await _open(database, clock)
    try:
        await service.settings.change_settings(BOB, timezone=BERLIN, quiet_hours="23:00-08:00")
        clock.now = at(2024, 10, 26, 21, 0)
        g = await _game(service, turn_hours=4.0)
        limit = (await _limits(service, g))[(LIMIT, 1)]
        assert berlin(limit) == dt.datetime(2024, 10, 27, 10, 0)
        assert limit - clock.now == pytest.approx(14 * HOUR)  # 4 h running + a 10-hour night
    finally:
        await service.close()
    clock.now = at(2024, 10, 27, 9, 59)
    service = await _open(database, clock)
    try:
        assert [t.kind for t in await service.clocks.due_timers()] == [REMINDER]  # due at 23:00, not yet fired
        await service.clocks.fire_timer((await service.clocks.due_timers())[0])
        assert await service.clocks.due_timers() == []
        clock.now = at(2024, 10, 27, 10, 0)
        assert await service.clocks.fire_timer((await service.clocks.due_timers())[0]) == "played"
    finally:
        await service.close()


async def test_settings_that_cannot_be_used_are_refused_and_change_nothing(service):
    before = await service.settings.settings(BOB)
    for kwargs in ({"timezone": "Mars/Olympus"}, {"quiet_hours": "late"}, {"quiet_hours": "06:00-23:00"},
                   {"away_days": 40}, {"away_days": -1}, {"digest": "25"}, {"digest": "noon"}):
        with pytest.raises(ServiceError):
            await service.settings.change_settings(BOB, **kwargs)
    assert await service.settings.settings(BOB) == before


# --- vacation ---------------------------------------------------------------------------------


async def test_a_vacation_stops_the_clock_keeps_the_ai_away_and_survives_a_restart(database, clock):
    service = await _open(database, clock)
    try:
        g = await _game(service, max_away_days=2.0)
        start = clock.now
        assert (await _limits(service, g))[(LIMIT, 1)] == pytest.approx(start + 4 * HOUR)
        clock.now = start + HOUR
        mine = await service.settings.change_settings(BOB, away_days=5)
        assert mine.away_until == pytest.approx(clock.now + 5 * DAY)
        # This table counts two days of it: Bob's three hours left run after them.
        limit = (await _limits(service, g))[(LIMIT, 1)]
        assert limit == pytest.approx(start + HOUR + 2 * DAY + 3 * HOUR)
        data = await service.outbox.post_data(g)
        assert data.away == {1: pytest.approx(start + HOUR + 2 * DAY)}
        assert BOB in data.quiet_users and HOST not in data.quiet_users  # nobody pings Bob meanwhile
    finally:
        await service.close()
    clock.now = start + 5 * HOUR  # where his turn would have ended
    service = await _open(database, clock)
    try:
        assert await service.clocks.due_timers() == []  # the reminder too waits until he is back
        assert 1 in (await service.reads.game(g)).waiting_for  # the AI did not take his turn
        # Bob uses a game command: he is back, and his three hours run from now.
        assert await service.settings.end_away(BOB) is True
        assert await service.settings.end_away(BOB) is False
        assert (await _limits(service, g))[(LIMIT, 1)] == pytest.approx(clock.now + 3 * HOUR)
        assert (await service.outbox.post_data(g)).away == {}
    finally:
        await service.close()


async def test_a_table_without_vacations_and_changing_another_setting_ends_one(service, clock):
    g = await _game(service, max_away_days=0)
    await service.settings.change_settings(BOB, away_days=3)
    assert (await _limits(service, g))[(LIMIT, 1)] == pytest.approx(clock.now + 4 * HOUR)
    assert (await service.outbox.post_data(g)).away == {}
    mine = await service.settings.change_settings(BOB, colorblind=True)  # using a setting: back
    assert mine.away_until is None and mine.colorblind


async def test_a_player_on_vacation_gets_no_turn_dm_until_they_are_back(service, clock):
    await service.settings.change_settings(BOB, away_days=1)
    g = await _game(service)
    dms = [d for d in await service.outbox.deliveries(g) if d.kind == TURN_DM and d.user_id == BOB]
    assert dms  # the opening tickets, and his first turn
    for d in dms:
        row = await service.store.deliveries.get(d.id)
        assert row is not None and row.due_at == pytest.approx(clock.now + DAY)
    assert (await service.outbox.due_deliveries(clock.now + HOUR)) and not [
        d for d in await service.outbox.due_deliveries(clock.now + HOUR) if d.user_id == BOB]


# --- the daily digest -------------------------------------------------------------------------


async def test_a_daily_digest_replaces_the_pings_and_goes_out_once_a_day(database, clock):
    service = await _open(database, clock)
    try:
        mine = await service.settings.change_settings(BOB, timezone=BERLIN, digest="9")
        assert berlin(mine.digest_due) == dt.datetime(2024, 6, 4, 9, 0)
        g = await _game(service)
        g2 = await _game(service, (HOST, BOB), first=0)  # waits for the host, not for Bob
        # No turn DM and no reminder for Bob: the digest lists his games.
        assert not [d for d in await service.outbox.deliveries(g) if d.kind == TURN_DM and d.user_id == BOB]
        assert set(await _limits(service, g)) == {(LIMIT, 1)}
        assert BOB in (await service.outbox.post_data(g)).quiet_users
    finally:
        await service.close()
    clock.now = at(2024, 6, 4, 9, 0)
    service = await _open(database, clock)  # a restart before it is due
    try:
        assert await service.clocks.next_timer_due() <= clock.now
        assert await service.clocks.fire_digests() == 1
        assert await service.clocks.fire_digests() == 0
        digests = [d for d in await service.outbox.deliveries(g) + await service.outbox.deliveries(g2)
                   if d.kind == DIGEST]
        assert len(digests) == 1 and digests[0].user_id == BOB
        listed = await service.outbox.digest_data(digests[0])
        assert [s.game_id for s, _ in listed] == [g]
        assert listed[0][1] == (await _limits(service, g))[(LIMIT, 1)]
        assert berlin((await service.settings.settings(BOB)).digest_due) == dt.datetime(2024, 6, 5, 9, 0)
    finally:
        await service.close()
    service = await _open(database, clock)  # and after one: not again
    try:
        assert await service.clocks.fire_digests() == 0
        clock.now = at(2024, 6, 5, 9, 0)
        assert await service.clocks.fire_digests() == 1
        await service.settings.change_settings(BOB, digest="turn")
        assert (await service.settings.settings(BOB)).digest_due is None
    finally:
        await service.close()


async def test_no_digest_when_no_game_waits(service, clock):
    await service.settings.change_settings(CAROL, digest="8")
    clock.now += DAY
    assert await service.clocks.fire_digests() == 0
    assert (await service.settings.settings(CAROL)).digest_due > clock.now


# --- substitutes ------------------------------------------------------------------------------


async def test_a_substitute_takes_a_persons_seat_and_gets_its_hand(service, clock):
    g = await _game(service)
    bob = (await service.reads.view(g, BOB)).me
    assert bob is not None
    with pytest.raises(ServiceError, match="host"):
        await service.seats.replace(g, 1, CAROL, "Carol", Caller(BOB))
    with pytest.raises(ServiceError, match="already has a seat"):
        await service.seats.replace(g, 1, HOST, "Host", Caller(HOST))
    clock.now += HOUR
    seat = await service.seats.replace(g, 1, CAROL, "Carol", Caller(HOST))
    assert seat.user_id == CAROL and seat.name == "Carol"
    summary = await service.reads.game(g)
    assert summary.seats[1].user_id == CAROL and summary.seats[1].name == "Carol"
    carol = (await service.reads.view(g, CAROL)).me
    assert carol is not None and (carol.hand, carol.tickets) == (bob.hand, bob.tickets)  # the seat's cards, tickets
    assert (await service.reads.view(g, BOB)).me is None
    assert (await service.reads.view(g, None)).name(1) == "Carol"
    owed = [d for d in await service.outbox.deliveries(g, "pending") if d.user_id == CAROL]
    assert {d.kind for d in owed} >= {SEAT_DM, NOTICE}
    hand = await service.outbox.hand_data(next(d for d in owed if d.kind == SEAT_DM))
    assert hand is not None and hand.seat == 1 and hand.private_events == ()
    # Bob's older hand DMs are not sent to him any more.
    bobs = [d for d in await service.outbox.deliveries(g) if d.user_id == BOB and d.kind == TURN_DM]
    assert bobs and await service.outbox.hand_data(bobs[0]) is None
    # It is the seat's turn: Carol's clock starts now; she plays it.
    assert (await _limits(service, g))[(LIMIT, 1)] == pytest.approx(clock.now + 4 * HOUR)
    await _pass_turn(service, g, CAROL)
    # A restart replays the log with the seat's new name.
    assert (await service.reads.game(g)).waiting_for == (0,)


async def test_a_substitute_takes_the_ais_seat(service):
    g = await _game(service, (HOST,), first=0, ais=1)
    await service.seats.replace(g, 1, DAVE, "Dave", Caller(HOST))
    summary = await service.reads.game(g)
    assert summary.seats[1].user_id == DAVE and not summary.seats[1].is_ai
    await _pass_turn(service, g, HOST)
    assert (await service.reads.game(g)).waiting_for == (1,)  # Dave's turn now, not the AI's
    assert (await service.moves.play_bots(g)) == []


async def test_a_seat_handed_over_survives_a_restart(database, clock):
    service = await _open(database, clock)
    try:
        g = await _game(service)
        await service.seats.replace(g, 1, CAROL, "Carol", Caller(HOST))
    finally:
        await service.close()
    service = await _open(database, clock)
    try:
        summary = await service.reads.game(g)
        assert summary.seats[1].user_id == CAROL
        assert (await service.reads.view(g, None)).name(1) == "Carol"
        assert database.fetchone("SELECT count(*) FROM actions WHERE game_id = ?", g)[0] == 3
        await _pass_turn(service, g, CAROL)
    finally:
        await service.close()


# --- votes to skip ----------------------------------------------------------------------------


async def test_the_others_vote_a_slow_turn_to_the_ai(service, clock):
    g = await _game(service, (HOST, BOB, CAROL), turn_hours=48.0)
    with pytest.raises(ServiceError, match="own turn"):
        await service.seats.vote_skip(g, BOB)
    first = await service.seats.vote_skip(g, HOST)
    assert (first.votes, first.needed, first.played) == (1, 2, False)
    assert (await service.seats.vote_skip(g, HOST)).votes == 1  # voting twice counts once
    assert [d.payload["notice"] for d in await service.outbox.deliveries(g, "pending") if d.kind == NOTICE] == ["vote"]
    last = await service.seats.vote_skip(g, CAROL)
    assert last.played and last.votes == 2
    summary = await service.reads.game(g)
    assert 1 not in summary.waiting_for
    assert summary.seats[1].absent_turns == 1  # a turn missed, as when time runs out
    assert any(d.payload.get("notice") == "skipped" for d in await service.outbox.deliveries(g) if d.kind == NOTICE)
    assert service.store and await service.store.seats.skip_votes(g, 1, '{"setup":false,"turn":0}') == []


async def test_a_turn_that_begins_clears_the_votes_cast_and_writes_nothing_for_votes_when_none_are(service, clock):
    g = await _game(service, (HOST, BOB, CAROL), turn_hours=48.0)
    assert (await service.seats.vote_skip(g, HOST)).votes == 1  # against Bob, whose turn it is
    written: list[str] = []
    write = service.store.write

    async def spy(tx):
        written.extend(s.sql for s in tx.statements)
        return await write(tx)

    service.store.write = spy
    await _pass_turn(service, g, BOB)
    assert await service.store.seats.skip_votes(g, 1, '{"setup":false,"turn":0}') == []
    assert sum("skip_votes" in sql for sql in written) == 1
    written.clear()
    await _pass_turn(service, g, CAROL)  # no vote cast since: nothing to clear
    assert written and not any("skip_votes" in sql for sql in written)


async def test_no_vote_when_the_limit_is_near_or_the_player_is_away(service, clock):
    g = await _game(service, (HOST, BOB, CAROL), turn_hours=48.0)
    await service.settings.change_settings(BOB, away_days=2)
    with pytest.raises(ServiceError, match="away until"):
        await service.seats.vote_skip(g, HOST)
    await service.settings.change_settings(BOB, away_days=0)
    clock.now += 47.5 * HOUR
    with pytest.raises(ServiceError, match="soon anyway"):
        await service.seats.vote_skip(g, HOST)
    with pytest.raises(ServiceError, match="not playing"):
        await service.seats.vote_skip(g, DAVE)
