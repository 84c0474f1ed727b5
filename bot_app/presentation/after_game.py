"""What the bot says after a game: the final post's pictures, `/ttr results replay`, `/ttr results stats`.

Every sentence of those messages is here, so their wording is read (and changed) in one place,
as the rules' words are in `bot_app/presentation/words/`. All of it is public: built from finished games'
results and public views only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot_app.lang import Language, english, reader
from bot_app.presentation import ids
from bot_app.presentation.components import button

if TYPE_CHECKING:
    from app.player_records import PlayerRecord
    from render.stats import StatsCard

REPLAY_FILE = "replay.gif"
TICKETS_FILE = "tickets.png"
STATS_FILE = "stats.png"
REMATCH = "rematch"  # the verb of the Rematch button (bot_app/adapter/rematch.py)


def rematch_button(game_id: int, label: str = "Rematch") -> discord.ui.Button[Any]:
    """**Rematch** under the final post (`label`: in the table's language): the same table
    again once every player pressed it."""
    return button(label, ids.make(game_id, None, REMATCH), discord.ButtonStyle.success, "🔁")


def final_pictures_line(game_id: int, replay: bool, lang: Language | None = None) -> str:
    """The last line of the final post: what its pictures are (in the table's language `lang`)."""
    words = lang or english()
    return words.t("final.pictures_replay" if replay else "final.pictures", game=str(game_id))


def replay_caption(game_id: int, title: str, pictures: int) -> str:
    """The answer to `/ttr results replay`."""
    moves = max(0, pictures - 2)
    return (f"🎞️ **Game #{game_id} · {title}** — the replay: {moves} claim{'s' if moves != 1 else ''} and "
            "stations, one picture each, then the final board.")


def replay_shown(game_id: int, link: str) -> str:
    """The private answer to `/ttr results replay` when the channel just got that replay."""
    return f"🎞️ The replay of game #{game_id} was just posted here: {link}"


NO_GAME_GIVEN = "Which game? Give `game:` (its number), or use `/ttr results replay` in the game's thread."


def no_stats(name: str) -> str:
    return f"{name} has no finished games here yet."


def stats_words(name: str, record: PlayerRecord) -> str:
    """The stats card's numbers in words too (read aloud, searched, shown when pictures are off)."""
    s = record.stats
    line = (f"**{name}**: {s.games} games, {s.wins} wins, average {s.average_score:.1f}, best {s.best_score}; "
            f"tickets {s.tickets_completed} done, {s.tickets_failed} missed.")
    if record.rating is not None:
        line += f" Rating {record.rating.value:g} ({record.rating.detail})."
    return line


STATS_IN_DM = "In a direct message you can only see your own results; ask in the server."


def stats_card(name: str, record: PlayerRecord, *, everywhere: bool = False) -> StatsCard:
    """The stats picture's content from a player's record. `everywhere`: the record covers
    all the player's servers (their own, asked from a DM: no rating or favourites there)."""
    from bot_app.presentation.text import variant_title
    from render.stats import StatsCard  # the picture's input (drawn by Renderer.stats, the one seam)

    s = record.stats
    rating = None
    if record.rating is not None:
        value = record.rating.value
        shown = str(int(value)) if float(value).is_integer() else f"{value:.1f}"
        rating = (shown, record.rating.label, record.rating.detail)
    # "Dieppe – London (2 gray ferry, 1 locomotive, track 1)" reads as "Dieppe – London" on the
    # card: the tracks of a double route count together
    routes: dict[str, int] = {}
    for label, n in record.routes:
        short = label.split(" (")[0]
        routes[short] = routes.get(short, 0) + n
    ranked = sorted(routes.items(), key=lambda kv: -kv[1])
    return StatsCard(name=name, games=s.games, wins=s.wins, average=s.average_score, best=s.best_score,
                     tickets_done=s.tickets_completed, tickets_failed=s.tickets_failed, routes=ranked,
                     cities=record.cities, variants=[(variant_title(v), g, w) for v, g, w in record.variants],
                     rating=rating, where=reader().t(f"picture.stats.where_{'all' if everywhere else 'server'}"))
