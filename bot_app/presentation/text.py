"""Words for Discord: the log of what happened, the public status, actions in plain English,
the private hand, the final scores. Pure functions of views, events and map data (no Discord,
no database), so unit tests exercise them directly.

What each rule adds is written beside the rule, in `bot_app/presentation/words/` (one file per rule
module); this module puts a game's words together (`bot_app.presentation.words.wording`) for the rest of
the bot. Public text is built only from public events and `view(state, None)`; the private
helpers (`hand_text`, `private_lines`) take a player's own view or private events and are only
ever sent to that player (DM or ephemeral).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot_app.lang import Language, table_language
from bot_app.presentation.words import base, wording
from bot_app.presentation.words.base import card_with_article, tourist_card, tourist_label
from engine.actions import Action
from engine.cards import card_word, describe
from engine.events import PRIVATE, PUBLIC, Event
from engine.maps import GameMap, load_map
from engine.rules.controller import RouteRemoved
from engine.rules.dice.claims import DicePaid
from engine.rules.dice.tunnels import TunnelDiceRolled
from engine.rules.routes import RouteClaimed
from engine.rules.stations import StationBuilt
from engine.rules.tunnels import TunnelRevealed
from engine.rulesets import variants
from engine.view import View

CARD_EMOJI = base.CARD_EMOJI
MAX_CONTENT = 2000  # Discord's limit for one message's text
# The log shown in a turn post keeps its last lines within this many characters.
LOG_IN_POST = 900


def game_map(view: View) -> GameMap:
    return load_map(view.map_id)


def variant_title(variant: str, options: Mapping[str, Any] | None = None, lang: Language | None = None) -> str:
    """A variant's title as its record gives it, with " + dice" for a table with the Dice Expansion;
    in `lang`, the board's title as that language's edition prints it ("Deutschland", "URSS")."""
    record = next((r for r in variants() if r.id == variant), None)
    title = record.title if record is not None else variant.title()
    if lang is not None and lang.has(f"ruleset.{variant}.title"):
        title = lang.t(f"ruleset.{variant}.title")
        return lang.t("ruleset.dice_title", title=title) if options and options.get("dice") else title
    return title + (" + dice" if options and options.get("dice") else "")


def thread_name(game_id: int, variant: str) -> str:
    """The thread's name: public, so only the number and the variant."""
    return f"TTR #{game_id} · {variant_title(variant)}"[:100]


def name_of(view: View, seat: int | None) -> str:
    return view.name(seat)


def ticket_label(gmap: GameMap, ticket_id: str) -> str:
    """A destination ticket, or a tourist card (Alsace), in words."""
    t = gmap.tickets.get(ticket_id)
    if t is not None:
        return f"{gmap.city_label(t.a)} – {gmap.city_label(t.b)} ({t.points})"
    card = tourist_card(gmap, ticket_id)
    return tourist_label(gmap, card) if card is not None else "a card"


def route_label(gmap: GameMap, route_id: str) -> str:
    return gmap.route_label(route_id) if route_id in gmap.routes else route_id


def city_label(gmap: GameMap, city_id: str) -> str:
    return gmap.city_label(city_id) if city_id in gmap.cities else city_id


def card_name(card: str | None) -> str:
    return card_with_article(card)


def slot_label(view: View, slot: int | None) -> str:
    if slot is None:
        return "the deck (blind)"
    display = view.display
    card = display[slot] if 0 <= slot < len(display) else None
    return f"face-up {card_word(card) if card else '?'} (slot {slot + 1})"


# --- events ---------------------------------------------------------------------------------


def log_lines(events: Iterable[Event], view: View) -> list[str]:
    """The public events in words, one sentence each (bookkeeping left out)."""
    w = wording(view)
    return w.lines(events, w.ctx(view, table_language(view.options)), PUBLIC)


def event_line(e: Event, gmap: GameMap, view: View) -> str | None:
    """One public event in words (None for bookkeeping events nobody needs to read)."""
    lines = log_lines([e], view)
    return lines[0] if lines else None


def summarize(events: Iterable[Event], view: View) -> str:
    return "; ".join(line.rstrip(".") for line in log_lines(events, view))


def recent_lines(events: Iterable[Event], view: View, limit: int = LOG_IN_POST) -> list[str]:
    """The last of the public lines that fit in `limit` characters, with a note of how many
    earlier ones were left out (a post after many computer turns)."""
    lines = log_lines(events, view)
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if kept and size + len(line) + 3 > limit:
            break
        kept.append(line)
        size += len(line) + 3
    kept.reverse()
    dropped = len(lines) - len(kept)
    out = [f"• {line}" for line in kept]
    if dropped:
        out.insert(0, f"… {dropped} earlier {'move' if dropped == 1 else 'moves'} (see /ttr log)")
    return out


# The events that mark a route on the board.
_ROUTE_EVENTS = (RouteClaimed, TunnelRevealed, DicePaid, TunnelDiceRolled, RouteRemoved)


def highlights(events: Iterable[Event]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Routes and cities to mark on the board for these events."""
    routes: list[str] = []
    cities: list[str] = []
    for e in events:
        p = e.payload
        if isinstance(p, _ROUTE_EVENTS) and p.route not in routes:
            routes.append(p.route)
        if isinstance(p, StationBuilt):
            cities.append(p.city)
    return tuple(routes), tuple(cities)


def private_lines(events: Iterable[Event], view: View) -> list[str]:
    """A player's own private events in words (for their eyes only: `view` is theirs)."""
    w = wording(view)
    return w.lines(events, w.ctx(view), PRIVATE, view.you)


def you_lines(events: Iterable[Event], view: View) -> list[str]:
    """What a player's own move did, told to them ("You claimed …"): the public events of
    their moves, then what only they saw (`view` is theirs)."""
    w = wording(view)
    return w.lines(events, w.ctx(view), PUBLIC, view.you, mine=True)


def at_hand(view: View) -> list[str]:
    """What a player pays with (their cards, or dice and tokens), above their private choices."""
    w = wording(view)
    return w.at_hand(w.ctx(view))


# --- status ---------------------------------------------------------------------------------


def player_status(view: View, seat: int) -> str:
    w = wording(view)
    return w.player_status(w.ctx(view, table_language(view.options)), seat)


def status_block(view: View) -> str:
    """Every player's public numbers and the table (never a hand)."""
    w = wording(view)
    return w.status_block(w.ctx(view, table_language(view.options)))


def waiting_line(view: View, waiting: Sequence[int], mentions: Mapping[int, str]) -> str:
    w = wording(view)
    return w.waiting_line(w.ctx(view, table_language(view.options)), waiting, mentions)


# --- actions --------------------------------------------------------------------------------


def describe_action(a: Action, view: View, gmap: GameMap | None = None) -> str:
    """An action as a short imperative ("claim Oslo – Stockholm (4 yellow) with 4 yellow")."""
    w = wording(view)
    return w.label(a, w.ctx(view))


def payment_code(payment: Mapping[str, int]) -> str:
    return describe(payment)


# --- the private hand -----------------------------------------------------------------------


def hand_text(view: View, game_id: int) -> str:
    """A player's hand, tickets and everything else only they know — PRIVATE: only for that
    player."""
    me = view.me
    if me is None:
        return "You are not playing in this game."
    w = wording(view)
    c = w.ctx(view)
    lines = [c.t("hand.title", game=f"#{game_id}", title=variant_title(view.variant, view.options, c.lang))]
    lines += w.hand_lines(c)
    return "\n".join(lines)


# --- the end --------------------------------------------------------------------------------


def final_blocks(view: View) -> list[str]:
    """The final scores, one block per player (public once the game is over: tickets are
    revealed on purpose)."""
    w = wording(view)
    return w.final_blocks(w.ctx(view, table_language(view.options)))


def final_text(view: View) -> str:
    """The final scores in full, never cut (see `split` to send them)."""
    return "\n".join(["🏆 **Final scores**", *final_blocks(view)])


def split(blocks: Sequence[str], limit: int = MAX_CONTENT) -> list[str]:
    """Blocks of text packed into as few messages of at most `limit` characters as they fit
    in, a block never split unless it alone is too long (then at line ends)."""
    messages: list[str] = []
    current = ""
    for block in blocks:
        pieces = [block] if len(block) <= limit else _lines_within(block, limit)
        for piece in pieces:
            if current and len(current) + 1 + len(piece) > limit:
                messages.append(current)
                current = piece
            else:
                current = f"{current}\n{piece}" if current else piece
    if current:
        messages.append(current)
    return messages


def _lines_within(block: str, limit: int) -> list[str]:
    out: list[str] = []
    for line in block.split("\n"):
        while len(line) > limit:
            cut_at = line.rfind(" ", 0, limit)
            cut_at = cut_at if cut_at > 0 else limit
            out.append(line[:cut_at])
            line = "   " + line[cut_at:].lstrip()
        out.append(line)
    return out


def short_log_line(seq: int, events: Sequence[Event], view: View) -> str | None:
    text = summarize(events, view)
    return f"`{seq:>4}` {text}" if text else None
