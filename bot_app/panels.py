"""The private turn panels: what a player sees after pressing a turn button or typing a move.

Every choice is a legal move the engine listed (nothing is decided here). A panel names a move
by its place in `legal_actions` at the game's seq (`<index>.<type>`): the same list after a
restart, since the state and the rules are the same, and a panel from an older point of the
game is refused ("that already happened"). Anything irreversible asks for a Confirm first.
After a move the mover's panel shows what only they saw and what they may do next; everything
public is posted by the dispatcher from what the move stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import discord

from app import Actor, Panel, StaleAction, SubmitResult
from bot_app import ids, text
from bot_app.answers import Refusal
from bot_app.components import MAX_OPTIONS, button, select, view_of
from bot_app.desk import Desk
from bot_app.inputs import is_number
from bot_app.undo_offer import with_undo
from engine.actions import Action, BuildStation, ClaimRoute, DrawCard, KeepTickets
from engine.maps import GameMap
from engine.view import View

PANEL_TYPES = {"draw_card": "Draw", "claim_route": "Claim", "draw_tickets": "Tickets",
               "build_station": "Station", "keep_tickets": "Choose tickets"}
# Moves made at once from a panel; everything else asks for a Confirm first.
NO_CONFIRM = {"draw_card"}


# --- whose turn -------------------------------------------------------------------------------


async def turn_panel(desk: Desk, game_id: int, user_id: int, seq: int | None) -> Panel:
    """The caller's panel, if the game waits for them (and `seq` is current); else a refusal.
    Any game command brings an absent player back."""
    panel = await desk.service.panel(game_id, user_id)
    summary = panel.summary
    if summary.status in ("over", "cancelled", "broken"):
        raise Refusal(f"Game #{game_id} is {'over' if summary.status == 'over' else 'closed'}.")
    if panel.seat is None:
        raise Refusal(f"You are not playing in game #{game_id}.")
    if seq is not None and seq != summary.seq:
        raise Refusal("That already happened: the game has moved on since this was posted.")
    me = summary.seats[panel.seat]
    if me.absent_turns or me.stand_in is not None:
        await desk.service.player_seen(game_id, user_id)
        panel = await desk.service.panel(game_id, user_id)
    if not panel.legal:
        who = ", ".join(s.name for s in summary.seats if s.seat in summary.waiting_for) or "nobody"
        raise Refusal(f"It's not your turn in game #{game_id}; it is waiting for {who}.")
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


def action_buttons(g: int, seq: int, legal: Sequence[Action]) -> discord.ui.View:
    """The buttons of a turn post (or panel) for the legal moves, plus My hand."""
    kinds: list[str] = []
    for a in legal:
        if a.TYPE not in kinds:
            kinds.append(a.TYPE)
    items = []
    for k in kinds:
        if k == "draw_card":
            items.append(button("Draw", ids.make(g, seq, "draw"), discord.ButtonStyle.primary, "🃏"))
        elif k == "claim_route":
            items.append(button("Claim", ids.make(g, seq, "claim"), discord.ButtonStyle.success, "🚂"))
        elif k == "draw_tickets":
            items.append(button("Tickets", ids.make(g, seq, "tix"), discord.ButtonStyle.secondary, "🎫"))
        elif k == "build_station":
            items.append(button("Station", ids.make(g, seq, "stn"), discord.ButtonStyle.secondary, "🏠"))
        elif k == "keep_tickets":
            items.append(button("Choose tickets", ids.make(g, None, "kt"), discord.ButtonStyle.primary, "🎫"))
        else:
            items.append(button(k.replace("_", " ").capitalize(), ids.make(g, seq, "xt", k)))
    items = items[:19]
    items.append(button("My hand", ids.make(g, None, "hand"), discord.ButtonStyle.secondary, "✋"))
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


async def draw_panel(desk: Desk, interaction: discord.Interaction, panel: Panel) -> None:
    g, seq = panel.summary.game_id, panel.summary.seq
    buttons = draw_buttons(g, seq, panel.legal, panel.public)
    if not buttons:
        raise Refusal("You cannot draw a card now.")
    await desk.answers.update_panel(interaction, "Which card?", view_of(*buttons))


async def group_panel(desk: Desk, interaction: discord.Interaction, panel: Panel, kind: str, page: int) -> None:
    """A menu of the routes (or cities) the player can claim, a page of 25 at a time."""
    g, seq = panel.summary.game_id, panel.summary.seq
    chosen = [a for a in panel.legal if kind == a.TYPE]
    if not chosen:
        raise Refusal(f"You cannot {PANEL_TYPES.get(kind, kind).lower()} now.")
    gmap = text.game_map(panel.public)
    groups: dict[str, list[Action]] = {}
    for a in chosen:
        groups.setdefault(group_key(a), []).append(a)
    keys = sorted(groups, key=lambda k: _group_sort(gmap, kind, k))
    pages = max(1, -(-len(keys) // MAX_OPTIONS))
    page = min(max(page, 0), pages - 1)
    shown = keys[page * MAX_OPTIONS:(page + 1) * MAX_OPTIONS]
    options = [(_group_label(gmap, kind, k), k, f"{len(groups[k])} way(s) to pay") for k in shown]
    items: list[Any] = [select(ids.make(g, seq, "gsel", kind), options,
                               f"{PANEL_TYPES.get(kind, kind)}: pick one ({page + 1}/{pages})")]
    if page > 0:
        items.append(button("◀ Previous", ids.make(g, seq, "grp", f"{kind}.{page - 1}")))
    if page + 1 < pages:
        items.append(button("More ▶", ids.make(g, seq, "grp", f"{kind}.{page + 1}")))
    await desk.answers.update_panel(
        interaction, f"{len(keys)} choice(s). You can also type "
        f"`/ttr {'claim' if kind == 'claim_route' else 'station'}` with autocomplete.", view_of(*items))


async def choose_or_confirm(desk: Desk, interaction: discord.Interaction, panel: Panel,
                            chosen: Sequence[Action]) -> None:
    """One move: confirm it. Several: a menu of them first."""
    if not chosen:
        raise Refusal("That is not something you can do now.")
    if len(chosen) == 1:
        return await confirm_panel(desk, interaction, panel, chosen[0])
    g, seq = panel.summary.game_id, panel.summary.seq
    gmap = text.game_map(panel.view)
    options = [(text.describe_action(a, panel.view, gmap)[:100], token(panel.legal, a), None)
               for a in chosen[:MAX_OPTIONS]]
    more = ("" if len(chosen) <= MAX_OPTIONS
            else f" (showing {MAX_OPTIONS} of {len(chosen)}; type the command for the rest)")
    await desk.answers.update_panel(interaction, "Choose one" + more + ":",
                                    view_of(select(ids.make(g, seq, "asel"), options, "Choose…")))


async def confirm_panel(desk: Desk, interaction: discord.Interaction, panel: Panel, action: Action) -> None:
    g, seq = panel.summary.game_id, panel.summary.seq
    what = text.describe_action(action, panel.view)
    tok = token(panel.legal, action)
    await desk.answers.update_panel(
        interaction, f"**Confirm:** {what}?",
        view_of(button("Confirm", ids.make(g, seq, "do", tok), discord.ButtonStyle.success),
                button("Cancel", ids.make(g, seq, "nope"))))


# --- opening and later ticket choices -----------------------------------------------------------


def offer_of(panel: Panel) -> list[str]:
    """The tickets offered to the caller now (empty when there is no choice to make)."""
    return panel.view.pending.offer_of(panel.seat)


async def keep_panel(desk: Desk, interaction: discord.Interaction, game_id: int) -> None:
    panel = await turn_panel(desk, game_id, interaction.user.id, None)
    offer = offer_of(panel)
    keeps = [a for a in panel.legal if isinstance(a, KeepTickets)]
    if not keeps or not offer:
        raise Refusal("You have no tickets to choose right now.")
    least = min(len(a.keep) for a in keeps)
    gmap = text.game_map(panel.view)
    options = [(text.ticket_label(gmap, t), t, None) for t in offer]
    await desk.answers.update_panel(interaction, f"Keep at least {least} of these tickets:",
                                    view_of(select(ids.make(game_id, None, "ksel"), options, "Tickets to keep",
                                                   min_values=least, max_values=len(offer))))


async def keep_confirm(desk: Desk, interaction: discord.Interaction, game_id: int, values: list[str]) -> None:
    panel = await turn_panel(desk, game_id, interaction.user.id, None)
    offer = offer_of(panel)
    if not offer:
        raise Refusal("That already happened: you have no tickets to choose now.")
    mask = sum(1 << i for i, t in enumerate(offer) if t in set(values))
    gmap = text.game_map(panel.view)
    kept = ", ".join(text.ticket_label(gmap, t) for t in offer if t in set(values)) or "nothing"
    await desk.answers.update_panel(
        interaction, f"**Confirm:** keep {kept}?",
        view_of(button("Confirm", ids.make(game_id, None, "kdo", str(mask)), discord.ButtonStyle.success),
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
        raise Refusal("You must keep more tickets than that.")
    await submit_from_panel(desk, interaction, game_id, panel.summary.seq, match[0])


# --- moving -----------------------------------------------------------------------------------


async def submit_from_panel(desk: Desk, interaction: discord.Interaction, g: int, seq: int, action: Action) -> None:
    """Make the move, answer the mover privately (with what comes next for them); the bot's
    seats then play, and the dispatcher posts what the moves stored."""
    try:
        result = await desk.service.submit(g, Actor.user(interaction.user.id), action, seq)
    except StaleAction:
        raise Refusal("That already happened: the game has moved on.") from None
    content, follow = await _after_move_panel(desk, interaction.user.id, result, action)
    await desk.answers.update_panel(interaction, content, with_undo(follow, result))
    await desk.after_move(g)


async def _after_move_panel(desk: Desk, user_id: int, result: SubmitResult, action: Action
                            ) -> tuple[str, discord.ui.View | None]:
    view = result.view(result.actor)
    me = result.actor
    lines = ["✅ Done." if action.TYPE == "draw_card" else f"✅ You chose to {text.describe_action(action, view)}."]
    lines += text.private_lines(result.private_events.get(me, ()), view) if me is not None else []
    follow: discord.ui.View | None = None
    if me in result.waiting_for and not result.ended:
        legal = (await desk.service.panel(result.game_id, user_id)).legal
        kinds = {a.TYPE for a in legal}
        if kinds == {"draw_card"}:
            lines.append("Take your second card:")
            follow = view_of(*draw_buttons(result.game_id, result.seq, legal, view))
        elif "keep_tickets" in kinds:
            lines.append("Now choose which tickets to keep:")
            follow = view_of(button("Choose tickets", ids.make(result.game_id, None, "kt"),
                                    discord.ButtonStyle.primary))
        elif kinds:
            follow = action_buttons(result.game_id, result.seq, legal)
    return "\n".join(lines), follow


async def command_move(desk: Desk, interaction: discord.Interaction, g: int, kind: str,
                       match: Callable[[Action], bool] | None = None, *, confirm: bool = True,
                       what: str = "", panel: Panel | None = None) -> None:
    """A move typed as a command: find the legal moves of `kind` that fit the options; one →
    confirm (or play it at once), several → a private menu, none → why not. `panel`: the
    caller's panel if the command already read it."""
    panel = panel or await turn_panel(desk, g, interaction.user.id, None)
    of_kind = [a for a in panel.legal if kind_matches(a.TYPE, kind)]
    if not of_kind:
        raise Refusal(f"You cannot {what or kind.replace('_', ' ')} now.")
    chosen = [a for a in of_kind if match is None or match(a)]
    if not chosen:
        raise Refusal(f"That {what or kind.replace('_', ' ')} is not possible now; pick one from the list.")
    if len(chosen) == 1 and not confirm:
        return await submit_from_panel(desk, interaction, g, panel.summary.seq, chosen[0])
    await choose_or_confirm(desk, interaction, panel, chosen)


def kind_matches(action_type: str, kind: str) -> bool:
    return action_type == kind or kind == "*"


def _group_label(gmap: GameMap, kind: str, key: str) -> str:
    if kind == "claim_route":
        return text.route_label(gmap, key)
    if kind == "build_station":
        return text.city_label(gmap, key)
    return key or kind


def _group_sort(gmap: GameMap, kind: str, key: str) -> tuple[Any, ...]:
    if kind == "claim_route" and key in gmap.routes:
        return (-gmap.routes[key].length, text.route_label(gmap, key))
    return (0, _group_label(gmap, kind, key))
