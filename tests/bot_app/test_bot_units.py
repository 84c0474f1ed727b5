"""Unit tests of the bot glue without the fake: custom ids, words, configuration, the command
contract of DISCORD_UX.md, and the desk/cog answers with mocks specced on real discord.py
objects (a typo in an attribute fails the test)."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import discord
import pytest
from discord import app_commands

from bot_app.adapter.buttons import FAMILIES
from bot_app.adapter.client import TtrBot
from bot_app.adapter.desk import Desk
from bot_app.adapter.games import parse_game, resolve_game
from bot_app.adapter.tree import FREE_SLOTS, MAX_OPTIONS_PER_LEVEL, TtrTree
from bot_app.config import Config, load_dotenv
from bot_app.presentation import ids, text
from bot_app.presentation.answers import Refusal, refusal_text
from bot_app.presentation.moves_text import parse_payment, payment_code
from engine.actions import ClaimRoute, DrawCard, KeepTickets
from engine.core import TurnStarted
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import new_game, view
from engine.rules.routes import RouteClaimed

ROOT = Path(__file__).resolve().parents[2]

# The contract: command and option names from DISCORD_UX.md (revised "Commands": the host's
# commands under /ttr admin, preferences under /ttr settings, variant-only moves as buttons of
# the turn post plus the one typed fallback /ttr move).
CONTRACT = {
    "new": {"variant", "dice", "seats", "turn_hours", "first", "stations", "controller_tunnel", "dice_tokens",
            "tunnel_dice", "nine_route"}, "join": {"game"}, "leave": {"game"},
    "draw": {"card"}, "claim": {"route", "payment"}, "tickets": {"short", "long"}, "station": {"city", "payment"},
    "move": {"action"}, "hand": {"game"}, "board": {"game"}, "status": {"game"}, "log": {"game"}, "games": set(),
    "rules": {"topic", "variant", "dice", "lesson"},
    "settings": {"dms", "colorblind", "hand_picture", "timezone", "quiet_hours", "vacation_days", "digest"},
    "plan": {"what", "plan", "game"},
}
# The groups of related commands (docs/discord.md: /ttr keeps 6 of its 25 slots free).
RESULTS = {"stats": {"player"}, "leaderboard": {"variant", "season"}, "replay": {"game"}}
TURN = {"undo": {"game"}, "vote": {"player", "game"}, "hint": {"game"}}
ADMIN = {"addai": {"game", "level"}, "start": {"game"}, "cancel": {"game"}, "kick": {"game", "player"},
         "pause": {"game"}, "resume": {"game"}, "replace": {"game", "player", "new"}, "season": set(),
         "ratings": {"ai_games"}}


async def _bot_with_commands() -> TtrBot:
    bot = TtrBot(mock.Mock(), sync_commands=False)
    await bot.load_commands()
    return bot


async def test_commands_keep_the_contract_and_room_to_grow():
    bot = await _bot_with_commands()
    ttr = bot.ttr
    commands = {c.name: {p.name for p in getattr(c, "parameters", [])} for c in ttr.commands}
    assert set(commands) == set(CONTRACT) | {"admin", "results", "turn"}
    for name, options in CONTRACT.items():
        assert options <= commands[name], (name, commands[name])
    admin = next(c for c in ttr.commands if c.name == "admin")
    assert isinstance(admin, app_commands.Group)
    assert {c.name: {p.name for p in c.parameters} for c in admin.commands} == ADMIN
    for name, wanted in (("results", RESULTS), ("turn", TURN)):
        group = next(c for c in ttr.commands if c.name == name)
        assert isinstance(group, app_commands.Group)
        assert {c.name: {p.name for p in c.parameters} for c in group.commands} == wanted
    # Discord's limit per level, and room for the commands still to come.
    assert len(ttr.commands) <= MAX_OPTIONS_PER_LEVEL - FREE_SLOTS
    for group in (ttr, admin):
        for command in group.commands:
            assert len(getattr(command, "parameters", getattr(command, "commands", []))) <= MAX_OPTIONS_PER_LEVEL
    payload = ttr.to_dict(bot.tree)
    assert payload["name"] == "ttr" and len(payload["options"]) == len(ttr.commands)
    assert [c.name for c in bot.tree.get_commands()] == ["ttr"]


def test_custom_ids_round_trip_and_fit():
    cid = ids.make(123456789012, 4321, "do", "117.claim_route")
    assert len(cid) <= 100
    assert ids.parse(cid) == ids.Cid(123456789012, 4321, "do", "117.claim_route")
    assert ids.parse(ids.make(5, None, "hand")) == ids.Cid(5, None, "hand", "")
    for bad in ("", "ttr:v1:x:1:do", "ttr:v2:1:1:do", "ttr:v1:1:1:DO", "ttr:v1:1:1:do:" + "a" * 80, None):
        assert ids.parse(bad) is None  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ids.make(1, 1, "do", "x" * 90)


def test_a_button_posted_with_a_former_verb_still_reaches_its_family():
    """Discord keeps old posts: a click on a button whose id has a verb's former short name is
    taken by the family of its new name, and read as the new name."""
    def takers(custom_id: str) -> list[type]:
        return [f for f in FAMILIES if f.__discord_ui_compiled_template__.fullmatch(custom_id)]

    for old, new in ids.FORMER.items():
        posted_before = f"ttr:v1:7:12:{old}:burn_five"
        assert len(takers(posted_before)) == 1 and takers(posted_before) == takers(ids.make(7, 12, new, "burn_five"))
        match = takers(posted_before)[0].__discord_ui_compiled_template__.fullmatch(posted_before)
        assert match is not None and ids.from_match(match) == ids.Cid(7, 12, new, "burn_five")
        assert ids.parse(posted_before) == ids.Cid(7, 12, new, "burn_five")


def test_payments_as_option_values():
    assert payment_code({"red": 3, "loco": 1}) == "loco1.red3"
    assert parse_payment("loco1.red3") == {"loco": 1, "red": 3}
    assert parse_payment("") is None and parse_payment(None) is None
    assert parse_payment("garbage!") == {"?": 1}


def test_words_for_events_and_actions():
    state, _ = new_game("europe", 2, 3, names=["Ann", "Ben"])
    v = view(state, None)
    line = text.summarize([Event(RouteClaimed(player=1, route="kyiv-wilno", payment={"loco": 1, "orange": 1},
                                              points=2)),
                           Event(TurnStarted(player=0, turn=1))], v)
    assert line.startswith("Ben claimed Kyiv – Wilno") and "1 orange and 1 locomotive" in line
    assert text.highlights([Event(RouteClaimed(player=1, route="kyiv-wilno", payment={}, points=2))]) \
        == (("kyiv-wilno",), ())
    assert text.describe_action(DrawCard(0, None), v) == "draw the top card of the deck (blind)"
    assert "claim Kyiv – Wilno" in text.describe_action(ClaimRoute(0, "kyiv-wilno", (("orange", 2),)), v)
    mine = view(state, 0)
    offered = mine.pending.offer_of(0)
    assert "keep" in text.describe_action(KeepTickets(0, tuple(offered[:2])), mine)
    # The hand is words only for its owner; the public status has counts only.
    hand = text.hand_text(mine, 1)
    assert "Your hand" in hand
    status = text.status_block(v)
    assert "Ann" in status and "Cards:" not in status
    for t in offered:
        assert text.ticket_label(text.game_map(v), t) not in status
    assert text.thread_name(12, "europe") == "TTR #12 · Europe"


def test_config_from_env_and_dotenv(tmp_path):
    env = {"DISCORD_TOKEN": " abc ", "GUILD_ID": "42", "LOG_LEVEL": "debug"}
    cfg = Config.from_env(env)
    assert cfg.token == "abc" and cfg.guild_id == 42 and cfg.log_level == "DEBUG"
    assert cfg.database.name == "ttr.sqlite3" and cfg.database.parent.name == "data"
    assert Config.from_env({}).token is None
    with pytest.raises(ValueError):
        Config.from_env({"GUILD_ID": "my server"})
    dotenv = tmp_path / ".env"
    dotenv.write_text("# comment\nexport DISCORD_TOKEN='xyz'\nGUILD_ID=7\n\nLOG_LEVEL=INFO\n", encoding="utf-8")
    target = {"GUILD_ID": "1"}
    assert load_dotenv(dotenv, target) == 2
    assert target == {"GUILD_ID": "1", "DISCORD_TOKEN": "xyz", "LOG_LEVEL": "INFO"}
    # python-dotenv reads it: double quotes, spaces round '=', no ${VAR} expansion (a token is
    # taken as written), a line without '=' sets nothing.
    dotenv.write_text('A = "x y"\nB=a${HOME}b\nJUST_A_WORD\n', encoding="utf-8")
    target = {}
    assert load_dotenv(dotenv, target) == 2
    assert target == {"A": "x y", "B": "a${HOME}b"}
    assert load_dotenv(tmp_path / "missing.env", target) == 0


def test_no_token_explains_and_points_to_the_demo(capsys, monkeypatch):
    import bot

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setattr("bot_app.config.load_dotenv", lambda *a, **k: 0)
    monkeypatch.setattr(bot, "load_dotenv", lambda *a, **k: 0)
    assert bot.main([]) == 2
    err = capsys.readouterr().err
    assert "DISCORD_TOKEN" in err and "--demo" in err and "discord.com/developers" in err


def _interaction(done: bool = False) -> mock.MagicMock:
    inter = mock.create_autospec(discord.Interaction, instance=True)
    inter.response = mock.create_autospec(discord.InteractionResponse, instance=True)
    inter.response.is_done.return_value = done
    inter.followup = mock.create_autospec(discord.Webhook, instance=True)
    inter.created_at = discord.utils.utcnow()
    return inter


async def test_desk_answers_once_then_follows_up():
    desk = Desk(mock.Mock(), mock.create_autospec(discord.Client, instance=True))
    fresh = _interaction(done=False)
    await desk.answers.say(fresh, "hello")
    fresh.response.send_message.assert_awaited_once_with(content="hello", ephemeral=True)
    later = _interaction(done=True)
    await desk.answers.say(later, "again", ephemeral=False)
    later.followup.send.assert_awaited_once_with(content="again", ephemeral=False)


async def test_guard_turns_refusals_and_crashes_into_one_private_sentence(caplog):
    desk = Desk(mock.Mock(), mock.create_autospec(discord.Client, instance=True))

    async def refuse() -> None:
        raise IllegalAction("Oslo – Stockholm needs 4 yellow cards.", "cost")

    async def crash() -> None:
        raise KeyError("boom")

    inter = _interaction()
    await desk.answers.guard(inter, refuse())
    sent = inter.response.send_message.await_args.kwargs
    assert sent["ephemeral"] and sent["content"] == "🚫 Oslo – Stockholm needs 4 yellow cards."
    inter = _interaction()
    await desk.answers.guard(inter, crash())
    assert "went wrong" in inter.response.send_message.await_args.kwargs["content"]
    assert "boom" not in inter.response.send_message.await_args.kwargs["content"]
    assert any("error while handling" in r.getMessage() for r in caplog.records)
    assert desk._handlers == 0
    assert refusal_text(Refusal("x")) == "x"


async def test_tree_error_handler_answers_in_one_sentence():
    tree = mock.create_autospec(TtrTree, instance=True)
    inter = _interaction()
    err = app_commands.TransformerError("zzz", discord.AppCommandOptionType.integer, mock.Mock())
    await TtrTree.on_error(tree, inter, err)
    kwargs = inter.response.send_message.await_args
    assert kwargs.kwargs["ephemeral"] is True
    assert "zzz" in kwargs.args[0] and kwargs.args[0].count(".") <= 2
    inter = _interaction(done=True)
    await TtrTree.on_error(tree, inter, app_commands.CommandInvokeError(mock.Mock(), RuntimeError("x")))
    assert "went wrong" in inter.followup.send.await_args.args[0]
    # A refusal raised inside a command (or a transformer) is answered in its own words.
    inter = _interaction()
    await TtrTree.on_error(tree, inter, app_commands.CommandInvokeError(mock.Mock(), Refusal("Not yet.")))
    assert inter.response.send_message.await_args.args[0] == "🚫 Not yet."


async def test_the_tree_counts_every_command_while_it_runs():
    """A stop, the tests and the benchmarks wait until no handler runs: the tree counts each
    command (its check, its body, its error handler), the body counts nothing itself."""
    desk = Desk(mock.Mock(), mock.create_autospec(discord.Client, instance=True))
    tree = mock.create_autospec(TtrTree, instance=True)
    tree.client = mock.Mock(desk=desk)  # set in the tree's __init__, which a spec does not see
    running: list[bool] = []

    async def command(self: TtrTree, interaction: discord.Interaction) -> None:
        running.append(not await desk.settle(0))
        raise app_commands.CommandNotFound("gone", [])

    with mock.patch.object(app_commands.CommandTree, "_call", command), pytest.raises(app_commands.CommandNotFound):
        await TtrTree._call(tree, _interaction())
    assert running == [True]  # counted while it ran
    assert await desk.settle(0)  # and no longer once it ended, even in failure
    for path in sorted((ROOT / "cogs").glob("*.py")):
        source = path.read_text(encoding="utf-8")
        assert "handling()" not in source and "self.run(" not in source, f"{path.name} counts its own commands"


async def test_resolve_game_prefers_the_option_then_the_thread():
    service = mock.AsyncMock()
    inter = _interaction()
    inter.client = mock.Mock(desk=Desk(service, mock.create_autospec(discord.Client, instance=True)))
    service.reads.game_for.return_value = mock.Mock(game_id=12, thread_id=555)
    assert parse_game("#12 · Europe · your turn") == 12
    assert await resolve_game(inter, 12) == 12  # the option, already checked by its transformer
    thread = mock.create_autospec(discord.Thread, instance=True)
    thread.name, thread.id = "TTR #12 · Europe", 555
    inter.channel = thread
    assert await resolve_game(inter, None) == 12
    with pytest.raises(Refusal):
        parse_game("no digits here")


async def test_demo_plays_through_service_store_and_renderer(tmp_path):
    from bot_app.demo import play_demo
    from tests.fake_discord.renderer import StubRenderer

    out = tmp_path / "demo"
    summary = await play_demo("usa", 2, 5, out, ["greedy"], quiet=True)
    assert summary["ended"]
    boards = sorted(out.glob("board-*.png"))
    assert len(boards) == summary["boards"] > 10
    assert (out / "final-scores.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "final-tickets.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "replay.gif").read_bytes()[:6] == b"GIF89a"  # the replay, beside the final scores
    log = (out / "game-log.txt").read_text(encoding="utf-8")
    assert "Final scores" in log and "claimed" in log
    # The thread as players read it, and what each player was told privately.
    thread = (out / "log.txt").read_text(encoding="utf-8")
    assert thread.count("· move ") == summary["boards"] and "[🃏 Draw]" in thread and "🏆 **Final scores**" in thread
    for name in ("bot-1", "bot-2"):
        dms = (out / f"dm-{name}.txt").read_text(encoding="utf-8")
        assert "It's your turn in game" in dms and "**Your hand in game" in dms and "▶ You chose to " in dms
        assert sorted(out.glob(f"hand-{name}-*.png"))
    assert len(list(out.glob("hand-*.png"))) == summary["hands"]
    # The same seed gives the same game (and the same words); played into the same folder, it
    # replaces what was there (an earlier, longer game's files too), never mixes two games.
    (out / "board-999.png").write_bytes(b"an earlier game")
    (out / "dm-bot-5.txt").write_text("an earlier game", encoding="utf-8")
    (out / "hand-bot-5-400.png").write_bytes(b"an earlier game")
    again = await play_demo("usa", 2, 5, out, ["greedy"], renderer=StubRenderer(), quiet=True)
    assert again["moves"] == summary["moves"]
    assert (out / "log.txt").read_text(encoding="utf-8") == thread
    assert len(list(out.glob("board-*.png"))) == again["boards"] and not (out / "board-999.png").exists()
    assert sorted(p.name for p in out.glob("dm-*.txt")) == ["dm-bot-1.txt", "dm-bot-2.txt"]
    assert len(list(out.glob("hand-*.png"))) == again["hands"]


async def test_demo_plays_with_dice_and_says_the_roll(tmp_path):
    from bot_app.demo import play_demo
    from tests.fake_discord.renderer import StubRenderer

    out = tmp_path / "dice"
    summary = await play_demo("germany", 3, 2, out, ["greedy"], renderer=StubRenderer(), quiet=True, dice=True)
    assert summary["ended"]
    thread = (out / "log.txt").read_text(encoding="utf-8")
    assert "Germany + dice" in thread and "'s dice: " in thread and "[🎲 Re-roll]" in thread and "🪙" in thread
    assert "draw 2 train cards" not in thread.lower()
    dms = (out / "dm-bot-1.txt").read_text(encoding="utf-8")
    assert "🎲 Your dice: " in dms and "🪙 Your tokens: " in dms and "🧍 Your passengers: " in dms
