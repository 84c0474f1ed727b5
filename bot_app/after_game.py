"""What the bot says after a game: the final post's pictures, `/ttr replay`, `/ttr stats`.

Every sentence of those messages is here, so their wording is read (and changed) in one place,
as the rules' words are in `bot_app/words/`. All of it is public: built from finished games'
results and public views only.
"""

from __future__ import annotations

REPLAY_FILE = "replay.gif"
TICKETS_FILE = "tickets.png"
STATS_FILE = "stats.png"


def final_pictures_line(game_id: int, replay: bool) -> str:
    """The last line of the final post: what its pictures are."""
    line = ("🖼️ The final board, the score sheet, and every ticket revealed on the map (solid: completed, "
            "dashed with ✗: failed)")
    if replay:
        return line + f"; 🎞️ `replay.gif` plays the game claim by claim (`/ttr replay game:{game_id}` draws it again)."
    return line + "."


def replay_caption(game_id: int, title: str, pictures: int) -> str:
    """The answer to `/ttr replay`."""
    moves = max(0, pictures - 2)
    return (f"🎞️ **Game #{game_id} · {title}** — the replay: {moves} claim{'s' if moves != 1 else ''} and "
            "stations, one picture each, then the final board.")


NO_GAME_GIVEN = "Which game? Give `game:` (its number), or use `/ttr replay` in the game's thread."
NOT_OVER = "Game #{game} is not over yet: its replay is posted with the final scores when it ends."


def stats_caption(name: str, games: int) -> str:
    """The answer to `/ttr stats` (the picture says the rest)."""
    return f"📊 **{name}** — {games} finished game{'s' if games != 1 else ''} on this server."


def no_stats(name: str) -> str:
    return f"{name} has no finished games here yet."


STATS_IN_DM = "In a direct message you can only see your own results; ask in the server."
