"""The turn post (and the final post) as one layout (issue 27, item 6): Discord's components
v2, through discord.py's `LayoutView` — one container holding the post's text (the summary line,
the log, the table, whose turn), its pictures as a media gallery whose items carry the board's
description for screen readers, and the action buttons in action rows.

A post that cannot be one degrades to today's form (text, attachments, buttons): when its text
is over what a layout holds (4,000 characters) or it has more than 40 components; when Discord
refuses the layout (Invalid Form Body: the form falls back once, with the same nonce); and when
the post is an edit of a message that is not a layout (an old-style post from before), which
keeps its form — Discord does not turn a message into a layout or back, so an edit tries the
message's own form first, and the other only if Discord refuses that.

Nothing here reads the game: the layout is built from the `Message` that posts.py built from
stored public state at delivery time, so it shows exactly what the old form shows.
"""

from __future__ import annotations

from typing import Any

import discord

from bot_app.presentation.answers import cut
from bot_app.presentation.board_alt import MAX_ITEM_DESCRIPTION
from bot_app.presentation.posts import Message

MAX_LAYOUT_TEXT = 4000  # Discord's limit for all text displays of a message together
MAX_COMPONENTS = 40  # every component of a layout message, nested ones included
MAX_GALLERY_ITEMS = 10
INVALID_FORM = 50035


def layout_of(message: Message) -> discord.ui.LayoutView | None:
    """The message as one container, or None when it does not fit in one."""
    texts = [message.content, *message.more]
    if sum(len(t) for t in texts) + len(texts) > MAX_LAYOUT_TEXT or len(message.files) > MAX_GALLERY_ITEMS:
        return None
    container: discord.ui.Container[Any] = discord.ui.Container()
    for words in texts:
        if words:
            container.add_item(discord.ui.TextDisplay(words))
    if message.files:
        container.add_item(discord.ui.MediaGallery(*[
            discord.MediaGalleryItem(f"attachment://{name}", description=_brief(message, name))
            for name, _ in message.files]))
    rows = _rows(message.view)
    if rows:
        container.add_item(discord.ui.Separator())
        for row in rows:
            container.add_item(row)
    view = discord.ui.LayoutView(timeout=None)
    try:
        view.add_item(container)
    except ValueError:  # over 40 components
        return None
    if _count(view.to_components()) > MAX_COMPONENTS:
        return None
    view.stop()  # sent as components, never kept in memory: the DynamicItems handle clicks
    return view


def _brief(message: Message, name: str) -> str | None:
    """A picture's description within a media item's 256 characters."""
    words = message.brief.get(name) or message.descriptions.get(name)
    return cut(words, MAX_ITEM_DESCRIPTION) if words else None


def _rows(view: discord.ui.View | None) -> list[discord.ui.ActionRow[Any]]:
    """The classic view's buttons and menus, in the rows it would show them in."""
    if view is None or not view.children:
        return []
    by_id = {getattr(item, "custom_id", None): item for item in view.children}
    rows = []
    for row in view.to_components():
        items = [by_id[c.get("custom_id")] for c in row.get("components", []) if c.get("custom_id") in by_id]
        if items:
            rows.append(discord.ui.ActionRow(*[_copy(item) for item in items]))
    return rows


def _copy(item: discord.ui.Item[Any]) -> discord.ui.Item[Any]:
    """The same button or menu, not bound to the classic view (which still serves a fallback)."""
    if isinstance(item, discord.ui.Button):
        return discord.ui.Button(style=item.style, label=item.label, custom_id=item.custom_id, emoji=item.emoji,
                                 disabled=item.disabled, url=item.url)
    if isinstance(item, discord.ui.Select):
        return discord.ui.Select(custom_id=item.custom_id, options=list(item.options), placeholder=item.placeholder,
                                 min_values=item.min_values, max_values=item.max_values, disabled=item.disabled)
    return item


def _count(components: list[dict[str, Any]]) -> int:
    """How many components, nested ones included."""
    return sum(1 + _count(list(c.get("components") or [])) + (1 if c.get("accessory") else 0) for c in components)


def text_shown(message: Message, as_layout: bool) -> str:
    """The text `message` shows when posted as a layout (all its parts) or not (the first)."""
    return "\n".join(t for t in (message.content, *message.more) if t) if as_layout else message.content


def is_layout(message: discord.Message | None) -> bool:
    """Whether a message Discord gave back is a layout."""
    return message is not None and bool(message.flags.value & discord.MessageFlags.components_v2.flag)


def shown_text(message: discord.Message) -> str:
    """The text a message shows: its content, or a layout's text displays."""
    if not is_layout(message):
        return message.content
    out: list[str] = []

    def visit(parts: Any) -> None:
        for part in parts or []:
            if isinstance(part, discord.TextDisplay):
                out.append(part.content)
            visit(getattr(part, "children", None))

    visit(message.components)
    return "\n".join(out)


def _refused_form(exc: discord.HTTPException) -> bool:
    return exc.status == 400 and exc.code == INVALID_FORM


async def send_post(channel: discord.abc.Messageable | discord.PartialMessageable, message: Message,
                    **kwargs: Any) -> tuple[discord.Message, bool]:
    """Post `message` as a layout if it fits (else, or if Discord refuses the layout, in
    today's form). Returns the message and whether it is a layout."""
    layout = layout_of(message)
    if layout is not None:
        try:
            return await channel.send(files=message.discord_files(), view=layout, **kwargs), True
        except discord.HTTPException as exc:
            if not _refused_form(exc):
                raise
    return await channel.send(message.content, files=message.discord_files(),
                              view=message.view or discord.utils.MISSING, **kwargs), False


async def edit_post(target: discord.Message | discord.PartialMessage, message: Message, *, layout_first: bool) -> None:
    """Edit a post to show `message`, in the form the post has (`layout_first`: it is a
    layout, as far as we know); if Discord refuses that form, the other."""
    layout = layout_of(message)
    forms = [True, False] if layout_first else [False, True]
    for i, as_layout in enumerate(f for f in forms if f is False or layout is not None):
        try:
            if as_layout:
                await target.edit(content=None, attachments=message.discord_files(), view=layout)
            else:
                await target.edit(content=message.content, attachments=message.discord_files(), view=message.view)
            return
        except discord.HTTPException as exc:
            if not _refused_form(exc) or i > 0 or layout is None:
                raise
