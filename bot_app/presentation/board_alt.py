"""The board picture's description, for anyone who cannot see it (a screen reader reads an
attachment's description aloud): whose turn it is, the last move, every player's score and
trains left — the public facts the picture shows, in words, within Discord's limit.

Built from the public view and the public events only, like the post it belongs to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from bot_app.lang import table_language
from bot_app.presentation import text
from bot_app.presentation.answers import cut
from engine.core import GameOver
from engine.events import Event
from engine.view import View

MAX_DESCRIPTION = 1024  # Discord's limit for an attachment's description
MAX_ITEM_DESCRIPTION = 256  # Discord's limit for a media gallery item's description (a layout's picture)
_MARKUP = re.compile(r"\*\*|__|`|~~|<@!?\d+>|<t:\d+(?::[A-Za-z])?>")


def plain(line: str) -> str:
    """A chat line without its markup (bold, code, mentions, timestamps): what is read aloud."""
    return re.sub(r"\s+", " ", _MARKUP.sub("", line)).strip()


def board_description(view: View, events: Iterable[Event], waiting: Sequence[int], game_id: int,
                      limit: int = MAX_DESCRIPTION) -> str:
    """"Board of game #3 (Europe), turn 12. Last move: Ann claimed Paris – Wien. Ann 24
    points, 30 trains left; Bo 18 points, 35 trains left. Waiting for Bo." — within `limit`
    characters (a layout's media item allows 256): the last move goes first when it does not
    fit, since the post's text says it too."""
    lang = table_language(view.options)  # a table's pictures and posts read in its language
    parts = [lang.t("alt.board", game=str(game_id), variant=text.variant_title(view.variant, view.options, lang),
                    turn=view.turn + 1)]
    # the end itself is said below ("The game is over."): the last move is the one before it
    lines = text.log_lines([e for e in events if not isinstance(e.payload, GameOver)], view)
    if lines:
        parts.append(lang.t("alt.last_move", move=plain(lines[-1]).rstrip(".")))
    totals = {}
    if view.result and view.result.get("sheets"):
        totals = {int(s["seat"]): int(s["total"]) for s in view.result["sheets"]}
    scores = [lang.t("alt.player", name=view.name(p.seat),
                     points=lang.n("status.points", totals.get(p.seat, p.route_points)),
                     trains=lang.n("alt.trains_left", p.trains))
              for p in view.players]
    parts.append("; ".join(scores) + ".")
    if view.status == "over":
        parts.append(lang.t("alt.over"))
    elif waiting:
        parts.append(lang.t("alt.waiting", names=", ".join(view.name(s) for s in waiting)))
    if len(" ".join(parts)) > limit and lines:
        parts.pop(1)
    return cut(" ".join(parts), limit)
