"""When a player can be reached, from their stored settings: their clock (quiet hours in their
time zone, a vacation cut to the table's maximum) and whether they take a daily digest instead
of a ping per turn. The service's parts read these for the policy of app/owed.py (turn timers,
turn DMs) and for what a post shows (who is away, whom not to ping).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from app.models import PlayerSettings, Seat
from app.owed import SeatInfo
from app.player_clock import DAY, UTC, PlayerClock
from store import Store
from store.user_settings import UserSettingsRow


def settings_of_row(row: UserSettingsRow | None, dms: bool = True) -> PlayerSettings:
    """A user's stored row as their settings (the defaults without one)."""
    if row is None:
        return PlayerSettings(dms=dms)
    quiet = (row.quiet_start, row.quiet_end) if row.quiet_start is not None and row.quiet_end is not None else None
    return PlayerSettings(colorblind=row.colorblind, hand_picture=row.hand_picture, dms=dms,
                          timezone=row.timezone or UTC, quiet=quiet, away_from=row.away_from,
                          away_until=row.away_until, digest_hour=row.digest_hour, digest_due=row.digest_due,
                          language=row.language)


def away_span(mine: PlayerSettings, max_away_days: float) -> tuple[float, float] | None:
    """A player's vacation as one table counts it: from when they set it, for at most the
    table's `max_away_days` (None: no vacation, or the table allows none)."""
    if mine.away_from is None or mine.away_until is None or max_away_days <= 0:
        return None
    until = min(mine.away_until, mine.away_from + max_away_days * DAY)
    return (mine.away_from, until) if until > mine.away_from else None


def clock_of(mine: PlayerSettings, max_away_days: float) -> PlayerClock:
    """A player's clock at one table."""
    return PlayerClock(mine.timezone, mine.quiet, away_span(mine, max_away_days))


def away_until(mine: PlayerSettings, max_away_days: float, now: float) -> float | None:
    """Until when a player is away at one table, if they are away at `now`."""
    span = away_span(mine, max_away_days)
    return span[1] if span is not None and span[0] <= now < span[1] else None


def seat_info(seat: Seat, mine: PlayerSettings | None, max_away_days: float) -> SeatInfo:
    """What the policy of app/owed.py needs to know of a seat."""
    if mine is None or seat.user_id is None:
        return SeatInfo(seat.seat, seat.user_id, seat.dm_closed, seat.stand_in)
    return SeatInfo(seat.seat, seat.user_id, seat.dm_closed, seat.stand_in, clock_of(mine, max_away_days),
                    mine.digest_hour is not None, mine.digest_due)


async def settings_rows(store: Store, user_ids: Iterable[int | None]) -> dict[int, PlayerSettings]:
    """The settings of these users (AI seats, None, left out; `dms` not read: it lives on the
    seats)."""
    ids = [u for u in user_ids if u is not None]
    rows = await store.user_settings.get(ids)
    return {u: settings_of_row(rows.get(u)) for u in ids}


async def seat_infos(store: Store, seats: Sequence[Seat], max_away_days: float) -> list[SeatInfo]:
    """Every seat of a table with its player's clock (one read)."""
    mine = await settings_rows(store, (s.user_id for s in seats))
    return [seat_info(s, mine.get(s.user_id) if s.user_id is not None else None, max_away_days) for s in seats]


def unreachable(seats: Sequence[Seat], mine: Mapping[int, PlayerSettings], max_away_days: float,
                now: float) -> tuple[int, ...]:
    """The users seated here not to ping now: in their quiet hours, away, or taking a daily
    digest instead of a ping per turn."""
    out = []
    for s in seats:
        if s.user_id is None or s.user_id not in mine:
            continue
        settings = mine[s.user_id]
        if settings.digest_hour is not None or clock_of(settings, max_away_days).stopped_at(now):
            out.append(s.user_id)
    return tuple(out)
