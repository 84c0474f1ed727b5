"""The cogs: every module of cogs/ with a `setup` is loaded with no list to keep, each brings its
own button families, and a command marked `keeps_vacation` does not end a vacation."""

from __future__ import annotations

import inspect
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
from discord import app_commands

import cogs
from bot_app.adapter.client import cog_modules, is_game_command
from cogs.base import TtrCog
from tests.fake_discord import FakeDiscord
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer


def _cog_classes() -> dict[str, list[type[TtrCog]]]:
    """The TtrCog classes each module of cogs/ defines."""
    import importlib

    found: dict[str, list[type[TtrCog]]] = {}
    for name in sorted(f"cogs.{p.stem}" for p in Path(cogs.__file__).parent.glob("*.py")):
        module = importlib.import_module(name)
        found[name] = [c for _, c in inspect.getmembers(module, inspect.isclass)
                       if issubclass(c, TtrCog) and c is not TtrCog and c.__module__ == name]
    return found


def test_the_cogs_are_the_folders_modules_with_a_setup():
    names = cog_modules()
    assert names == sorted(names)
    modules = {f"cogs.{p.stem}" for p in Path(cogs.__file__).parent.glob("*.py")}
    assert set(names) == modules - {"cogs.__init__", "cogs.base"}
    assert set(names) == {name for name, found in _cog_classes().items() if found}


async def test_every_cog_is_loaded_with_its_button_families(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=StubRenderer())
    try:
        bot = running.bot
        classes = _cog_classes()
        with_cogs = {name for name, found in classes.items() if found}
        assert set(bot.extensions) == with_cogs  # every cog module, and cogs/base.py is not one
        # cogs/base.py was read once: every cog is a TtrCog of the one module the tests imported.
        assert all(isinstance(cog, TtrCog) for cog in bot.cogs.values())
        loaded = {f"{type(cog).__module__}.{type(cog).__name__}" for cog in bot.cogs.values()}
        assert loaded == {f"{c.__module__}.{c.__name__}" for found in classes.values() for c in found}
        registered = set(bot._connection._view_store._dynamic_items.values())
        families = {f for cog in bot.cogs.values() if isinstance(cog, TtrCog) for f in cog.families}
        assert families and families <= registered
        # The turn buttons, the votes, the undo, the plan and the rematch all come with a cog.
        assert {f.__name__ for f in families} >= {"TurnButton", "VoteButton", "UndoButton", "PlanButton",
                                                   "RematchButton", "LobbyButton"}
        # A cog unloaded takes its families with it.
        play = next(cog for cog in bot.cogs.values() if type(cog).__name__ == "PlayCog")
        await bot.unload_extension("cogs.play")
        left = set(bot._connection._view_store._dynamic_items.values())
        assert not set(play.families) & left
        assert bot.ttr.get_command("draw") is None
    finally:
        await running.stop()
        await fake.stop()


def _slash(*path: str) -> Any:
    options: list[dict[str, Any]] = []
    for name in reversed(path):
        options = [{"name": name, "type": 1, "options": options}]
    return SimpleNamespace(type=discord.InteractionType.application_command,
                           data={"name": "ttr", "options": options})


def test_a_command_that_only_reads_keeps_a_vacation_and_a_move_ends_it():
    ttr = app_commands.Group(name="ttr", description="t")
    admin = app_commands.Group(name="admin", description="a", parent=ttr)

    async def body(interaction: discord.Interaction) -> None: ...

    from bot_app.adapter.tree import keeps_vacation

    ttr.add_command(keeps_vacation(app_commands.Command(name="rules", description="r", callback=body)))
    ttr.add_command(app_commands.Command(name="draw", description="d", callback=body))
    admin.add_command(app_commands.Command(name="kick", description="k", callback=body))
    admin.add_command(keeps_vacation(app_commands.Command(name="look", description="l", callback=body)))
    assert not is_game_command(_slash("rules"), ttr)
    assert is_game_command(_slash("draw"), ttr)
    assert is_game_command(_slash("admin", "kick"), ttr)
    assert not is_game_command(_slash("admin", "look"), ttr)
    assert not is_game_command(_slash("nosuch"), ttr)
    assert not is_game_command(_slash(), ttr)
    button = SimpleNamespace(type=discord.InteractionType.component, data={"custom_id": "ttr:t:1:2"})
    assert is_game_command(button, ttr)


async def test_the_bots_reading_commands_are_marked(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=StubRenderer())
    try:
        ttr = running.bot.ttr
        for path in (("settings",), ("rules",), ("games",), ("results", "stats"), ("results", "leaderboard"),
                     ("results", "replay")):
            assert not is_game_command(_slash(*path), ttr), path
        for path in (("draw",), ("claim",), ("hand",), ("board",), ("turn", "undo"), ("admin", "pause")):
            assert is_game_command(_slash(*path), ttr), path
    finally:
        await running.stop()
        await fake.stop()
