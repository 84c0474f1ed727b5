"""Each player's own settings (`/ttr settings`): colour-blind marks and the hand picture,
stored per user for every game (migration 7), kept across restarts, copied with --copy-db, and
read where pictures are drawn — a player's hand by their own settings, a table's public board
with marks as soon as one person seated there has them on. On SQLite and on PostgreSQL.

Through Discord (the command's answers, what the renderer is asked for, a DM without its
picture): tests/bot_app/test_bot_options.py."""

from __future__ import annotations

from typing import Any

import pytest

from app import GameService, Limits, PlayerSettings
from app.copying import copy_database
from app.owed import TURN_DM
from tests.databases import Database

HOST, BOB, CAROL = 100, 101, 102


async def _game(service: GameService, users: tuple[int, ...] = (HOST, BOB), ais: int = 0) -> int:
    lobby = await service.tables.create_lobby(1, 1, HOST, "Host", "usa", seats_wanted=len(users) + ais)
    for user in users[1:]:
        lobby = await service.tables.join(lobby.game_id, user, f"user{user}")
    for _ in range(ais):
        lobby = await service.tables.add_ai(lobby.game_id, HOST, "random", len(lobby.seats))
    await service.tables.start(lobby.game_id, HOST)
    return lobby.game_id


async def test_a_player_who_never_chose_has_no_marks_and_gets_the_picture(service):
    assert await service.settings.settings(BOB) == PlayerSettings(colorblind=False, hand_picture=True, dms=True)
    assert await service.settings.settings_of([BOB, None]) == {BOB: PlayerSettings()}


async def test_settings_are_stored_per_user_and_survive_a_restart(database):
    async with await GameService.open(database.target, limits=Limits.unlimited()) as service:
        assert await service.settings.change_settings(BOB, colorblind=True) == PlayerSettings(colorblind=True)
        # Changing one leaves the other as it was.
        assert await service.settings.change_settings(BOB, hand_picture=False) == PlayerSettings(True, False)
        assert await service.settings.change_settings(BOB) == PlayerSettings(True,
                                                                             False)  # nothing asked: nothing changed
        assert await service.settings.settings(CAROL) == PlayerSettings()  # someone else's are theirs alone
    async with await GameService.open(database.target, limits=Limits.unlimited()) as restarted:
        assert await restarted.settings.settings(BOB) == PlayerSettings(colorblind=True, hand_picture=False)
        assert await restarted.settings.change_settings(BOB, colorblind=False, hand_picture=True) == PlayerSettings()
    assert database.fetch("SELECT user_id, colorblind, hand_picture FROM user_settings") == [(BOB, 0, 1)]


async def test_the_dms_setting_keeps_working_beside_them(service):
    await _game(service)  # (whether DMs are closed is kept on the player's seats)
    await service.settings.change_settings(BOB, colorblind=True)
    await service.outbox.dms_closed(BOB)
    assert await service.settings.settings(BOB) == PlayerSettings(colorblind=True, dms=False)
    await service.outbox.dms_open(BOB)
    assert await service.settings.settings(BOB) == PlayerSettings(colorblind=True, dms=True)


async def test_the_public_board_gets_marks_while_anyone_seated_has_them_on(service):
    game_id = await _game(service, (HOST, BOB), ais=1)
    assert (await service.outbox.post_data(game_id)).colorblind is False
    await service.settings.change_settings(CAROL, colorblind=True)  # not at this table
    assert (await service.outbox.post_data(game_id)).colorblind is False
    await service.settings.change_settings(BOB, colorblind=True)
    assert (await service.outbox.post_data(game_id)).colorblind is True
    assert await service.settings.table_colorblind([HOST, BOB, None]) is True
    await service.settings.change_settings(BOB, colorblind=False)
    assert (await service.outbox.post_data(game_id)).colorblind is False


async def test_a_hand_is_drawn_by_its_own_players_settings(service):
    await service.settings.change_settings(BOB, colorblind=True, hand_picture=False)
    game_id = await _game(service)
    turn_dms = {d.user_id: d for d in await service.outbox.deliveries(game_id) if d.kind == TURN_DM}
    assert set(turn_dms) == {HOST, BOB}  # the opening ticket choice: both are waited for
    bob = await service.outbox.hand_data(turn_dms[BOB])
    host = await service.outbox.hand_data(turn_dms[HOST])
    assert bob is not None and host is not None
    assert bob.settings == PlayerSettings(colorblind=True, hand_picture=False)
    assert host.settings == PlayerSettings()


@pytest.mark.parametrize(("source", "target"), [("sqlite", "postgres"), ("postgres", "sqlite")])
async def test_copy_db_copies_the_players_settings(other_database: Any, source: str, target: str) -> None:
    src: Database = other_database(source, "source")
    dst: Database = other_database(target, "target")
    async with await GameService.open(src.target, limits=Limits.unlimited()) as svc:
        await _game(svc)
        await svc.settings.change_settings(BOB, colorblind=True, hand_picture=False)
        await svc.settings.change_settings(HOST, hand_picture=False)
    await copy_database(src.target, dst.target)
    async with await GameService.open(dst.target, limits=Limits.unlimited()) as copied:
        assert await copied.settings.settings(BOB) == PlayerSettings(colorblind=True, hand_picture=False)
        assert await copied.settings.settings(HOST) == PlayerSettings(hand_picture=False)


# --- the seam to the pictures -------------------------------------------------------------------


async def test_the_renderer_draws_the_board_with_the_marks_it_is_asked_for():
    from bot_app.presentation.render_hooks import Renderer
    from engine.game import new_game, view

    state, _ = new_game("europe", 3, 7)
    public = view(state, None)
    renderer = Renderer()
    plain, marked = await renderer.board(public), await renderer.board(public, colorblind=True)
    assert plain != marked  # the letters are drawn
    assert await renderer.board(public, colorblind=False) == plain
    # The hand picture draws with or without them (its own marks come from render/).
    assert (await renderer.hand(view(state, 0), colorblind=True)).startswith(b"\x89PNG")


async def test_the_hand_picture_gets_the_flag_once_it_takes_one(monkeypatch):
    import render.hand
    from bot_app.presentation.render_hooks import Renderer
    from engine.game import new_game, view
    from render import RenderPool

    asked: list[bool] = []
    drawn = render.hand.render_hand

    def hand_with_marks(v: Any, game_map: Any = None, seat: int | None = None, *, colorblind: bool = False) -> Any:
        asked.append(colorblind)
        return drawn(v, game_map, seat)

    monkeypatch.setattr(render.hand, "render_hand", hand_with_marks)
    state, _ = new_game("usa", 2, 3)
    threads = RenderPool(1, processes=False)  # drawn in this process, where the spy is
    try:
        await Renderer(threads).hand(view(state, 1), colorblind=True)
        await Renderer(threads).hand(view(state, 1))
    finally:
        threads.close()
    assert asked == [True, False]
