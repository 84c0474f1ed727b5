"""Words for Discord: one-line summaries of events, status lines, actions in plain English,
the private hand. Pure functions of views, events and map data (no Discord, no database), so
unit tests exercise them directly.

Public text is built only from public events and `view(state, None)`; the private helpers
(`hand_text`, `private_lines`) take a player's own view or private events and are only ever
sent to that player (DM or ephemeral)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.cards import card_word, describe
from engine.events import Event
from engine.maps import GameMap, load_map
from engine.view import View

VARIANT_TITLES = {
    "usa": "USA", "europe": "Europe", "nordic": "Nordic Countries", "germany": "Germany",
    "ussr": "USSR", "alsace": "Alsace",
}
CARD_EMOJI = {
    "red": "🟥", "orange": "🟧", "yellow": "🟨", "green": "🟩", "blue": "🟦", "pink": "🩷",
    "white": "⬜", "black": "⬛", "loco": "🌈",
}
MAX_CONTENT = 1900  # Discord allows 2000 characters per message


def game_map(view: View) -> GameMap:
    return load_map(view.map_id)


def variant_title(variant: str) -> str:
    return VARIANT_TITLES.get(variant, variant.title())


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
    if card is None:
        return ticket_id
    if card.get("kind") == "attraction":
        return f"{card['name']}, {gmap.city_label(card['city'])} ({card['points']})"
    if card.get("kind") == "visitor_pass":
        return f"Visitor Pass ({card.get('points', 10)})"
    return "Lucky Devil"


def tourist_card(gmap: GameMap, card_id: str) -> Mapping[str, Any] | None:
    """The tourist card with this id, if the map has a tourist deck."""
    for card in gmap.extras.get("tourist_cards", ()):
        if card.get("id") == card_id:
            return card
    return None


def route_label(gmap: GameMap, route_id: str) -> str:
    return gmap.route_label(route_id) if route_id in gmap.routes else route_id


def city_label(gmap: GameMap, city_id: str) -> str:
    return gmap.city_label(city_id) if city_id in gmap.cities else city_id


def card_name(card: str | None) -> str:
    if card is None:
        return "a card"
    return "a locomotive" if card == "loco" else f"a {card_word(card)}"


def slot_label(view: View, slot: int | None) -> str:
    if slot is None:
        return "the deck (blind)"
    display = view.display
    card = display[slot] if 0 <= slot < len(display) else None
    return f"face-up {card_word(card) if card else '?'} (slot {slot + 1})"


# --- events ---------------------------------------------------------------------------------

QUIET_EVENTS = {"turn_started", "display_refilled", "shuffle", "game_started", "passengers_placed"}


def event_line(e: Event, gmap: GameMap, view: View) -> str | None:
    """One public event in words (None for bookkeeping events nobody needs to read)."""
    d = e.data
    who = name_of(view, d.get("player"))
    k = e.kind
    if k in QUIET_EVENTS:
        return None
    if k == "card_drawn":
        if d.get("source") == "display":
            return f"{who} took the face-up {card_word(d.get('card', '?'))}"
        return f"{who} drew a card from the deck"
    if k == "route_claimed":
        return (f"{who} claimed {route_label(gmap, d.get('route', ''))} with {describe(d.get('payment', {}))}"
                f" (+{d.get('points', 0)})")
    if k == "tickets_drawn":
        return f"{who} drew {d.get('count', '?')} tickets"
    if k == "tickets_kept":
        return f"{who} kept {d.get('kept', '?')} ticket(s) and returned {d.get('returned', 0)}"
    if k == "station_built":
        return f"{who} built a station in {city_label(gmap, d.get('city', ''))}"
    if k == "tunnel_revealed":
        cards = ", ".join(card_word(c) for c in d.get("cards", [])) or "nothing"
        extra = d.get("extra", 0)
        return (f"{who} tries the tunnel {route_label(gmap, d.get('route', ''))}: revealed {cards} — "
                f"{extra} more card(s) to pay")
    if k == "tunnel_abandoned":
        return f"{who} gave up the tunnel {route_label(gmap, d.get('route', ''))}"
    if k == "deck_reshuffled":
        return "The discards were shuffled into a new deck"
    if k == "display_flushed":
        return "Three locomotives face up: the display was replaced"
    if k == "final_round":
        return f"🏁 Final round: {d.get('reason', 'someone is almost out of trains')}"
    if k == "game_over":
        return "🏆 The game is over"
    if k == "passenger_taken":
        return f"{who} took a {d.get('colour', '')} passenger in {city_label(gmap, d.get('city', ''))}"
    if k == "passed":
        return f"{who} passed"
    if k == "tickets_boxed":
        return None
    if k == "deadlock":
        return "Nobody can move any more: the game ends"
    # A variant's event this module does not know yet: say what it was without its data
    # (public events carry no secrets, but keep it short).
    return f"{who}: {k.replace('_', ' ')}"


def summarize(events: Iterable[Event], view: View) -> str:
    gmap = game_map(view)
    lines = [line for e in events if (line := event_line(e, gmap, view))]
    return "; ".join(lines)


def highlights(events: Iterable[Event]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Routes and cities to mark on the board for these events."""
    routes, cities = [], []
    for e in events:
        if e.kind in ("route_claimed", "tunnel_revealed") and e.data.get("route"):
            routes.append(e.data["route"])
        if e.kind == "station_built" and e.data.get("city"):
            cities.append(e.data["city"])
    return tuple(routes), tuple(cities)


def private_lines(events: Iterable[Event], view: View) -> list[str]:
    """A player's own private events in words (for their eyes only)."""
    gmap = game_map(view)
    out = []
    for e in events:
        d = e.data
        if e.kind == "card_received":
            out.append(f"You received {card_name(d.get('card'))}.")
        elif e.kind == "tickets_offered":
            labels = ", ".join(ticket_label(gmap, t) for t in d.get("tickets", []))
            out.append(f"Tickets offered: {labels} — keep at least {d.get('keep', 1)}.")
        elif e.kind == "tickets_chosen":
            kept = ", ".join(ticket_label(gmap, t) for t in d.get("kept", []))
            out.append(f"You kept {kept}.")
        elif e.kind == "cards_returned":
            out.append(d.get("text") or f"{describe(d.get('cards', {}))} went back to your hand.")
    return out


# --- status ---------------------------------------------------------------------------------


def player_status(view: View, seat: int) -> str:
    p = view.players[seat]
    bits = [f"{p.route_points} pts", f"{p.trains} trains", f"{p.hand_size} cards", f"{p.ticket_count} tickets"]
    if _has_stations(view):
        bits.append(f"{p.stations} stations")
    return f"**{name_of(view, seat)}** — " + " · ".join(bits)


def _has_stations(view: View) -> bool:
    return any(p.stations > 0 for p in view.players) or bool(view.stations)


def status_block(view: View) -> str:
    """Every player's public numbers (never the hand itself)."""
    lines = [player_status(view, s) for s in range(len(view.players))]
    tail = f"Deck {view.deck} · face up: " + " ".join(CARD_EMOJI.get(c, c) for c in view.display if c)
    if view.final_turns_left is not None:
        tail += " · **final round**"
    return "\n".join(lines + [tail])


def waiting_line(view: View, waiting: Sequence[int], mentions: Mapping[int, str]) -> str:
    pending = view.pending.kind
    who = ", ".join(mentions.get(s) or f"**{name_of(view, s)}**" for s in waiting)
    if not waiting:
        return ""
    if pending == "choose_tickets" and view.pending.setup:
        return f"🎫 {who}: choose your opening tickets (button below, privately)."
    if pending == "choose_tickets":
        return f"🎫 {who}: choose which tickets to keep."
    if pending == "second_card":
        return f"🃏 {who}: take your second card."
    if pending == "tunnel":
        return f"⛰️ {who}: pay for the tunnel or give it up."
    return f"➡️ {who}, it's your turn."


# --- actions --------------------------------------------------------------------------------


def describe_action(a: Action, view: View, gmap: GameMap | None = None) -> str:
    """An action as a short imperative ("claim Oslo – Stockholm (4 yellow) with 4 yellow")."""
    gmap = gmap or game_map(view)
    data = a.to_json()
    t = a.TYPE
    if t == "draw_card":
        return f"take {slot_label(view, data.get('slot'))}"
    if t == "claim_route":
        return f"claim {route_label(gmap, data['route'])} with {describe(data.get('payment', {}))}"
    if t == "draw_tickets":
        mix = data.get("mix") or []
        if mix:
            return "draw tickets: " + ", ".join(f"{n} {deck}" for deck, n in mix)
        return "draw new tickets"
    if t == "keep_tickets":
        return "keep " + ", ".join(ticket_label(gmap, x) for x in data.get("keep", []))
    if t == "build_station":
        return f"build a station in {city_label(gmap, data['city'])} with {describe(data.get('payment', {}))}"
    if t == "pay_tunnel":
        return f"pay {describe(data.get('payment', {}))} more and take the tunnel"
    if t == "give_up_tunnel":
        return "give up the tunnel (your cards come back)"
    if t == "pass":
        return "pass"
    if t == "take_passenger":
        return f"take a {data.get('colour')} passenger in {city_label(gmap, data.get('city', ''))}"
    fields = ", ".join(f"{k} {_plain(v, gmap)}" for k, v in data.items() if k not in ("type", "player"))
    return t.replace("_", " ") + (f": {fields}" if fields else "")


def _plain(value: Any, gmap: GameMap) -> str:
    if isinstance(value, dict):
        return describe(value)
    if isinstance(value, str):
        if value in gmap.routes:
            return route_label(gmap, value)
        if value in gmap.cities:
            return city_label(gmap, value)
        if value in gmap.tickets or tourist_card(gmap, value) is not None:
            return ticket_label(gmap, value)
    if isinstance(value, list | tuple):
        return ", ".join(_plain(v, gmap) for v in value)
    return str(value)


def payment_code(payment: Mapping[str, int]) -> str:
    return describe(payment)


# --- the private hand -----------------------------------------------------------------------


def hand_text(view: View, game_id: int) -> str:
    """A player's hand and tickets, in words — PRIVATE: only for that player."""
    me = view.me
    if me is None:
        return "You are not playing in this game."
    gmap = game_map(view)
    hand = me.hand or {}
    cards = " · ".join(f"{CARD_EMOJI.get(c, '')} {n} {card_word(c, n)}" for c, n in sorted(hand.items()) if n)
    lines = [f"**Your hand in game #{game_id}** ({variant_title(view.variant)})",
             f"Cards: {cards or 'none'}"]
    done = me.completed
    tickets = me.tickets or ()
    if tickets:
        lines.append("Tickets:")
        for tid in tickets:
            mark = "✅" if tid in done else "⬜"
            lines.append(f"  {mark} {ticket_label(gmap, tid)}")
    else:
        lines.append("Tickets: none yet")
    offered = view.pending.offer_of(me.seat)
    if offered:
        lines.append("Offered to you now: " + ", ".join(ticket_label(gmap, t) for t in offered))
    lines.append(f"Trains {me.trains} · stations {me.stations} · route points {me.route_points}")
    return "\n".join(lines)[:MAX_CONTENT]


# --- the end --------------------------------------------------------------------------------


def final_text(view: View) -> str:
    """The final scores with every player's tickets revealed (public once the game is over)."""
    gmap = game_map(view)
    result = view.result or {}
    winners = set(result.get("winners", []))
    lines = ["🏆 **Final scores**"]
    for sheet in sorted(result.get("sheets", []), key=lambda s: -s.get("total", 0)):
        crown = " 👑" if sheet["seat"] in winners else ""
        bonus = ", ".join(f"{k} +{v}" for k, v in (sheet.get("bonuses") or {}).items())
        lines.append(f"**{sheet.get('name') or name_of(view, sheet['seat'])}** {sheet.get('total', 0)}{crown} — "
                     f"routes {sheet.get('routes', 0)}, tickets +{sheet.get('tickets_won', 0)} "
                     f"-{abs(sheet.get('tickets_lost', 0))}" + (f", {bonus}" if bonus else ""))
        tix = []
        for t in sheet.get("tickets", []):
            tix.append(("✅ " if t.get("completed") else "❌ ") + ticket_label(gmap, t.get("id", "")))
        if tix:
            lines.append("   " + " · ".join(tix))
    if result.get("tie_break"):
        lines.append(f"Tie-break: {result['tie_break']}")
    return "\n".join(lines)[:MAX_CONTENT]


def short_log_line(seq: int, events: Sequence[Event], view: View) -> str | None:
    text = summarize(events, view)
    return f"`{seq:>4}` {text}" if text else None
