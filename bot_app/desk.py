"""The game desk: everything between an interaction and the service.

The cogs read options and call a `Desk` method; the desk checks who may do what, calls the
service, renders, and answers (ephemerally for anything private or refused), then posts the
public result in the game's thread. Rules are never decided here: legal moves come from the
service (`legal_actions`) and a refusal is the engine's or the service's own sentence.

Seams for tests: `renderer` (real or stub pictures), `clock` (timers), `client` (a real
discord.py client; the cog unit tests pass a mock specced on it).
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from app import Actor, GameService, GameSummary, Lobby, OtherServer, ServiceError, StaleAction, SubmitResult
from app.errors import GameNotFound
from bot_app import ids, text
from bot_app.components import MAX_OPTIONS, button, select, view_of
from bot_app.inputs import excerpt, is_number
from bot_app.render_hooks import Renderer
from engine.actions import Action
from engine.ai import AI_LEVELS, make_ai
from engine.cards import describe
from engine.errors import IllegalAction
from engine.events import Event
from engine.maps import fold
from engine.variants import available_variants

log = logging.getLogger(__name__)

FAR_FUTURE = 4_000_000_000.0  # due time of marker "timers" that never fire (year 2096)
ABSENT_LIMIT = 3  # turns in a row played by the AI before it keeps the seat
# Timer kinds. reminder/limit fire; absent/paused/stand_in are stored markers (never due).
REMINDER, LIMIT, ABSENT, PAUSED, STAND_IN = "reminder", "limit", "absent", "paused", "stand_in"
GAME_TITLE_RE = re.compile(r"#([0-9]{1,15})")
GAME_NUMBER_RE = re.compile(r"[0-9]{1,15}")
MAX_GAME_CHARS = 100  # the `game` option: an autocomplete value or a typed number
PANEL_TYPES = {"draw_card": "Draw", "claim_route": "Claim", "draw_tickets": "Tickets",
               "build_station": "Station", "keep_tickets": "Choose tickets"}
# Actions that happen at once from a panel; everything else asks for a Confirm first.
NO_CONFIRM = {"draw_card"}
MAX_REFUSAL_CHARS = 400
MAX_REMEMBERED = 5000  # games whose turn post / DM notice this process remembers (LRU)


class Refusal(Exception):
    """A request we turn down: the message is one sentence for the user, sent privately."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def refusal_text(exc: BaseException) -> str:
    """One sentence for the user: the refusal's own words (never longer than a chat line can
    reasonably be), or a generic apology for a bug (whose details go to the log only)."""
    if isinstance(exc, Refusal | IllegalAction | ServiceError):
        return _cut(exc.message, MAX_REFUSAL_CHARS)
    return "Something went wrong on my side; it has been logged — please try again."


@dataclass
class TurnPost:
    thread_id: int
    message_id: int


class Desk:
    def __init__(self, service: GameService, client: discord.Client, *, renderer: Renderer | None = None,
                 clock: Callable[[], float] = time.time, default_turn_hours: float = 48.0) -> None:
        self.service = service
        self.client = client
        self.renderer = renderer or Renderer()
        self.clock = clock
        self.default_turn_hours = default_turn_hours
        self._posts: OrderedDict[int, TurnPost] = OrderedDict()  # game → its current turn post (LRU)
        # A lock lives while someone holds or waits for it, so the dict does not grow for ever.
        self._pub_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._dm_warned: OrderedDict[tuple[int, int], None] = OrderedDict()  # (game, user) told once (LRU)
        self.timers_changed = asyncio.Event()  # pokes the timer loop
        self.answered: list[float] = []  # seconds from interaction creation to first answer (metrics)
        self.busy = 0  # handlers running now (tests wait for 0 before looking at the state)

    # ==========================================================================================
    # Answering
    # ==========================================================================================

    async def say(self, interaction: discord.Interaction, content: str, *, ephemeral: bool = True,
                  view: discord.ui.View | None = None, file: discord.File | None = None) -> None:
        kwargs: dict[str, Any] = {"content": content[:2000], "ephemeral": ephemeral}
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
            self._answered(interaction)

    async def update_panel(self, interaction: discord.Interaction, content: str,
                           view: discord.ui.View | None = None) -> None:
        """Answer a click: replace the ephemeral panel it came from, or open a new ephemeral one
        when the click was on a public post."""
        message = interaction.message
        if message is not None and message.flags.ephemeral and not interaction.response.is_done():
            await interaction.response.edit_message(content=content[:2000], view=view or view_of(),
                                                    attachments=[])
            self._answered(interaction)
        else:
            await self.say(interaction, content, view=view)

    async def refuse(self, interaction: discord.Interaction, exc: BaseException) -> None:
        try:
            await self.say(interaction, "🚫 " + refusal_text(exc))
        except discord.HTTPException:
            log.warning("could not send a refusal", exc_info=True)

    def _answered(self, interaction: discord.Interaction) -> None:
        created = interaction.created_at.timestamp()
        self.answered.append(max(0.0, time.time() - created))
        del self.answered[:-1000]

    async def guard(self, interaction: discord.Interaction, coro: Any) -> None:
        """Run a handler; refusals and errors become one private sentence."""
        self.busy += 1
        try:
            await coro
        except (Refusal, IllegalAction, ServiceError) as exc:
            await self.refuse(interaction, exc)
        except discord.HTTPException:
            log.exception("Discord refused a request while answering an interaction")
        except Exception as exc:
            log.exception("error while handling an interaction")
            await self.refuse(interaction, exc)
        finally:
            self.busy -= 1

    # ==========================================================================================
    # Finding the game
    # ==========================================================================================

    async def resolve_game(self, interaction: discord.Interaction, game: str | None) -> int:
        """The game a command means: its `game` option, else the thread it runs in, else the
        caller's only open game."""
        if game is not None and str(game).strip():
            m = GAME_NUMBER_RE.search(str(game)[:MAX_GAME_CHARS])
            if m is None:
                raise Refusal("Pick a game from the list (its number, like 12).")
            game_id = int(m.group())
            await self.reach(interaction, game_id)
            return game_id
        channel = interaction.channel
        name = getattr(channel, "name", None) or ""
        m = GAME_TITLE_RE.search(name)
        if m is not None and channel is not None:
            try:
                summary = await self.reach(interaction, int(m.group(1)))
            except ServiceError:
                summary = None
            if summary is not None and summary.thread_id == channel.id:
                return summary.game_id
        mine = await self.service.games_of(interaction.user.id)
        if len(mine) == 1:
            return mine[0].game_id
        if not mine:
            raise Refusal("You have no game running; start one with /ttr new, or name a game with the game option.")
        raise Refusal("You are in several games: run this in the game's thread or pick one with the game option.")

    async def reach(self, interaction: discord.Interaction, game_id: int) -> GameSummary:
        """The game if the caller may reach it from here (its own server; from a DM, only their
        own games) — else the same refusal whether or not the game exists elsewhere."""
        try:
            return await self.service.game_for(game_id, guild_id=interaction.guild_id, user_id=interaction.user.id)
        except GameNotFound:
            raise OtherServer(game_id) from None

    # ==========================================================================================
    # Lobby
    # ==========================================================================================

    def lobby_text(self, lobby: Lobby) -> str:
        seats = "\n".join(f"{i + 1}. {'🤖 ' + s.name if s.is_ai else f'<@{s.user_id}>'}"
                          for i, s in enumerate(lobby.seats)) or "(nobody yet)"
        hours = lobby.turn_hours or self.default_turn_hours
        where = f" · thread <#{lobby.thread_id}>" if lobby.thread_id else ""
        head = f"🚂 **Ticket to Ride #{lobby.game_id} · {text.variant_title(lobby.variant)}**{where}"
        opts = " · dice" if lobby.options.get("dice") else ""
        if lobby.status == "lobby":
            state = (f"Host <@{lobby.host_user_id}> · {len(lobby.seats)}/{lobby.seats_wanted} seats · "
                     f"{hours:g} h per turn{opts}")
        elif lobby.status == "cancelled":
            state = "This table was closed."
        else:
            state = "The game has started — play in the thread."
        return f"{head}\n{state}\n{seats}"

    def lobby_view(self, lobby: Lobby) -> discord.ui.View:
        if lobby.status != "lobby":
            return view_of()
        g = lobby.game_id
        full = lobby.full
        return view_of(
            button("Join", ids.make(g, None, "join"), discord.ButtonStyle.success, disabled=full),
            button("Leave", ids.make(g, None, "leave")),
            button("Add AI", ids.make(g, None, "addai", str(len(lobby.seats))), disabled=full),
            button("Start", ids.make(g, None, "start"), discord.ButtonStyle.primary),
            button("Cancel", ids.make(g, None, "cancel"), discord.ButtonStyle.danger),
        )

    async def new_game(self, interaction: discord.Interaction, variant: str, dice: bool, seats: int,
                       turn_hours: float | None) -> None:
        if interaction.guild_id is None or interaction.channel is None:
            raise Refusal("Start a game in a server's text channel, not in a DM.")
        if isinstance(interaction.channel, discord.Thread):
            raise Refusal("Start a new game in a text channel, not inside a thread.")
        variant = (variant or "").strip().lower()
        if variant not in available_variants():
            raise Refusal(f"There is no variant {excerpt(variant, 20)}; choose one of "
                          f"{', '.join(available_variants())}.")
        options = {"dice": True} if dice else {}
        lobby = await self.service.create_lobby(
            interaction.guild_id, interaction.channel.id, interaction.user.id, interaction.user.display_name,
            variant, options, seats_wanted=seats, turn_hours=turn_hours or self.default_turn_hours)
        if not lobby.changed:
            raise Refusal(f"You already have an open table here: game #{lobby.game_id}.")
        await interaction.response.send_message(self.lobby_text(lobby), view=self.lobby_view(lobby))
        self._answered(interaction)
        message = await interaction.original_response()
        try:
            thread = await message.create_thread(name=text.thread_name(lobby.game_id, variant),
                                                 auto_archive_duration=10080)
        except discord.HTTPException:
            log.exception("game %d: could not open a thread", lobby.game_id)
            await interaction.followup.send("I could not open a thread here (I need the Create Public Threads "
                                            "permission); the game cannot be played in this channel.",
                                            ephemeral=True)
            return
        await self.service.set_thread(lobby.game_id, thread.id)
        lobby = await self.service.lobby(lobby.game_id)
        await thread.send(f"Game #{lobby.game_id} lobby: take a seat with **Join** on the message above. "
                          "Everything about the game happens here.")
        await message.edit(content=self.lobby_text(lobby), view=self.lobby_view(lobby))

    async def lobby_action(self, interaction: discord.Interaction, game_id: int, verb: str, arg: str = "",
                           level: str = "greedy", from_button: bool = True) -> None:
        user = interaction.user
        svc = self.service
        if verb == "join":
            lobby = await svc.join(game_id, user.id, user.display_name)
            note = "You are seated." if lobby.changed else "You already have a seat."
        elif verb == "leave":
            lobby = await svc.leave(game_id, user.id)
            note = "You left the table." if lobby.changed else "You were not seated."
        elif verb == "addai":
            if level not in AI_LEVELS:
                raise Refusal(f"There is no AI level {excerpt(level, 20)}; choose {', '.join(AI_LEVELS)}.")
            if arg:
                expected = int(arg) if is_number(arg) else -1
            else:
                expected = len((await svc.lobby(game_id)).seats)
            lobby = await svc.add_ai(game_id, user.id, level, expected)
            note = "A computer player sat down."
        elif verb == "cancel":
            lobby = await svc.cancel_lobby(game_id, user.id)
            note = "The table is closed."
        elif verb == "start":
            result = await svc.start(game_id, user.id)
            lobby = await svc.lobby(game_id)
            await self._lobby_answer(interaction, lobby, "The game has started.", from_button)
            await self.after_move(game_id, result, [], new_turn=True)
            return
        else:
            raise Refusal("That button is not one I know.")
        await self._lobby_answer(interaction, lobby, note, from_button)

    async def _lobby_answer(self, interaction: discord.Interaction, lobby: Lobby, note: str,
                            from_button: bool) -> None:
        if from_button and interaction.message is not None and not interaction.message.flags.ephemeral:
            await interaction.response.edit_message(content=self.lobby_text(lobby), view=self.lobby_view(lobby))
            self._answered(interaction)
            return
        await self.say(interaction, note)
        await self._refresh_lobby_message(lobby)

    async def _refresh_lobby_message(self, lobby: Lobby) -> None:
        """After a /ttr join etc., update the lobby post if we can find it (the thread's starter
        message has the thread's id)."""
        if lobby.thread_id is None:
            return
        try:
            channel = self.client.get_partial_messageable(lobby.channel_id)
            await channel.get_partial_message(lobby.thread_id).edit(content=self.lobby_text(lobby),
                                                                    view=self.lobby_view(lobby))
        except discord.HTTPException:
            log.debug("game %d: lobby message not updated", lobby.game_id)

    # ==========================================================================================
    # Checks
    # ==========================================================================================

    async def check_turn(self, game_id: int, user_id: int, seq: int | None) -> tuple[int, Any]:
        """The caller's seat, if the game waits for them (and `seq` is current); else a refusal."""
        summary = await self.service.game(game_id, user_id)
        if summary.status == "lobby":
            raise Refusal(f"Game #{game_id} has not started yet.")
        if summary.status in ("over", "cancelled", "broken"):
            raise Refusal(f"Game #{game_id} is {'over' if summary.status == 'over' else 'closed'}.")
        if summary.your_seat is None:
            raise Refusal(f"You are not playing in game #{game_id}.")
        if seq is not None and seq != summary.seq:
            raise Refusal("That already happened: the game has moved on since this was posted.")
        await self._came_back(game_id, summary.your_seat)
        if summary.your_seat not in summary.waiting_for:
            who = ", ".join(s.name for s in summary.seats if s.seat in summary.waiting_for) or "nobody"
            raise Refusal(f"It's not your turn in game #{game_id}; it is waiting for {who}.")
        return summary.your_seat, summary

    async def legal(self, game_id: int, user_id: int) -> list[Action]:
        return await self.service.legal_actions(game_id, user_id)

    # ==========================================================================================
    # Components
    # ==========================================================================================

    async def on_component(self, interaction: discord.Interaction, cid: ids.Cid, values: list[str]) -> None:
        await self.guard(interaction, self._component(interaction, cid, values))

    async def _component(self, interaction: discord.Interaction, cid: ids.Cid, values: list[str]) -> None:
        g, verb, arg = cid.game, cid.verb, cid.arg
        user = interaction.user.id
        await self.reach(interaction, g)  # a button names its game: it must be this server's
        if verb in ("join", "leave", "addai", "start", "cancel"):
            return await self.lobby_action(interaction, g, verb, arg)
        if verb == "hand":
            return await self.show_hand(interaction, g)
        if verb == "nope":
            return await self.update_panel(interaction, "Cancelled — nothing was done.")
        if verb == "kt":
            return await self.keep_panel(interaction, g)
        if verb == "ksel":
            return await self.keep_confirm(interaction, g, values)
        if verb == "kdo":
            return await self.keep_submit(interaction, g, arg)
        if cid.seq is None:
            raise Refusal("That button is not one I know.")
        seq = cid.seq
        await self.check_turn(g, user, seq)
        legal = await self.legal(g, user)
        if verb == "draw":
            return await self.draw_panel(interaction, g, seq, legal)
        if verb == "claim":
            return await self.group_panel(interaction, g, seq, legal, "claim_route", 0)
        if verb == "stn":
            return await self.group_panel(interaction, g, seq, legal, "build_station", 0)
        if verb == "tix":
            return await self.choose_or_confirm(interaction, g, seq, legal, [a for a in legal
                                                                             if a.TYPE == "draw_tickets"])
        if verb == "xt":
            return await self.choose_or_confirm(interaction, g, seq, legal, [a for a in legal if arg == a.TYPE])
        if verb == "grp":
            kind, _, page = arg.partition(".")
            return await self.group_panel(interaction, g, seq, legal, kind, int(page) if is_number(page) else 0)
        if verb == "gsel":
            key = values[0] if values else ""
            chosen = [a for a in legal if arg == a.TYPE and _group_key(a) == key]
            return await self.choose_or_confirm(interaction, g, seq, legal, chosen)
        if verb == "asel":
            arg = values[0] if values else ""
            verb = "ask"
        if verb in ("ask", "do"):
            action = _pick(legal, arg)
            if verb == "ask" and action.TYPE not in NO_CONFIRM:
                return await self.confirm_panel(interaction, g, seq, legal, action)
            return await self.submit_from_panel(interaction, g, seq, action)
        raise Refusal("That button is not one I know.")

    # --- panels -------------------------------------------------------------------------------

    async def draw_panel(self, interaction: discord.Interaction, g: int, seq: int, legal: list[Action],
                         note: str = "") -> None:
        draws = [a for a in legal if a.TYPE == "draw_card"]
        if not draws:
            raise Refusal("You cannot draw a card now.")
        view = await self.service.view(g, None)
        buttons = []
        for a in draws:
            slot = a.to_json().get("slot")
            label = "Deck (blind)" if slot is None else f"{slot + 1}: {text.card_word(view['display'][slot])}"
            emoji = None if slot is None else text.CARD_EMOJI.get(view["display"][slot])
            buttons.append(button(label, ids.make(g, seq, "do", _token(legal, a)), discord.ButtonStyle.primary,
                                  emoji=emoji))
        head = (note + "\n" if note else "") + "Which card?"
        await self.update_panel(interaction, head, view_of(*buttons[:25]))

    async def group_panel(self, interaction: discord.Interaction, g: int, seq: int, legal: list[Action],
                          kind: str, page: int) -> None:
        chosen = [a for a in legal if kind == a.TYPE]
        if not chosen:
            raise Refusal(f"You cannot {PANEL_TYPES.get(kind, kind).lower()} now.")
        view = await self.service.view(g, None)
        gmap = text.game_map(view)
        groups: dict[str, list[Action]] = {}
        for a in chosen:
            groups.setdefault(_group_key(a), []).append(a)
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
        await self.update_panel(interaction, f"{len(keys)} choice(s). You can also type "
                                f"`/ttr {'claim' if kind == 'claim_route' else 'station'}` with autocomplete.",
                                view_of(*items))

    async def choose_or_confirm(self, interaction: discord.Interaction, g: int, seq: int, legal: list[Action],
                                chosen: list[Action]) -> None:
        if not chosen:
            raise Refusal("That is not something you can do now.")
        if len(chosen) == 1:
            return await self.confirm_panel(interaction, g, seq, legal, chosen[0])
        view = await self.service.view(g, interaction.user.id)
        gmap = text.game_map(view)
        options = [(text.describe_action(a, view, gmap)[:100], _token(legal, a), None) for a in chosen[:MAX_OPTIONS]]
        more = ("" if len(chosen) <= MAX_OPTIONS
                else f" (showing {MAX_OPTIONS} of {len(chosen)}; type the command for the rest)")
        await self.update_panel(interaction, "Choose one" + more + ":",
                                view_of(select(ids.make(g, seq, "asel"), options, "Choose…")))

    async def confirm_panel(self, interaction: discord.Interaction, g: int, seq: int, legal: list[Action],
                            action: Action) -> None:
        view = await self.service.view(g, interaction.user.id)
        what = text.describe_action(action, view)
        tok = _token(legal, action)
        await self.update_panel(interaction, f"**Confirm:** {what}?",
                                view_of(button("Confirm", ids.make(g, seq, "do", tok), discord.ButtonStyle.success),
                                        button("Cancel", ids.make(g, seq, "nope"))))

    async def keep_panel(self, interaction: discord.Interaction, g: int) -> None:
        seat, _ = await self.check_turn(g, interaction.user.id, None)
        offer = await self._offer(g, interaction.user.id, seat)
        legal = [a for a in await self.legal(g, interaction.user.id) if a.TYPE == "keep_tickets"]
        if not legal or not offer:
            raise Refusal("You have no tickets to choose right now.")
        least = min(len(a.to_json()["keep"]) for a in legal)
        view = await self.service.view(g, interaction.user.id)
        gmap = text.game_map(view)
        options = [(text.ticket_label(gmap, t), t, None) for t in offer]
        await self.update_panel(interaction, f"Keep at least {least} of these tickets:",
                                view_of(select(ids.make(g, None, "ksel"), options, "Tickets to keep",
                                               min_values=least, max_values=len(offer))))

    async def keep_confirm(self, interaction: discord.Interaction, g: int, values: list[str]) -> None:
        seat, _ = await self.check_turn(g, interaction.user.id, None)
        offer = await self._offer(g, interaction.user.id, seat)
        if not offer:
            raise Refusal("That already happened: you have no tickets to choose now.")
        mask = sum(1 << i for i, t in enumerate(offer) if t in set(values))
        view = await self.service.view(g, interaction.user.id)
        gmap = text.game_map(view)
        kept = ", ".join(text.ticket_label(gmap, t) for t in offer if t in set(values)) or "nothing"
        await self.update_panel(interaction, f"**Confirm:** keep {kept}?",
                                view_of(button("Confirm", ids.make(g, None, "kdo", str(mask)),
                                               discord.ButtonStyle.success),
                                        button("Cancel", ids.make(g, None, "nope"))))

    async def keep_submit(self, interaction: discord.Interaction, g: int, arg: str) -> None:
        seat, summary = await self.check_turn(g, interaction.user.id, None)
        offer = await self._offer(g, interaction.user.id, seat)
        if not offer or not is_number(arg):
            raise Refusal("That already happened: you have no tickets to choose now.")
        mask = int(arg)
        keep = {t for i, t in enumerate(offer) if mask >> i & 1}
        legal = [a for a in await self.legal(g, interaction.user.id) if a.TYPE == "keep_tickets"]
        match = [a for a in legal if set(a.to_json()["keep"]) == keep]
        if not match:
            raise Refusal("You must keep more tickets than that.")
        await self.submit_from_panel(interaction, g, summary.seq, match[0])

    async def _offer(self, g: int, user_id: int, seat: int) -> list[str]:
        view = await self.service.view(g, user_id)
        offers = (view.get("pending") or {}).get("offers")
        if not isinstance(offers, list) or seat >= len(offers):
            return []
        mine = offers[seat]
        if isinstance(mine, dict):
            return [t for v in mine.values() for t in v]
        return list(mine) if isinstance(mine, list) else []

    # --- moving -------------------------------------------------------------------------------

    async def submit(self, g: int, user_id: int, action: Action, seq: int) -> SubmitResult:
        try:
            return await self.service.submit(g, Actor.user(user_id), action, seq)
        except StaleAction:
            raise Refusal("That already happened: the game has moved on.") from None

    async def submit_from_panel(self, interaction: discord.Interaction, g: int, seq: int, action: Action) -> None:
        """Make the move, answer the mover privately (with what comes next for them), then post
        the public result."""
        result = await self.submit(g, interaction.user.id, action, seq)
        view = result.view(result.actor)
        me = result.actor
        lines = ["✅ Done." if action.TYPE == "draw_card" else f"✅ You chose to {text.describe_action(action, view)}."]
        lines += text.private_lines(result.private_events.get(me, ()), view) if me is not None else []
        follow: discord.ui.View | None = None
        if me in result.waiting_for and not result.ended:
            legal = await self.legal(g, interaction.user.id)
            kinds = {a.TYPE for a in legal}
            if kinds == {"draw_card"}:
                lines.append("Take your second card:")
                follow = self._draw_buttons(g, result.seq, legal, view)
            elif "keep_tickets" in kinds:
                lines.append("Now choose which tickets to keep:")
                follow = view_of(button("Choose tickets", ids.make(g, None, "kt"), discord.ButtonStyle.primary))
            elif kinds:
                follow = self.action_buttons(g, result.seq, legal)
        await self.update_panel(interaction, "\n".join(lines), follow)
        await self.after_move(g, result, list(result.public_events), mover_private=(me, interaction.user.id))

    def _draw_buttons(self, g: int, seq: int, legal: list[Action], view: Mapping[str, Any]) -> discord.ui.View:
        out = []
        for a in legal:
            if a.TYPE != "draw_card":
                continue
            slot = a.to_json().get("slot")
            label = "Deck (blind)" if slot is None else f"{slot + 1}: {text.card_word(view['display'][slot])}"
            out.append(button(label, ids.make(g, seq, "do", _token(legal, a)), discord.ButtonStyle.primary))
        return view_of(*out[:25])

    def action_buttons(self, g: int, seq: int, legal: Sequence[Action]) -> discord.ui.View:
        """The buttons of a turn post (or panel) for the legal moves, plus My hand."""
        kinds = []
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

    # ==========================================================================================
    # After a move: the AIs, the thread post, DMs, timers
    # ==========================================================================================

    def _pub_lock(self, g: int) -> asyncio.Lock:
        lock = self._pub_locks.get(g)
        if lock is None:
            lock = self._pub_locks[g] = asyncio.Lock()
        return lock

    async def after_move(self, g: int, result: SubmitResult, events: list[Event], *, new_turn: bool = False,
                         mover_private: tuple[int | None, int] | None = None, note: str = "") -> None:
        """Let computer players (and absent players' stand-ins) move, then post the result."""
        async with self._pub_lock(g):
            events = list(events)
            new_turn = new_turn or _turn_began(events)
            # AI seats, and human seats the AI keeps for now.
            for _ in range(5000):
                if result.ended:
                    break
                step = await self.service.play_ai(g, result.seq)
                if step is not None:
                    result = step
                    events += step.public_events
                    new_turn = new_turn or _turn_began(step.public_events)
                    continue
                absent = await self._absent_seats(g)
                seat = next((s for s in result.waiting_for if absent.get(s, 0) >= ABSENT_LIMIT), None)
                if seat is None:
                    break
                step = await self.stand_in(g, seat, None)
                if step is None:
                    break
                result, more = step
                events += more
                new_turn = True
            await self.publish(g, result, events, new_turn=new_turn, note=note)
        if mover_private is not None:
            seat, user_id = mover_private
            if seat is not None and result.private_events.get(seat) and not result.ended:
                await self.dm_hand(g, user_id, picture=False,
                                   intro="\n".join(text.private_lines(result.private_events[seat],
                                                                      await self.service.view(g, user_id))))

    async def stand_in(self, g: int, seat: int, timer_id: int | None) -> tuple[SubmitResult, list[Event]] | None:
        """The AI plays one whole turn for an absent human seat. The first move may fire the
        turn-limit timer `timer_id` (exactly once, in the move's own transaction); the others
        are tied to a stand-in marker timer so the service accepts a bot move for a human seat."""
        summary = await self.service.game(g)
        user_id = summary.seats[seat].user_id
        if user_id is None:
            return None
        events: list[Event] = []
        result: SubmitResult | None = None
        ai = make_ai("greedy", secrets.randbits(32))
        for _ in range(50):
            view = await self.service.view(g, user_id)
            legal = await self.service.legal_actions(g, user_id)
            if not legal:
                break
            tid = timer_id
            if tid is None:
                tid = (await self.service.schedule_timer(g, STAND_IN, FAR_FUTURE, seat=seat)).id
            timer_id = None
            result = await self.service.submit(g, Actor.bot(seat), ai.choose(view, legal), view["seq"], timer_id=tid)
            events += result.public_events
            if result.ended or seat not in result.waiting_for or _turn_began(result.public_events):
                break
        return (result, events) if result is not None else None

    async def publish(self, g: int, result: SubmitResult, events: list[Event], *, new_turn: bool,
                      note: str = "") -> None:
        summary = await self.service.game(g)
        if summary.thread_id is None:
            return
        view = result.view(None)
        thread = self.client.get_partial_messageable(summary.thread_id, type=discord.ChannelType.public_thread)
        gmap = text.game_map(view)
        last = text.summarize(events, view)
        routes, cities = text.highlights(events)
        routes = tuple(r for r in routes if r in gmap.routes)
        board = await self.renderer.board(view, routes, cities)
        head = (f"**Game #{g} · {text.variant_title(view['variant'])}** — turn {view.get('turn', 0) + 1} · "
                f"move {result.seq}")
        if result.ended:
            scores = await self.renderer.scores(view)
            content = "\n".join(x for x in (head, note, f"Last: {last}" if last else "", text.final_text(view)) if x)
            await thread.send(content[:2000], files=[discord.File(io.BytesIO(board), "board.png"),
                                                     discord.File(io.BytesIO(scores), "scores.png")])
            self._posts.pop(g, None)
            return
        mentions = {s.seat: f"<@{s.user_id}>" for s in summary.seats if s.user_id is not None}
        waiting = list(result.waiting_for)
        content = "\n".join(x for x in (head, note, f"Last: {_cut(last, 700)}" if last else "",
                                        text.status_block(view), text.waiting_line(view, waiting, mentions)) if x)
        humans = [s for s in summary.seats if s.seat in waiting and s.user_id is not None]
        buttons = self.action_buttons(g, result.seq, await self.legal(g, humans[0].user_id)) \
            if len(humans) == 1 else view_of(
                button("Choose tickets", ids.make(g, None, "kt"), discord.ButtonStyle.primary, "🎫"),
                button("My hand", ids.make(g, None, "hand"), discord.ButtonStyle.secondary, "✋"))
        file = discord.File(io.BytesIO(board), "board.png")
        post = self._posts.get(g)
        if new_turn or post is None:
            message = await thread.send(content[:2000], file=file, view=buttons)
            _remember(self._posts, g, TurnPost(summary.thread_id, message.id))
        else:
            try:
                await thread.get_partial_message(post.message_id).edit(content=content[:2000], attachments=[file],
                                                                       view=buttons)
            except discord.NotFound:
                message = await thread.send(content[:2000], file=file, view=buttons)
                _remember(self._posts, g, TurnPost(summary.thread_id, message.id))
        if new_turn:
            for s in humans:
                await self.dm_hand(g, s.user_id, picture=True, intro=f"It's your turn in game #{g}.")
            await self.schedule_turn_timers(g, view, [s.seat for s in humans])

    # --- private hands ------------------------------------------------------------------------

    async def dm_hand(self, g: int, user_id: int, *, picture: bool, intro: str = "") -> None:
        view = await self.service.view(g, user_id)
        if view.get("you") is None:
            return
        content = "\n".join(x for x in (intro, text.hand_text(view, g)) if x)
        files = [discord.File(io.BytesIO(await self.renderer.hand(view)), "hand.png")] if picture else []
        try:
            user = self.client.get_user(user_id) or await self.client.fetch_user(user_id)
            await user.send(content[:2000], files=files)
        except discord.Forbidden as exc:
            if exc.code != 50007:
                log.warning("game %d: DM refused (%s)", g, exc.code)
            await self._dm_failed(g, user_id)
        except discord.HTTPException:
            log.warning("game %d: DM failed", g, exc_info=True)
            await self._dm_failed(g, user_id)

    async def _dm_failed(self, g: int, user_id: int) -> None:
        if (g, user_id) in self._dm_warned:
            return
        _remember(self._dm_warned, (g, user_id), None)
        summary = await self.service.game(g)
        if summary.thread_id is None:
            return
        thread = self.client.get_partial_messageable(summary.thread_id, type=discord.ChannelType.public_thread)
        await thread.send(f"<@{user_id}>, I can't send you direct messages, so your hand stays here: press "
                          "**My hand** (only you will see it) or use `/ttr hand`.",
                          view=view_of(button("My hand", ids.make(g, None, "hand"), emoji="✋")))

    async def show_hand(self, interaction: discord.Interaction, g: int) -> None:
        summary = await self.service.game(g, interaction.user.id)
        if summary.your_seat is None:
            raise Refusal(f"You are not playing in game #{g}.")
        if summary.status not in ("setup", "playing", "over"):
            raise Refusal(f"Game #{g} has not started yet.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        self._answered(interaction)
        await self._came_back(g, summary.your_seat)
        view = await self.service.view(g, interaction.user.id)
        png = await self.renderer.hand(view)
        await interaction.followup.send(text.hand_text(view, g), file=discord.File(io.BytesIO(png), "hand.png"),
                                        ephemeral=True)

    # ==========================================================================================
    # Timers
    # ==========================================================================================

    async def _markers(self, g: int) -> list[Any]:
        return [t for t in await self.service.pending_timers(g) if t.kind in (ABSENT, PAUSED)]

    async def _absent_seats(self, g: int) -> dict[int, int]:
        return {t.seat: int(t.payload.get("misses", 0)) for t in await self._markers(g)
                if t.kind == ABSENT and t.seat is not None}

    async def is_paused(self, g: int) -> bool:
        return any(t.kind == PAUSED for t in await self._markers(g))

    async def _came_back(self, g: int, seat: int) -> None:
        """Any game command by a player resets their count of turns played by the AI."""
        if (await self._absent_seats(g)).get(seat):
            await self.service.schedule_timer(g, ABSENT, FAR_FUTURE, seat=seat, payload={"misses": 0})

    async def schedule_turn_timers(self, g: int, view: Mapping[str, Any], seats: Iterable[int]) -> None:
        summary = await self.service.game(g)
        hours = summary.turn_hours or self.default_turn_hours
        if hours <= 0 or await self.is_paused(g):
            return
        now = self.clock()
        key = _turn_key(view)
        for seat in seats:
            await self.service.schedule_timer(g, REMINDER, now + hours * 1800, seat=seat, payload=key)
            await self.service.schedule_timer(g, LIMIT, now + hours * 3600, seat=seat, payload=key)
        self.timers_changed.set()

    async def fire_timer(self, timer: Any) -> None:
        """One due timer. Reminders are claimed before they are sent; a turn limit is claimed by
        the stand-in's first move (same transaction), so each acts exactly once."""
        g = timer.game_id
        try:
            summary = await self.service.game(g)
        except GameNotFound:
            await self.service.mark_timer_fired(timer.id)
            return
        current = None
        if summary.status in ("setup", "playing") and timer.seat in summary.waiting_for:
            view = await self.service.view(g, None)
            current = _turn_key(view) == dict(timer.payload)
        if not current or timer.kind not in (REMINDER, LIMIT):
            await self.service.mark_timer_fired(timer.id)
            return
        seat = summary.seats[timer.seat]
        thread = (self.client.get_partial_messageable(summary.thread_id, type=discord.ChannelType.public_thread)
                  if summary.thread_id else None)
        if timer.kind == REMINDER:
            if not await self.service.mark_timer_fired(timer.id):
                return
            hours = (summary.turn_hours or self.default_turn_hours) / 2
            if thread is not None and seat.user_id is not None:
                await thread.send(f"⏰ <@{seat.user_id}>, game #{g} is waiting for you — about {hours:g} h left "
                                  "before the AI plays this turn for you.")
            return
        # LIMIT
        async with self._pub_lock(g):
            try:
                step = await self.stand_in(g, timer.seat, timer.id)
            except (StaleAction, ServiceError, IllegalAction):
                await self.service.mark_timer_fired(timer.id)
                return
            if step is None:
                await self.service.mark_timer_fired(timer.id)
                return
            result, events = step
            misses = (await self._absent_seats(g)).get(timer.seat, 0) + 1
            await self.service.schedule_timer(g, ABSENT, FAR_FUTURE, seat=timer.seat, payload={"misses": misses})
        keeps = misses >= ABSENT_LIMIT
        note = (f"⏰ Time ran out for **{seat.name}**: the AI played their turn"
                + (f" — and keeps the seat until they come back with any game command ({misses} turns in a row)."
                   if keeps else "."))
        await self.after_move(g, result, events, new_turn=True, note=note)

    async def pause(self, g: int) -> None:
        await self.service.cancel_timers(g, REMINDER)
        await self.service.cancel_timers(g, LIMIT)
        await self.service.schedule_timer(g, PAUSED, FAR_FUTURE)

    async def resume(self, g: int) -> None:
        await self.service.cancel_timers(g, PAUSED)
        summary = await self.service.game(g)
        view = await self.service.view(g, None)
        humans = [s.seat for s in summary.seats if s.seat in summary.waiting_for and s.user_id is not None]
        await self.schedule_turn_timers(g, view, humans)

    async def kick(self, g: int, seat: int) -> None:
        await self.service.schedule_timer(g, ABSENT, FAR_FUTURE, seat=seat, payload={"misses": ABSENT_LIMIT})
        summary = await self.service.game(g)
        if seat in summary.waiting_for:
            async with self._pub_lock(g):
                step = await self.stand_in(g, seat, None)
            if step is not None:
                result, events = step
                await self.after_move(g, result, events, new_turn=True,
                                      note=f"🤖 The AI now plays for **{summary.seats[seat].name}**.")

    async def resume_all(self) -> None:
        """After a restart: let any AI that was interrupted mid-turn finish (nothing else is
        replayed; timers live in the database)."""
        for g in await self.service.active_game_ids():
            try:
                summary = await self.service.game(g)
                if any(s.is_ai and s.seat in summary.waiting_for for s in summary.seats):
                    step = await self.service.play_ai(g, summary.seq)
                    if step is not None:
                        await self.after_move(g, step, list(step.public_events))
            except Exception:
                log.exception("game %d: could not resume", g)

    # ==========================================================================================
    # Slash-command moves
    # ==========================================================================================

    async def command_move(self, interaction: discord.Interaction, game: str | None, kind: str,
                           match: Callable[[Action], bool] | None = None, *, confirm: bool = True,
                           what: str = "") -> None:
        """A move typed as a command: find the legal actions of `kind` that fit the options;
        one → confirm (or play it at once), several → a private menu, none → why not."""
        g = await self.resolve_game(interaction, game)
        _, summary = await self.check_turn(g, interaction.user.id, None)
        legal = await self.legal(g, interaction.user.id)
        of_kind = [a for a in legal if _kind_matches(a.TYPE, kind)]
        if not of_kind:
            raise Refusal(f"You cannot {what or kind.replace('_', ' ')} now.")
        chosen = [a for a in of_kind if match is None or match(a)]
        if not chosen:
            raise Refusal(f"That {what or kind.replace('_', ' ')} is not possible now; pick one from the list.")
        if len(chosen) == 1 and not confirm:
            return await self.submit_from_panel(interaction, g, summary.seq, chosen[0])
        await self.choose_or_confirm(interaction, g, summary.seq, legal, chosen)

    # ==========================================================================================
    # Autocomplete
    # ==========================================================================================

    async def ac_games(self, interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
        out = []
        for s in await self.service.games_of(interaction.user.id, interaction.guild_id):
            waiting = ", ".join(x.name for x in s.seats if x.seat in s.waiting_for)
            state = "lobby" if s.status == "lobby" else ("your turn" if s.your_turn else f"waiting for {waiting}")
            label = f"#{s.game_id} · {text.variant_title(s.variant)} · {state}"
            if fold(current) in fold(label):
                out.append((label[:100], str(s.game_id)))
        return out[:MAX_OPTIONS]

    async def _ac_context(self, interaction: discord.Interaction) -> tuple[int, list[Action], dict[str, Any]] | None:
        try:
            g = await self.resolve_game(interaction, getattr(interaction.namespace, "game", None))
            legal = await self.legal(g, interaction.user.id)
            view = await self.service.view(g, None)
        except (Refusal, ServiceError, IllegalAction):
            return None
        return g, legal, view

    async def ac_routes(self, interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
        ctx = await self._ac_context(interaction)
        if ctx is None:
            return []
        _, legal, view = ctx
        gmap = text.game_map(view)
        rids = list(dict.fromkeys(a.to_json()["route"] for a in legal if a.TYPE == "claim_route"))
        if not rids:  # not your turn: show the open routes anyway
            rids = [r for r in gmap.routes if r not in view.get("route_owner", {})]
        return _filter([(text.route_label(gmap, r), r) for r in rids], current)

    async def ac_cities(self, interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
        ctx = await self._ac_context(interaction)
        if ctx is None:
            return []
        _, legal, view = ctx
        gmap = text.game_map(view)
        cids = list(dict.fromkeys(a.to_json()["city"] for a in legal if a.TYPE == "build_station"))
        if not cids:
            cids = [c for c, city in gmap.cities.items() if not city.is_country]
        return _filter([(text.city_label(gmap, c), c) for c in cids], current)

    async def ac_payments(self, interaction: discord.Interaction, current: str, kind: str) -> list[tuple[str, str]]:
        ctx = await self._ac_context(interaction)
        if ctx is None:
            return []
        _, legal, view = ctx
        gmap = text.game_map(view)
        ns = interaction.namespace
        target = getattr(ns, "route", None) if kind == "claim_route" else getattr(ns, "city", None)
        key = _find_key(gmap, kind, target)
        out = []
        for a in legal:
            if kind == a.TYPE and (key is None or _group_key(a) == key):
                pay = dict(a.to_json().get("payment", {}))
                out.append((describe(pay), payment_code(pay)))
        return _filter(list(dict.fromkeys(out)), current)

    async def ac_draw(self, interaction: discord.Interaction, current: str) -> list[tuple[str, str]]:
        ctx = await self._ac_context(interaction)
        if ctx is None:
            return [("deck", "deck")]
        _, legal, view = ctx
        out = []
        for a in legal:
            if a.TYPE == "draw_card":
                slot = a.to_json().get("slot")
                out.append(("Deck (blind)", "deck") if slot is None else
                           (f"Slot {slot + 1}: {text.card_word(view['display'][slot])}", str(slot + 1)))
        return _filter(out or [("Deck (blind)", "deck")], current)

    async def ac_generic(self, interaction: discord.Interaction, current: str, kind: str,
                         field: str) -> list[tuple[str, str]]:
        ctx = await self._ac_context(interaction)
        if ctx is None:
            return []
        _, legal, view = ctx
        out = []
        for a in legal:
            if _kind_matches(a.TYPE, kind):
                data = a.to_json()
                if field in data:
                    value = _field_text(data[field])
                    out.append((value[:100], value[:100]))
        return _filter(list(dict.fromkeys(out)), current)


# --- helpers ----------------------------------------------------------------------------------


def _turn_began(events: Iterable[Event]) -> bool:
    return any(e.kind in ("turn_started", "game_started") for e in events)


def _turn_key(view: Mapping[str, Any]) -> dict[str, Any]:
    pending = view.get("pending") or {}
    return {"turn": view.get("turn", 0), "setup": bool(pending.get("setup"))}


def _remember(cache: OrderedDict[Any, Any], key: Any, value: Any) -> None:
    """Put `key` in a bounded LRU dict, forgetting the least recently used beyond MAX_REMEMBERED."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > MAX_REMEMBERED:
        cache.popitem(last=False)


def _cut(s: str, n: int) -> str:
    return s if len(s) <= n else s[: n - 1] + "…"


def _token(legal: Sequence[Action], action: Action) -> str:
    """A legal action as `<index>.<type>`: its place in `legal_actions` at this seq (the same
    list after a restart: the state and the rules are the same)."""
    return f"{legal.index(action)}.{action.TYPE}"


def _pick(legal: Sequence[Action], token: str) -> Action:
    idx, _, kind = token.partition(".")
    if not is_number(idx) or int(idx) >= len(legal) or kind != legal[int(idx)].TYPE:
        raise Refusal("That choice is no longer available.")
    return legal[int(idx)]


def _group_key(a: Action) -> str:
    data = a.to_json()
    return str(data.get("route") or data.get("city") or "")


def _group_label(gmap: Any, kind: str, key: str) -> str:
    if kind == "claim_route":
        return text.route_label(gmap, key)
    if kind == "build_station":
        return text.city_label(gmap, key)
    return key or kind


def _group_sort(gmap: Any, kind: str, key: str) -> tuple[Any, ...]:
    if kind == "claim_route" and key in gmap.routes:
        return (-gmap.routes[key].length, text.route_label(gmap, key))
    return (0, _group_label(gmap, kind, key))


def _find_key(gmap: Any, kind: str, target: Any) -> str | None:
    if not isinstance(target, str) or not target.strip():
        return None
    if kind == "claim_route":
        if target in gmap.routes:
            return target
        r = gmap.find_route(target)
        return r.id if r is not None else "?"
    c = gmap.find_city(target)
    return c.id if c is not None else "?"


def payment_code(payment: Mapping[str, int]) -> str:
    """A payment as an option value: "loco1.red3"."""
    return ".".join(f"{k}{v}" for k, v in sorted(payment.items()))


def parse_payment(code: str | None) -> dict[str, int] | None:
    if code is None or not code.strip():
        return None
    out: dict[str, int] = {}
    for part in code.strip().split("."):
        m = re.fullmatch(r"([a-z]+)(\d{1,2})", part.strip())
        if m is None:
            return {"?": 1}
        out[m.group(1)] = out.get(m.group(1), 0) + int(m.group(2))
    return out


def _kind_matches(action_type: str, kind: str) -> bool:
    if action_type == kind:
        return True
    return kind in ("controller", "burn", "roll", "call_time") and kind in action_type


def _field_text(value: Any) -> str:
    if isinstance(value, dict):
        return payment_code(value)
    if isinstance(value, list | tuple):
        return ",".join(_field_text(v) for v in value)
    return str(value)


def _filter(pairs: list[tuple[str, str]], current: str) -> list[tuple[str, str]]:
    key = fold(current or "")
    hits = [(n, v) for n, v in pairs if not key or key in fold(n) or key in fold(v)]
    return [(n[:100], v[:100]) for n, v in hits][:MAX_OPTIONS]

