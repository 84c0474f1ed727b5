"""Fuzz: 2,000 random interactions (TTR_FUZZ_N for more) against a running game through the real client and the
fake Discord — any command with garbage options, random users (players, a bystander),
random channels, presses on any component ever posted (stale ones included) with random menu
values, autocomplete (a tenth of the texts a Unicode digit or number where numbers go) — mixed
with real moves so the game goes through all its phases.

Checked after every interaction: it was answered; a refusal changed nothing (every game's
status, seq, seats and waiting list are as before); no error was logged anywhere.
Pictures come from the documented stub renderer (tests.fake_discord.renderer.StubRenderer): the
fuzz is about the glue, and the E2E test renders for real."""

from __future__ import annotations

import dataclasses
import logging
import os
import random

from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.hostile import NUMBER_CHARACTERS, NUMBER_SHAPES, WHOLE_SHAPES, ErrorRecords
from tests.fake_discord.renderer import StubRenderer
from tests.fake_discord.server import walk

# 2,000 reach every command, every option and every kind of component many times over (checked
# below); a deeper run is TTR_FUZZ_N=100000, not the suite's job.
N = int(os.environ.get("TTR_FUZZ_N", "2000"))
COMMANDS = {
    "new": ["variant", "dice", "seats", "turn_hours", "first", "stations", "controller_tunnel", "dice_tokens",
            "tunnel_dice", "nine_route"], "join": ["game"], "leave": ["game"],
    "admin addai": ["game", "level"], "admin start": ["game"], "admin cancel": ["game"], "draw": ["card", "game"],
    "claim": ["route", "payment", "game"], "tickets": ["short", "long", "game"],
    "station": ["city", "payment", "game"], "move": ["action", "game"], "hand": ["game"], "board": ["game"],
    "status": ["game"], "log": ["game"], "games": [], "rules": ["topic", "variant", "dice", "game", "lesson"],
    "results stats": [], "results replay": ["game"], "results leaderboard": ["variant", "season"],
    "settings": ["dms", "colorblind", "hand_picture", "timezone", "quiet_hours", "vacation_days", "digest"],
    "admin kick": ["player", "game"], "admin pause": ["game"], "admin resume": ["game"],
    "admin replace": ["player", "new", "game"], "turn vote": ["player", "game"], "turn undo": ["game"],
    "turn hint": ["game"],
}
NUMERIC = {"seats", "short", "long", "dice_tokens", "tunnel_dice", "vacation_days", "season"}
# (command, option) pairs Discord always sends.
REQUIRED = {("claim", "route"), ("station", "city"), ("admin kick", "player"), ("move", "action"),
            ("admin replace", "player"), ("admin replace", "new")}
USER_OPTIONS = {"player", "new"}
WORDS = ["deck", "1", "5", "9", "red", "loco", "Paris", "paris - wien", "Wien – München", "#1", "1", "2", "999999",
         "", " ", "'; DROP TABLE games;--", "🚂" * 30, "x" * 150, "loco1.red3", "red99", "europe", "usa", "greedy",
         "random", "-1", "0", "build", "remove", "Berlin", "ttr:v1:1:0:do:0.draw_card", "null", "None", "as_8",
         "disabled", "locomotive_only", "as_locomotive_reveal"]



def _garbage(rng: random.Random, name: str) -> object:
    if name in NUMERIC:
        return rng.choice([0, 1, 2, 3, 4, 5, -3, 99, 2**40])
    if name in ("dice", "dms", "stations", "colorblind", "hand_picture"):
        return rng.random() < 0.5
    if name == "turn_hours":
        return rng.choice([0.5, 1.0, 48.0, -1.0, 1e9])
    r = rng.random()
    if r < 0.6:
        return rng.choice(WORDS)
    if r < 0.7:  # a Unicode digit or number where players type numbers ("Wien - München ²", "#٣", "Ⅻ")
        prefix, shape = rng.choice([*NUMBER_SHAPES, *(("", w) for w in WHOLE_SHAPES)])
        return prefix + shape.format(rng.choice(NUMBER_CHARACTERS))
    return "".join(chr(rng.randrange(32, 0x2FFF)) for _ in range(rng.randrange(0, 40)))


async def test_fuzz_random_interactions(tmp_path):
    errors = ErrorRecords()
    logging.getLogger().addHandler(errors)
    fake = FakeDiscord()
    await fake.start()
    alice, bob, carol = fake.add_user("Alice"), fake.add_user("Bob", dms_closed=True), fake.add_user("Carol")
    users = [alice, bob, carol]
    running = await start_bot(fake, tmp_path / "fuzz.sqlite3", renderer=StubRenderer())
    service = running.service
    rng = random.Random(20240601)
    try:
        table = await Table.open(fake, service, alice, [bob])
        table.desk = running.bot.desk

        async def snapshot() -> list[tuple]:
            out = []
            gid = 1
            while True:
                try:
                    s = await service.reads.game(gid)
                except Exception:
                    break
                # Leaving out absence — any game command, even a refused one, brings an absent
                # player back (the rule of DISCORD_UX.md's timers) — and whether DMs are closed,
                # which the dispatcher learns from Discord whenever an earlier DM goes out.
                seats = tuple(dataclasses.replace(x, absent_turns=0, stand_in=None, dm_closed=False)
                              for x in s.seats)
                out.append((s.game_id, s.status, s.seq, seats, s.waiting_for))
                gid += 1
            return out

        ttr = next(c for c in fake.commands if c["name"] == "ttr")
        leaves = [(sub["name"], sub) for sub in ttr["options"] if sub["type"] == 1]
        leaves += [(f"{group['name']} {sub['name']}", sub) for group in ttr["options"] if group["type"] == 2
                   for sub in group["options"]]
        autocompleted = [(name, o["name"]) for name, sub in leaves for o in sub.get("options", [])
                         if o.get("autocomplete")]
        assert len(autocompleted) > 20
        refusals = answered = moves = 0
        commands_sent: set[str] = set()
        clicked: set[str] = set()
        for _ in range(N):
            if (await table.summary()).status == "over":
                for g in await service.reads.games_of(alice.id):  # a fuzzed /ttr new may hold the channel
                    if g.status == "lobby" and g.seats and g.seats[0].user_id == alice.id:
                        await service.tables.cancel_lobby(g.game_id, alice.id)
                table = await Table.open(fake, service, alice, [bob])
                table.desk = running.bot.desk
            if rng.random() < 0.04 and (await table.summary()).status in ("setup", "playing"):
                await table.play_one(users)  # a real move (a fuzzed /ttr admin replace may seat Carol)
                moves += 1
                continue
            before = await snapshot()
            user = rng.choice(users)
            channel = rng.choice([table.thread_id, fake.channel_id])
            r = rng.random()
            if r < 0.45:
                sub = rng.choice(list(COMMANDS))
                opts = {}
                for name in COMMANDS[sub]:
                    if rng.random() < 0.6 or (sub, name) in REQUIRED:
                        opts[name] = (rng.choice(users) if name in USER_OPTIONS and sub != "admin replace"
                                      or name == "new" else _garbage(rng, name))
                it = await fake.slash(user, sub, channel_id=channel, **opts)
                commands_sent.add(sub)
            elif r < 0.55:
                # Discord only asks to autocomplete options declared with autocomplete.
                sub, focused = rng.choice(autocompleted)
                it = await fake.autocomplete(user, sub, focused, channel_id=channel,
                                             **{focused: str(_garbage(rng, "x"))})
            else:
                # a layout's buttons are nested in its container; a layout may have none left
                pressable = [(m, comps) for m in fake.messages_with_components()
                             if (comps := [c for c in walk(m["components"]) if c.get("custom_id")])]
                msg, comps = rng.choice(pressable)
                comp = rng.choice(comps)
                values = None
                if comp.get("type") == 3:
                    opts_ = [o["value"] for o in comp.get("options", [])]
                    values = rng.sample(opts_, k=min(len(opts_), rng.randrange(1, 3))) if opts_ and rng.random() < 0.8 \
                        else [str(_garbage(rng, "x"))[:100]]
                it = await fake.click(user, int(msg["id"]), comp["custom_id"], values)
                parts = comp["custom_id"].split(":")  # ttr:v1:<game>:<seq>:<verb>[:<arg>]
                clicked.add(parts[4] if len(parts) > 4 else comp["custom_id"])
            await fake.answered(it, timeout=10)
            await fake.wait_until(lambda: running.bot.desk.busy == 0)  # the move's public tail is done
            answered += 1
            text = " ".join(m["content"] for m in fake.reply_messages(it))
            if it.kind != "autocomplete" and text.startswith("🚫"):
                refusals += 1
                after = await snapshot()
                assert after == before, f"a refusal changed the state: {it.payload['data']} → {text}"
            if it.kind == "autocomplete":
                assert len(it.callback["data"]["choices"]) <= 25
        assert answered + moves >= N * 0.9
        assert commands_sent == set(COMMANDS)  # every command met garbage
        assert len(clicked) >= 5, clicked  # buttons and menus of several kinds were pressed
        assert refusals > N // 10
        assert not fake.errors, fake.errors[:5]
        assert not errors.records, [r.getMessage() for r in errors.records[:5]]
        for it in fake.interactions.values():
            assert it.answered_at is not None
    finally:
        logging.getLogger().removeHandler(errors)
        await running.stop()
        await fake.stop()
