"""A game belongs to its server: the authorization matrix, through the real client and the fake.

Two servers, A and B. Game #A is running in server A between Alice and Bob; a lobby waits in
server A too. From server B (as B's manager Mallory, who has "Manage Server" there, and as a
plain member Eve) and from direct messages, every command that takes `game:` is sent naming
A's games, every button family is pressed with A's custom ids, and autocomplete is asked with
`game:` set to A's game. Every one is refused in the same words whether or not the game
exists ("There is no game #N here."), privately, and nothing changes: not the games, not their
seats, not their threads, not their timers. Then the same commands from inside server A, and
from Alice's DMs for her own game, work (the control group)."""

from __future__ import annotations

import re

from bot_app.lang import english
from tests.fake_discord import FakeDiscord, custom_ids
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer

# Every command with a `game` option, and the other options it needs to get that far.
GAME_COMMANDS: dict[str, dict[str, object]] = {
    "join": {}, "leave": {}, "admin addai": {}, "admin start": {}, "admin cancel": {},
    "draw": {"card": "deck"}, "claim": {"route": "Paris - Wien"}, "tickets": {}, "station": {"city": "Paris"},
    "move": {"action": "0:0.pass"}, "hand": {}, "board": {}, "status": {}, "log": {}, "rules": {}, "results replay": {},
    "admin pause": {}, "admin resume": {}, "admin kick": {"player": None},  # player filled in below
    "admin replace": {"player": "1"}, "turn vote": {}, "turn undo": {},  # replace's `new` filled in below
    "plan": {}, "plan ": {"what": "set", "plan": "else: draw blind"},  # view, and set (the same command)
}
# A custom id of each button family (verb), with the seq it needs (None: any point of the game);
# the former short verbs too, which posts from before their new names still carry.
BUTTON_VERBS = ["join", "leave", "addai", "start", "cancel", "hand", "kt", "draw", "claim", "stn", "tix",
                "rulemove", "grp", "grouppick", "actionpick", "ask", "do", "nope", "keeppick", "keepok", "vote",
                "undo", "plan", "psel", "pblind", "ptix", "pcancel", "xt", "gsel", "asel", "ksel", "kdo"]
MENUS = ("sel", "pick")  # the verbs of select menus end so
AUTOCOMPLETED = [("claim", "route"), ("claim", "payment"), ("station", "city"), ("draw", "card"),
                 ("move", "action"), ("plan", "plan")]


def _refusal(fake: FakeDiscord, it) -> str:
    msgs = fake.reply_messages(it)
    assert msgs, f"{it.payload['data']} was not answered"
    msg = msgs[-1]
    assert msg["flags"] & 64, f"a refusal must be private: {msg['content']!r}"
    return msg["content"]


def _plant(fake: FakeDiscord, channel_id: int, custom_id: str, select: bool) -> dict:
    """A message in `channel_id` carrying a component with `custom_id`, as if the bot had posted
    it there. Discord only sends clicks on components a message really has, and the bot never
    posts a game's buttons outside its server — this checks the second line of defence: a
    component naming another server's game is refused even if it somehow got there."""
    component = ({"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": "x"}],
                  "min_values": 1, "max_values": 1} if select else
                 {"type": 2, "style": 2, "label": "press", "custom_id": custom_id})
    return fake._new_message(channel_id, {"content": "planted", "components": [
        {"type": 1, "components": [component]}]}, [], flags=0)


async def _state(running, fake: FakeDiscord, watched: list[int]) -> list[tuple]:
    """Everything a refused request must leave as it was (games, seats, timers, and the
    messages in the `watched` channels)."""
    out = []
    for gid in range(1, 50):
        try:
            s = await running.service.reads.game(gid)
        except Exception:
            break
        timers = [(t.kind, t.seat, t.due_at) for t in await running.service.clocks.pending_timers(gid)]
        out.append((s.game_id, s.status, s.seq, s.seats, s.waiting_for, s.thread_id, timers))
    posted = tuple(len(fake.thread_messages(c)) for c in watched)
    return [*out, posted]


async def test_no_one_reaches_another_servers_games(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    mallory = fake.add_user("Mallory")  # manages server B
    eve = fake.add_user("Eve")  # a member of B with no role
    guild_b, channel_b = await fake.add_guild("Server B")
    mallory.manages.add(guild_b)
    running = await start_bot(fake, tmp_path / "auth.sqlite3", renderer=StubRenderer())
    try:
        table = await Table.open(fake, running.service, alice, [bob])
        table.desk = running.bot.desk
        game_a = table.game_id
        # An open lobby in server A (Bob hosts it), and one in server B (Mallory hosts it).
        it = await fake.answered(await fake.slash(bob, "new", variant="usa", seats=3))
        lobby_a = int(re.search(r"#(\d+)", fake.reply_messages(it)[0]["content"]).group(1))
        it = await fake.answered(await fake.slash(mallory, "new", variant="usa", seats=3, channel_id=channel_b))
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        post = table.latest_post()
        assert post is not None
        seq = (await table.summary()).seq
        dm_mallory = fake._dm_channel(mallory.id)
        dm_alice = fake._dm_channel(alice.id)

        thread_b = next(int(c["id"]) for c in fake.channels.values()
                        if c["type"] == 11 and c["guild_id"] == str(guild_b))
        watched = [fake.channel_id, table.thread_id, thread_b]
        before = await _state(running, fake, watched)
        refused = 0
        for who in (mallory, eve):
            for where in (channel_b, fake._dm_channel(who.id)):
                for target in (game_a, lobby_a, 999):  # 999: no such game anywhere — same words
                    for sub, extra in GAME_COMMANDS.items():
                        opts = dict(extra, game=f"#{target}")
                        if sub == "admin kick":
                            opts["player"] = alice
                        if sub == "admin replace":
                            opts["new"] = who
                        it = await fake.answered(await fake.slash(who, sub.strip(), channel_id=where, **opts))
                        await fake.wait_until(lambda: running.bot.desk.busy == 0)
                        text = _refusal(fake, it)
                        assert f"There is no game #{target} here." in text, (who.name, sub, target, text)
                        refused += 1
                    for sub, focused in AUTOCOMPLETED:
                        it = await fake.answered(await fake.autocomplete(who, sub, focused, channel_id=where,
                                                                         game=f"#{target}", **{focused: ""}))
                        names = [c["name"] for c in it.callback["data"]["choices"]]
                        # nothing of that game: at most the blind deck, which every game has
                        assert names in ([], [english().t("autocomplete.deck")]), (sub, focused, names)
            # Buttons of game A's families, pressed in server B.
            for verb in BUTTON_VERBS:
                for target in (game_a, lobby_a):
                    bound = verb not in ("join", "leave", "addai", "start", "cancel", "hand", "kt", "nope",
                                         "ksel", "kdo", "keeppick", "keepok", "plan", "psel", "pblind", "ptix",
                                         "pcancel")
                    cid = f"ttr:v1:{target}:{seq if bound else 'x'}:{verb}"
                    if verb in ("do", "ask", "asel", "actionpick"):
                        cid += ":0.draw_card"
                    planted = _plant(fake, channel_b, cid, select=verb.endswith(MENUS))
                    it = await fake.answered(await fake.click(who, int(planted["id"]), cid,
                                                              ["x"] if verb.endswith(MENUS) else None))
                    await fake.wait_until(lambda: running.bot.desk.busy == 0)
                    text = _refusal(fake, it)
                    assert f"There is no game #{target} here." in text, (who.name, cid, text)
                    refused += 1
            # /ttr games lists only the caller's own games — none of A's.
            for where in (channel_b, fake._dm_channel(who.id)):
                it = await fake.answered(await fake.slash(who, "games", channel_id=where))
                assert not re.search(rf"#{game_a}\b", _refusal(fake, it))
            # /ttr results stats of another player from a DM is refused (results are per server).
            it = await fake.answered(await fake.slash(who, "results stats", channel_id=fake._dm_channel(who.id),
                                                      player=alice))
            assert "only see your own results" in _refusal(fake, it)
        assert refused > 200
        assert await _state(running, fake, watched) == before, "a refused request changed something"
        for item in fake.public:  # nothing about game A ever shows in server B
            assert not (str(channel_b) in item.where and re.search(rf"#{game_a}\b", item.text)), item

        # The control group: the same requests where they belong do work.
        it = await fake.answered(await fake.slash(eve, "status", channel_id=table.thread_id))
        assert f"Game #{game_a}" in fake.reply_messages(it)[-1]["content"]  # any member of server A may look
        it = await fake.answered(await fake.slash(alice, "hand", channel_id=dm_alice, game=f"#{game_a}"))
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        assert "Your hand" in fake.reply_messages(it)[-1]["content"]  # her own game, from her DMs
        it = await fake.answered(await fake.slash(fake.owner, "admin pause", channel_id=table.thread_id))
        assert "paused" in fake.reply_messages(it)[-1]["content"]  # A's manager, in A
        it = await fake.answered(await fake.slash(mallory, "admin resume", channel_id=dm_mallory,
                                                  game=f"#{game_a}"))
        assert f"There is no game #{game_a} here." in _refusal(fake, it)
        it = await fake.answered(await fake.click(alice, int(post["id"]), next(
            c for label, c in custom_ids(post) if c.endswith(":hand"))))
        await fake.wait_until(lambda: running.bot.desk.busy == 0)
        assert "Your hand" in fake.reply_messages(it)[-1]["content"]
    finally:
        await running.stop()
        await fake.stop()
