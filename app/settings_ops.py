"""Each player's own preferences (`/ttr settings`), stored per Discord user and read wherever
a picture is drawn for them: their hand (by DM or on request), and the public board of a table
where anyone seated has colour-blind marks on.

Whether the bot may DM a player is kept on their seats (app.delivery_ops: Discord's refusals
land there); it is shown here with the rest.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.base import ServiceBase
from app.models import PlayerSettings
from store import Store


async def read_settings(store: Store, user_ids: Iterable[int | None]) -> dict[int, PlayerSettings]:
    """The picture preferences of these players (AI seats, None, are left out); `dms` is not
    read here (it lives on the seats)."""
    ids = [u for u in user_ids if u is not None]
    rows = await store.user_settings(ids)
    return {u: PlayerSettings() if (row := rows.get(u)) is None else PlayerSettings(row.colorblind, row.hand_picture)
            for u in ids}


def board_colorblind(settings: dict[int, PlayerSettings]) -> bool:
    """Whether a table's public board gets colour-blind marks: as soon as one person seated
    there has them on."""
    return any(s.colorblind for s in settings.values())


class SettingsOps(ServiceBase):
    """Reading and changing players' preferences."""

    async def settings(self, user_id: int) -> PlayerSettings:
        """A player's preferences (the defaults when they never changed one)."""
        row = (await self.store.user_settings([user_id])).get(user_id)
        closed = await self.store.dm_closed(user_id)
        if row is None:
            return PlayerSettings(dms=not closed)
        return PlayerSettings(colorblind=row.colorblind, hand_picture=row.hand_picture, dms=not closed)

    async def change_settings(self, user_id: int, *, colorblind: bool | None = None,
                              hand_picture: bool | None = None) -> PlayerSettings:
        """Change some of a player's preferences (None: leave as it is); returns them all. One
        transaction, so a restart keeps both or neither."""
        changes = {name: value for name, value in (("colorblind", colorblind), ("hand_picture", hand_picture))
                   if value is not None}
        if changes:
            tx = self.store.tx()
            for name, value in changes.items():
                tx.set_user_flag(user_id, name, bool(value))
            await self.store.write(tx)
        return await self.settings(user_id)

    async def settings_of(self, user_ids: Iterable[int | None]) -> dict[int, PlayerSettings]:
        """The picture preferences of several players at once (`dms` is not read here)."""
        return await read_settings(self.store, user_ids)

    async def table_colorblind(self, user_ids: Iterable[int | None]) -> bool:
        """Whether the public board of a table with these people seated gets colour-blind
        marks: yes as soon as one of them has them on."""
        return board_colorblind(await read_settings(self.store, user_ids))
