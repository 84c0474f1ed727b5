"""Each player's settings in words: one line per setting saying what it does (for `/ttr
settings`, `/ttr rules topic:settings` and the README), and a player's own settings as they
stand. Pure: no Discord, no database."""

from __future__ import annotations

from app import PlayerSettings
from app.player_clock import MOST_AWAY_DAYS, UTC, clock_time

# One line per setting of /ttr settings (the README's table says the same).
SETTINGS_HELP = (
    "`timezone` — your time zone (like Europe/Berlin; the list completes as you type): your quiet hours and "
    "your digest's hour are in it.",
    "`quiet_hours` — like 23:00-08:00, or off: no reminder then, and your turn clock stops (a turn's limit "
    "moves on by the quiet time it spans, across midnight and clock changes).",
    f"`vacation_days` — away for that many days from now (0: back; at most {MOST_AWAY_DAYS}): your clocks stop, "
    "the others see \"away until\", the AI does not take your seat; each table counts at most its own maximum "
    "(/ttr new away_days, 7 by default). Any game command, or changing another setting, ends it early.",
    "`digest` — a ping per turn (the default), or one DM a day at the hour you pick listing every game waiting "
    "for you, with a link to its thread (then no turn DMs, no reminders, no pings).",
    "`dms` — send my hand by direct message at each turn (true), or not (false): **My hand** and /ttr hand "
    "always work.",
    "`colorblind` — a letter on every colour of your pictures, and on the board of every table you sit at.",
    "`hand_picture` — your hand with its picture (true), or in words only (false).",
)
OTHER_HELP = (
    "Also: /ttr turn undo takes back your last claim, station or Controller move before the next player acts (never "
    "a draw or a reveal; it gives the turn back, not time: your turn limit stays where it was); /ttr turn vote "
    "hands a slow player's turn to the AI once everyone else voted (while their "
    "limit is still far off); /ttr admin replace hands a seat — a person's or the AI's — to someone new.",
)


def settings_help() -> str:
    """What each setting does, one line each."""
    return "\n".join(["**/ttr settings** (yours, for every game):", *(f"• {line}" for line in SETTINGS_HELP),
                      *OTHER_HELP])


def settings_text(mine: PlayerSettings, now: float) -> str:
    """A player's settings as they stand, one line each, with the option that changes it."""
    quiet = (f"{clock_time(mine.quiet[0])}–{clock_time(mine.quiet[1])}" if mine.quiet is not None else "off")
    away = (f"away until <t:{int(mine.away_until)}:f>" if mine.away_until is not None and mine.away_until > now
            else "not away")
    if mine.digest_hour is None:
        digest = "a ping per turn"
    else:
        nxt = f", next <t:{int(mine.digest_due)}:R>" if mine.digest_due is not None else ""
        digest = f"one DM a day at {mine.digest_hour:02d}:00{nxt}"
    return "\n".join((
        "**Your settings** (for every game):",
        f"• Time zone (`timezone`): {mine.timezone}{' (the default)' if mine.timezone == UTC else ''}.",
        f"• Quiet hours (`quiet_hours`): {quiet}.",
        f"• Vacation (`vacation_days`): {away}.",
        f"• Digest (`digest`): {digest}.",
        f"• Direct messages (`dms`): {'on' if mine.dms else 'off (closed or turned off)'}.",
        f"• Colour-blind marks (`colorblind`): {'on' if mine.colorblind else 'off'} — a letter on every colour in "
        "your hand picture, and on the board of every table you sit at.",
        f"• Hand picture (`hand_picture`): {'on' if mine.hand_picture else 'off — your hand comes in words only'}.",
        f"• Language (`language`): {mine.language or 'auto — your Discord client' + chr(39) + 's'}.",
        "`/ttr rules topic:settings` says what each one does.",
    ))
