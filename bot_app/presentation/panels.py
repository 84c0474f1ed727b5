"""The private turn panels: what a player sees after pressing a turn button or typing a move.

Every choice is a legal move the engine listed (nothing is decided here). A panel names a move
by its place in `legal_actions` at the game's seq (`<index>.<type>`): the same list after a
restart, since the state and the rules are the same, and a panel from an older point of the
game is refused ("that already happened"). Anything irreversible asks for a Confirm first.
After a move the mover's panel shows what only they saw and what they may do next; everything
public is posted by the dispatcher from what the move stored.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from app import Actor, Panel, StaleAction, SubmitResult
from bot_app.presentation import ids, text
from bot_app.presentation.answers import Refusal
from bot_app.presentation.components import MAX_OPTIONS, button, select, view_of
from bot_app.presentation.inputs import is_number
from bot_app.presentation.undo_offer import with_undo
from bot_app.presentation.words import wording
from engine.actions import ACTION_TYPES, Action, BuildStation, ClaimRoute, DrawCard, KeepTickets
from engine.maps import GameMap
from engine.rules.tickets import ChooseTickets
from engine.view import View

if TYPE_CHECKING:
    from bot_app.adapter.desk import Desk  # the desk is handed in by the adapter

log = logging.getLogger("bot_app")

# The turn-post buttons that open a panel of their own (the rest open a menu of their moves).
OPENS = {"draw_card": "draw", "claim_route": "claim", "build_station": "stn", "draw_tickets": "tix"}
GROUPED = {"claim_route": "a route", "build_station": "a city"}
# Moves made at once from a panel; everything else asks for a Confirm first.
NO_CONFIRM = {"draw_card"}
STYLES = {"primary": discord.ButtonStyle.primary, "success": discord.ButtonStyle.success,
          "danger": discord.ButtonStyle.danger, "secondary": discord.ButtonStyle.secondary}
# At most this many moves of one kind get a button each (Call time / Play on, Give up).
EACH_MAX = 4


# --- whose turn -------------------------------------------------------------------------------


async def turn_panel(desk: Desk, game_id: int, user_id: int, seq: int | None) -> Panel:
    """The caller's panel, if the game waits for them (and `seq` is current); else a refusal.
    Any game command brings an absent player back."""
    panel = await desk.service.reads.panel(game_id, user_id)
    summary = panel.summary
    if summary.status in ("over", "cancelled", "broken"):
        raise Refusal(f"Game #{game_id} is {'over' if summary.status == 'over' else 'closed'}.")
    if panel.seat is None:
        raise Refusal(f"You are not playing in game #{game_id}.")
    if seq is not None and seq != summary.seq:
        raise Refusal("That already happened: the game has moved on since this was posted.")
    me = summary.seats[panel.seat]
    if me.absent_turns or me.stand_in is not None:
        await desk.service.clocks.player_seen(game_id, user_id)
        panel = await desk.service.reads.panel(game_id, user_id)
    if not panel.legal:
        who = ", ".join(s.name for s in summary.seats if s.seat in summary.waiting_for) or "nobody"
        raise Refusal(f"It's not your turn in game #{game_id}; it is waiting for {who}.",
                      key="refusal.panel_not_your_turn", game=f"#{game_id}", who=who)
    return panel


# --- tokens -----------------------------------------------------------------------------------


def token(legal: Sequence[Action], action: Action) -> str:
    """A legal move as `<index>.<type>`: its place in `legal_actions` at this seq."""
    return f"{legal.index(action)}.{action.TYPE}"


def pick(legal: Sequence[Action], tok: str) -> Action:
    idx, _, kind = tok.partition(".")
    if not is_number(idx) or int(idx) >= len(legal) or kind != legal[int(idx)].TYPE:
        raise Refusal("That choice is no longer available.")
    return legal[int(idx)]


def group_key(a: Action) -> str:
    """The route a claim is for, or the city a station is for ("" for anything else)."""
    if isinstance(a, ClaimRoute):
        return a.route
    if isinstance(a, BuildStation):
        return a.city
    return ""


# --- buttons ----------------------------------------------------------------------------------


def action_buttons(g: int, seq: int, legal: Sequence[Action], view: View,
                   extra: Sequence[discord.ui.Button[Any]] = ()) -> discord.ui.View:
    """The buttons of a turn post (or panel) for the legal moves, named by the words of the
    rule that handles each kind, then `extra` (the post's Zoom), then My hand."""
    w = wording(view)
    c = w.ctx(view)
    kinds: list[str] = []
    for a in legal:
        if a.TYPE not in kinds:
            kinds.append(a.TYPE)
    items = []
    for k in kinds:
        moves = [a for a in legal if k == a.TYPE]
        doing = w.doing(moves[0], c)
        style = STYLES.get(doing.style, discord.ButtonStyle.secondary)
        if doing.each and len(moves) <= EACH_MAX:
            for a in moves:
                name = doing.short(a, c) if doing.short else doing.button_in(c)
                items.append(button(name, ids.make(g, seq, "ask", token(legal, a)), style, doing.emoji))
        elif k == "keep_tickets":
            items.append(button(doing.button_in(c), ids.make(g, None, "kt"), style, doing.emoji))
        elif k in OPENS:
            items.append(button(doing.button_in(c), ids.make(g, seq, OPENS[k]), style, doing.emoji))
        else:
            items.append(button(doing.button_in(c), ids.make(g, seq, ids.RULE_MOVE, k), style, doing.emoji))
    items = items[:19] + list(extra)[:4]
    items.append(button(c.t("button.my_hand"), ids.make(g, None, "hand"), discord.ButtonStyle.secondary, "✋"))
    return view_of(*items)


def draw_buttons(g: int, seq: int, legal: Sequence[Action], view: View) -> list[discord.ui.Button[Any]]:
    out = []
    for a in legal:
        if not isinstance(a, DrawCard):
            continue
        slot = a.slot
        label = "Deck (blind)" if slot is None else f"{slot + 1}: {text.card_word(view.display[slot] or 'empty')}"
        emoji = None if slot is None else text.CARD_EMOJI.get(view.display[slot] or "")
        out.append(button(label, ids.make(g, seq, "do", token(legal, a)), discord.ButtonStyle.primary, emoji=emoji))
    return out[:25]


# --- panels -----------------------------------------------------------------------------------


def _with_hand(panel: Panel, line: str) -> str:
    """A private panel's text, under what the player pays with (their cards, dice, tokens)."""
    return "\n".join([*text.at_hand(panel.view), line])


async def draw_panel(desk: Desk, interaction: discord.Interaction, panel: Panel) -> None:
    g, seq = panel.summary.game_id, panel.summary.seq
    buttons = draw_buttons(g, seq, panel.legal, panel.public)
    if not buttons:
        raise Refusal("You cannot draw a card now.")
    await desk.answers.update_panel(interaction, _with_hand(panel, "Which card?"), view_of(*buttons))


async def group_panel(desk: Desk, interaction: discord.Interaction, panel: Panel, kind: str, page: int) -> None:
    """A menu of the routes (or cities) the player can claim, a page of 25 at a time."""
    g, seq = panel.summary.game_id, panel.summary.seq
    chosen = [a for a in panel.legal if kind == a.TYPE]
    if not chosen:
        raise Refusal(f"You cannot {ACTION_TYPES[kind].DOES if kind in ACTION_TYPES else 'do that'} now.")
    gmap = text.game_map(panel.public)
    groups: dict[str, list[Action]] = {}
    for a in chosen:
        groups.setdefault(group_key(a), []).append(a)
    keys = sorted(groups, key=lambda k: _group_sort(gmap, kind, k))
    pages = max(1, -(-len(keys) // MAX_OPTIONS))
    page = min(max(page, 0), pages - 1)
    shown = keys[page * MAX_OPTIONS:(page + 1) * MAX_OPTIONS]
    options = [(_group_label(panel, kind, k), k, _ways(len(groups[k]))) for k in shown]
    items: list[Any] = [select(ids.make(g, seq, ids.GROUP_PICK, kind), options,
                               f"Pick {GROUPED.get(kind, 'one')} ({page + 1}/{pages})")]
    if page > 0:
        items.append(button("◀ Previous", ids.make(g, seq, "grp", f"{kind}.{page - 1}")))
    if page + 1 < pages:
        items.append(button("More ▶", ids.make(g, seq, "grp", f"{kind}.{page + 1}")))
    what = "routes you can claim" if kind == "claim_route" else "cities where you can build"
    await desk.answers.update_panel(
        interaction, _with_hand(panel, f"{len(keys)} {what}. You can also type "
                                       f"`/ttr {'claim' if kind == 'claim_route' else 'station'}` with autocomplete."),
        view_of(*items))


async def choose_or_confirm(desk: Desk, interaction: discord.Interaction, panel: Panel,
                            chosen: Sequence[Action]) -> None:
    """One move: confirm it. Several: a menu of them first."""
    if not chosen:
        raise Refusal("That is not something you can do now.")
    if len(chosen) == 1:
        return await confirm_panel(desk, interaction, panel, chosen[0])
    g, seq = panel.summary.game_id, panel.summary.seq
    options = [(_short(text.describe_action(a, panel.view)), token(panel.legal, a), None)
               for a in chosen[:MAX_OPTIONS]]
    more = ("" if len(chosen) <= MAX_OPTIONS
            else f" (showing {MAX_OPTIONS} of {len(chosen)}; /ttr move lists them all)")
    await desk.answers.update_panel(interaction, _with_hand(panel, "Choose one" + more + ":"),
                                    view_of(select(ids.make(g, seq, ids.ACTION_PICK), options, "Choose…")))


async def confirm_panel(desk: Desk, interaction: discord.Interaction, panel: Panel, action: Action) -> None:
    g, seq = panel.summary.game_id, panel.summary.seq
    what = text.describe_action(action, panel.view)
    tok = token(panel.legal, action)
    await desk.answers.update_panel(
        interaction, _with_hand(panel, f"**Confirm:** {what}?"),
        view_of(button("Confirm", ids.make(g, seq, "do", tok), discord.ButtonStyle.success),
                button("Cancel", ids.make(g, seq, "nope"))))


# --- opening and later ticket choices -----------------------------------------------------------


def offer_of(panel: Panel) -> list[str]:
    """The tickets offered to the caller now (empty when there is no choice to make)."""
    return panel.view.pending.offer_of(panel.seat)


async def keep_panel(desk: Desk, interaction: discord.Interaction, game_id: int) -> None:
    """The private choice of tickets to keep — or, first, what the rules ask before it: the
    mix of short and long tickets to draw (Germany), a Lucky Devil to play (Alsace)."""
    panel = await turn_panel(desk, game_id, interaction.user.id, None)
    offer = offer_of(panel)
    keeps = [a for a in panel.legal if isinstance(a, KeepTickets)]
    if not keeps:
        before = [a for a in panel.legal if not isinstance(a, KeepTickets)]
        if before and isinstance(panel.view.pending.decision, ChooseTickets):
            await choose_or_confirm(desk, interaction, panel, before)
            if offer:  # dealt already, and asked about first (Alsace's Lucky Devil)
                await show_offer(desk, interaction, panel)
            return
        raise Refusal("You have no tickets to choose right now.")
    if not offer:
        raise Refusal("You have no tickets to choose right now.")
    gmap = text.game_map(panel.view)
    marks = panel.view.pending.offer_marks(panel.seat)
    options = [(offer_label(gmap, marks, t), t, _card_kind(gmap, t)) for t in offer if _choosable(keeps, t)]
    least = min(len(a.keep) for a in keeps)
    await desk.answers.update_panel(interaction, _keep_prompt(panel, keeps),
                                    view_of(select(ids.make(game_id, None, ids.KEEP_PICK), options, "Cards to keep",
                                                   min_values=least, max_values=len(options))))
    await show_offer(desk, interaction, panel)


OFFER_FILE = "offer.png"


async def show_offer(desk: Desk, interaction: discord.Interaction, panel: Panel) -> None:
    """Add the offer's picture to the panel just answered. The menu goes first, at once (Discord
    wants an answer within 3 seconds, and a map's first offer in a worker builds its base);
    the picture follows in an edit of the same private message."""
    picture = await offer_picture(desk, interaction.user.id, panel)
    if picture is not None:
        await desk.answers.attach(interaction, picture)


async def offer_picture(desk: Desk, user_id: int, panel: Panel) -> discord.File | None:
    """The offered tickets on the map (the letters of the menu), for this player only; none
    when they turned pictures off in /ttr settings, or when it cannot be drawn (the choice
    works without it)."""
    if not (await desk.service.settings.settings(user_id)).hand_picture:
        return None
    try:
        png = await desk.renderer.offer(panel.view)
    except Exception:
        log.exception("could not draw the ticket offer of game #%s", panel.summary.game_id)
        return None
    return discord.File(io.BytesIO(png), OFFER_FILE)


def offer_label(gmap: GameMap, marks: dict[str, str], card: str) -> str:
    """An offered card in the menu: its letter on the picture, then the card in words."""
    mark = marks.get(card)
    return f"{mark}: {text.ticket_label(gmap, card)}" if mark else text.ticket_label(gmap, card)


def _choosable(keeps: Sequence[KeepTickets], card: str) -> bool:
    return any(card in a.keep for a in keeps)


def _card_kind(gmap: GameMap, card: str) -> str:
    return "destination ticket" if card in gmap.tickets else "tourist card"


def _keep_prompt(panel: Panel, keeps: Sequence[KeepTickets]) -> str:
    """"Keep at least 3 tickets and 3 tourist cards:" — the least of each kind any legal
    choice keeps."""
    gmap = text.game_map(panel.view)
    least_tickets = min(sum(1 for t in a.keep if t in gmap.tickets) for a in keeps)
    least_other = min(sum(1 for t in a.keep if t not in gmap.tickets) for a in keeps)
    others = any(t not in gmap.tickets for t in offer_of(panel))
    parts = [f"{least_tickets} {'ticket' if least_tickets == 1 else 'tickets'}"]
    if others:
        parts.append(f"{least_other} tourist {'card' if least_other == 1 else 'cards'}")
    need = " and ".join(parts)
    if not least_tickets and not least_other:
        return "Keep any of these, or none:"
    return f"Keep at least {need} of these:"


async def keep_confirm(desk: Desk, interaction: discord.Interaction, game_id: int, values: list[str]) -> None:
    panel = await turn_panel(desk, game_id, interaction.user.id, None)
    offer = offer_of(panel)
    if not offer:
        raise Refusal("That already happened: you have no tickets to choose now.")
    mask = sum(1 << i for i, t in enumerate(offer) if t in set(values))
    gmap = text.game_map(panel.view)
    marks = panel.view.pending.offer_marks(panel.seat)
    kept = "; ".join(offer_label(gmap, marks, t) for t in offer if t in set(values)) or "nothing"
    await desk.answers.update_panel(
        interaction, f"**Confirm:** keep {kept}?",
        view_of(button("Confirm", ids.make(game_id, None, ids.KEEP_CONFIRM, str(mask)), discord.ButtonStyle.success),
                button("Cancel", ids.make(game_id, None, "nope"))))


async def keep_submit(desk: Desk, interaction: discord.Interaction, game_id: int, arg: str) -> None:
    panel = await turn_panel(desk, game_id, interaction.user.id, None)
    offer = offer_of(panel)
    if not offer or not is_number(arg):
        raise Refusal("That already happened: you have no tickets to choose now.")
    mask = int(arg)
    keep = {t for i, t in enumerate(offer) if mask >> i & 1}
    match = [a for a in panel.legal if isinstance(a, KeepTickets) and set(a.keep) == keep]
    if not match:
        raise Refusal(_keep_prompt(panel, [a for a in panel.legal if isinstance(a, KeepTickets)]).replace(
            " of these:", ".").replace("Keep at least", "You must keep at least"))
    await submit_from_panel(desk, interaction, game_id, panel.summary.seq, match[0])


# --- moving -----------------------------------------------------------------------------------


async def submit_from_panel(desk: Desk, interaction: discord.Interaction, g: int, seq: int, action: Action) -> None:
    """Make the move, answer the mover privately (with what comes next for them); the bot's
    seats then play, and the dispatcher posts what the moves stored."""
    try:
        result = await desk.service.moves.submit(g, Actor.user(interaction.user.id), action, seq)
    except StaleAction:
        raise Refusal("That already happened: the game has moved on.") from None
    content, follow = await _after_move_panel(desk, interaction.user.id, result, action)
    await desk.answers.update_panel(interaction, content, with_undo(follow, result))
    await desk.after_move(g)


async def _after_move_panel(desk: Desk, user_id: int, result: SubmitResult, action: Action
                            ) -> tuple[str, discord.ui.View | None]:
    view = result.view(result.actor)
    me = result.actor
    events = [*result.public_events, *(result.private_events.get(me, ()) if me is not None else ())]
    said = text.you_lines(events, view) if me is not None else []
    lines = [f"✅ {said[0]}", *said[1:]] if said else ["✅ Done."]
    follow: discord.ui.View | None = None
    if me in result.waiting_for and not result.ended:
        legal = (await desk.service.reads.panel(result.game_id, user_id)).legal
        kinds = {a.TYPE for a in legal}
        if kinds == {"draw_card"}:
            lines.append("Take your second card:")
            follow = view_of(*draw_buttons(result.game_id, result.seq, legal, view))
        elif "keep_tickets" in kinds or isinstance(view.pending.decision, ChooseTickets):
            lines.append("Now choose what to keep:")
            follow = view_of(button("Choose tickets", ids.make(result.game_id, None, "kt"),
                                    discord.ButtonStyle.primary, "🎫"))
        elif kinds:
            lines += text.at_hand(view)
            lines.append(text.waiting_line(view, [me], {me: "You"}).rstrip())
            follow = action_buttons(result.game_id, result.seq, legal, view)
    return "\n".join(lines), follow


async def command_move(desk: Desk, interaction: discord.Interaction, g: int, kind: str,
                       match: Callable[[Action], bool] | None = None, *, confirm: bool = True,
                       what: str = "", panel: Panel | None = None) -> None:
    """A move typed as a command: find the legal moves of `kind` that fit the options; one →
    confirm (or play it at once), several → a private menu, none → why not. `panel`: the
    caller's panel if the command already read it."""
    panel = panel or await turn_panel(desk, g, interaction.user.id, None)
    of_kind = [a for a in panel.legal if kind_matches(a.TYPE, kind)]
    doing = what or (ACTION_TYPES[kind].DOES if kind in ACTION_TYPES else "do that")
    if not of_kind:
        raise Refusal(f"You cannot {doing} now.")
    chosen = [a for a in of_kind if match is None or match(a)]
    if not chosen:
        raise Refusal(f"You cannot {doing} that way now; pick one from the list.")
    if len(chosen) == 1 and not confirm:
        return await submit_from_panel(desk, interaction, g, panel.summary.seq, chosen[0])
    await choose_or_confirm(desk, interaction, panel, chosen)


# A typed command names a kind of move; a rule may offer the same move as another kind (with
# dice, /ttr tickets draws tickets with station dice).
SAME_MOVE = {"draw_tickets": ("draw_tickets_dice",)}


def kind_matches(action_type: str, kind: str) -> bool:
    return action_type == kind or kind == "*" or action_type in SAME_MOVE.get(kind, ())


def _group_label(panel: Panel, kind: str, key: str) -> str:
    c = wording(panel.view).ctx(panel.view)
    if kind == "claim_route":
        return c.route(key)
    if kind == "build_station":
        return c.city(key)
    return key or kind


def _group_sort(gmap: GameMap, kind: str, key: str) -> tuple[Any, ...]:
    if kind == "claim_route" and key in gmap.routes:
        return (-gmap.routes[key].length, text.route_label(gmap, key))
    if kind == "build_station" and key in gmap.cities:
        return (0, gmap.city_label(key))
    return (0, key)


def _ways(n: int) -> str:
    return "1 way to pay" if n == 1 else f"{n} ways to pay"


def _short(label: str) -> str:
    """A menu option's label: Discord shows at most 100 characters."""
    return label if len(label) <= 100 else label[:99] + "…"
