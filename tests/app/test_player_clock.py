"""A player's own clock (app/player_clock.py): quiet hours in their time zone stop their turn
clock, across midnight and across the nights the clocks change; a vacation stops it too; the
settings are read as players type them. Pure: no database, no Discord."""

from __future__ import annotations

import datetime as dt

import pytest

from app.player_clock import (
    BadSetting,
    PlayerClock,
    next_local_hour,
    parse_quiet_hours,
    time_zones,
    zone,
)

HOUR = 3600.0
BERLIN = "Europe/Berlin"


def at(tz: str, *when: int) -> float:
    """A local wall-clock time as Unix seconds."""
    return dt.datetime(*when, tzinfo=zone(tz)).timestamp()


def local(tz: str, t: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(t, zone(tz)).replace(tzinfo=None)


def test_quiet_hours_are_read_as_players_type_them():
    assert parse_quiet_hours("23:00-08:00") == (23 * 60, 8 * 60)
    assert parse_quiet_hours("23-8") == (23 * 60, 8 * 60)
    assert parse_quiet_hours(" 22:30 – 06:15 ") == (22 * 60 + 30, 6 * 60 + 15)
    assert parse_quiet_hours("13:00-14:00") == (13 * 60, 14 * 60)
    assert parse_quiet_hours("00:00-24:00".replace("24:00", "07:00")) == (0, 7 * 60)
    for bad in ("", "soon", "23:00", "25:00-08:00", "23:61-08:00", "08:00-08:00", "06:00-23:00"):
        with pytest.raises(BadSetting):
            parse_quiet_hours(bad)


def test_time_zones_are_the_iana_names():
    names = time_zones()
    assert "Europe/Berlin" in names and "America/New_York" in names and "UTC" in names
    for bad in ("Mars/Olympus", "../etc/passwd", "", "x" * 80):
        with pytest.raises(BadSetting):
            zone(bad)


def test_a_turn_across_midnight_does_not_count_the_quiet_night():
    clock = PlayerClock(BERLIN, parse_quiet_hours("23:00-08:00"))
    start = at(BERLIN, 2024, 6, 3, 21, 0)  # Monday 21:00, summer time
    # 4 hours of running time: 21:00–23:00, then the night off, then 08:00–10:00.
    end = clock.advance(start, 4 * HOUR)
    assert local(BERLIN, end) == dt.datetime(2024, 6, 4, 10, 0)
    assert clock.running(start, end) == pytest.approx(4 * HOUR)
    assert clock.stopped_at(at(BERLIN, 2024, 6, 4, 3, 0)) and not clock.stopped_at(at(BERLIN, 2024, 6, 4, 8, 0))
    assert local(BERLIN, clock.resumes(at(BERLIN, 2024, 6, 3, 23, 30))) == dt.datetime(2024, 6, 4, 8, 0)
    # Started inside the quiet hours: the clock starts at their end.
    assert local(BERLIN, clock.advance(at(BERLIN, 2024, 6, 4, 2, 0), HOUR)) == dt.datetime(2024, 6, 4, 9, 0)


def test_quiet_hours_that_do_not_cross_midnight():
    clock = PlayerClock("America/New_York", parse_quiet_hours("12:00-14:00"))
    start = at("America/New_York", 2024, 6, 3, 11, 0)
    assert local("America/New_York", clock.advance(start, 2 * HOUR)) == dt.datetime(2024, 6, 3, 15, 0)


def test_the_night_the_clocks_go_back_is_an_hour_longer():
    clock = PlayerClock(BERLIN, parse_quiet_hours("23:00-08:00"))
    # Saturday 26 October 2024, 21:00: that night Berlin goes from 03:00 summer time to 02:00.
    start = at(BERLIN, 2024, 10, 26, 21, 0)
    end = clock.advance(start, 4 * HOUR)
    assert local(BERLIN, end) == dt.datetime(2024, 10, 27, 10, 0)
    assert end - start == pytest.approx(14 * HOUR)  # 4 h running + a 10-hour night
    # The same turn a week earlier: a 9-hour night.
    week = at(BERLIN, 2024, 10, 19, 21, 0)
    assert clock.advance(week, 4 * HOUR) - week == pytest.approx(13 * HOUR)


def test_the_night_the_clocks_go_forward_is_an_hour_shorter():
    clock = PlayerClock(BERLIN, parse_quiet_hours("23:00-08:00"))
    start = at(BERLIN, 2024, 3, 30, 21, 0)  # that night Berlin goes from 02:00 to 03:00
    end = clock.advance(start, 4 * HOUR)
    assert local(BERLIN, end) == dt.datetime(2024, 3, 31, 10, 0)
    assert end - start == pytest.approx(12 * HOUR)


def test_a_vacation_stops_the_clock_and_joins_the_nights_it_touches():
    start = at(BERLIN, 2024, 6, 3, 21, 0)
    away = (start + HOUR, start + 2.5 * HOUR + 2 * 86400)  # from Monday 22:00 to Wednesday 23:30
    clock = PlayerClock(BERLIN, parse_quiet_hours("23:00-08:00"), away)
    # 1 h before the vacation; the vacation runs into Wednesday's night; then 2 h on Thursday.
    end = clock.advance(start, 3 * HOUR)
    assert local(BERLIN, end) == dt.datetime(2024, 6, 6, 10, 0)
    assert clock.running(start, end) == pytest.approx(3 * HOUR)
    assert clock.stopped_at(start + 30 * HOUR)
    # Without quiet hours, only the vacation counts.
    plain = PlayerClock(away=away)
    assert plain.advance(start, 3 * HOUR) == pytest.approx(start + 4.5 * HOUR + 2 * 86400)


def test_the_daily_hour_is_local_even_when_the_clocks_change():
    before = at(BERLIN, 2024, 10, 26, 10, 0)
    first = next_local_hour(BERLIN, 9, before)
    assert local(BERLIN, first) == dt.datetime(2024, 10, 27, 9, 0)
    second = next_local_hour(BERLIN, 9, first)
    assert local(BERLIN, second) == dt.datetime(2024, 10, 28, 9, 0)
    assert second - first == pytest.approx(24 * HOUR)
    assert first - next_local_hour(BERLIN, 9, first - 26 * HOUR) == pytest.approx(25 * HOUR)  # the longer day
