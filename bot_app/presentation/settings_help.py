"""Each player's settings in words: one line per setting saying what it does (for `/ttr
settings`, `/ttr rules topic:settings` and the README), and a player's own settings as they
stand, in the reader's language (`settings.*` catalogue entries; bot_app/lang). Pure: no
Discord, no database."""

from __future__ import annotations

from app import PlayerSettings
from app.player_clock import MOST_AWAY_DAYS, UTC, clock_time
from bot_app.lang import Language, reader

# One line per setting of /ttr settings (the README's table says the same), by catalogue key.
SETTINGS_HELP = ("timezone", "quiet_hours", "vacation_days", "digest", "dms", "colorblind", "hand_picture")


def settings_help(lang: Language | None = None) -> str:
    """What each setting does, one line each."""
    words = lang or reader()
    lines = [words.t(f"settings.help.{name}", most=MOST_AWAY_DAYS) for name in SETTINGS_HELP]
    return "\n".join([words.t("settings.help.head"), *(f"• {line}" for line in lines), words.t("settings.help.other")])


def settings_text(mine: PlayerSettings, now: float, lang: Language | None = None) -> str:
    """A player's settings as they stand, one line each, with the option that changes it."""
    w = lang or reader()
    on, off = w.t("settings.on"), w.t("settings.off")
    quiet = (f"{clock_time(mine.quiet[0])}–{clock_time(mine.quiet[1])}" if mine.quiet is not None else off)
    away = (w.t("settings.away_until", when=f"<t:{int(mine.away_until)}:f>")
            if mine.away_until is not None and mine.away_until > now else w.t("settings.not_away"))
    if mine.digest_hour is None:
        digest = w.t("settings.digest.ping")
    else:
        nxt = w.t("settings.digest.next", when=f"<t:{int(mine.digest_due)}:R>") if mine.digest_due is not None else ""
        digest = w.t("settings.digest.daily", hour=f"{mine.digest_hour:02d}", next=nxt)
    default = w.t("settings.mine.default") if mine.timezone == UTC else ""
    return "\n".join((
        w.t("settings.mine.head"),
        w.t("settings.mine.timezone", zone=mine.timezone, default=default),
        w.t("settings.mine.quiet_hours", quiet=quiet),
        w.t("settings.mine.vacation_days", away=away),
        w.t("settings.mine.digest", digest=digest),
        w.t("settings.mine.dms", state=on if mine.dms else w.t("settings.mine.dms_off")),
        w.t("settings.mine.colorblind", state=on if mine.colorblind else off),
        w.t("settings.mine.hand_picture", state=on if mine.hand_picture else w.t("settings.mine.words_only")),
        w.t("settings.mine.language", language=mine.language or w.t("settings.mine.auto")),
        w.t("settings.mine.more"),
    ))
