"""`/ttr rules` in a game's thread (cogs/info.py) shows that game's rules: every table option a
host can choose, at every variant with and without dice, reaches the topic it changes, the
title names the options that are not the default, and the topic autocomplete lists that game's
topics (issue 24)."""

from __future__ import annotations

from bot_app.presentation.rules_text import rules_for
from bot_app.presentation.table_options import BY_KEY
from tests.bot_app.test_rules_text import CASES, _said
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer


def _one_value_each() -> list[tuple[str, bool, str, object]]:
    """One non-default value of every option at every table it applies to."""
    seen: set[tuple[str, bool, str]] = set()
    out = []
    for variant, dice, key, value in CASES:
        if (variant, dice, key) not in seen:
            seen.add((variant, dice, key))
            out.append((variant, dice, key, value))
    return out


async def test_rules_in_a_games_thread_follow_all_of_the_tables_options(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    host = fake.add_user("Host")
    running = await start_bot(fake, tmp_path / "rules.sqlite3", renderer=StubRenderer(), seed=24)
    try:
        tables = _one_value_each()
        assert {key for _, _, key, _ in tables} == set(BY_KEY)  # every option of /ttr new is covered
        for variant, dice, key, value in tables:
            option = BY_KEY[key]
            table = await Table.open(fake, running.service, host, [], variant=variant, ai_seats=1, dice=dice,
                                     **{option.name: value})
            said = _said(key, value, dice)
            for topic, fragment in said.items():
                it = await fake.answered(await fake.slash(host, "rules", channel_id=table.thread_id, topic=topic))
                reply = fake.reply_messages(it)[-1]["content"]
                where = (variant, dice, key, value, topic)
                assert fragment in reply, (where, reply)
                view = await running.service.reads.view(table.game_id, None)
                assert rules_for(variant, topic, view.options, len(view.players)) in reply, where
                assert f"— game #{table.game_id}" in reply.splitlines()[0], where
                assert f"{option.title}: {option.words(value)}" in reply.splitlines()[0], (where, reply)
            # Named explicitly, another variant's rules are that variant's defaults.
            it = await fake.answered(await fake.slash(host, "rules", channel_id=table.thread_id, topic="turn",
                                                      variant="usa"))
            assert "(this table" not in fake.reply_messages(it)[-1]["content"]
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()


async def test_rules_in_a_games_thread_say_whether_moves_can_be_taken_back_and_list_its_topics(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    host = fake.add_user("Host")
    running = await start_bot(fake, tmp_path / "undo.sqlite3", renderer=StubRenderer(), seed=24)
    try:
        strict = await Table.open(fake, running.service, host, [], variant="ussr", ai_seats=1, undo=False)
        it = await fake.answered(await fake.slash(host, "rules", channel_id=strict.thread_id, topic="turn"))
        reply = fake.reply_messages(it)[-1]["content"]
        assert "(this table: no taking back moves)" in reply.splitlines()[0]
        assert "At this table a move cannot be taken back" in reply and "**Undo**" not in reply
        usual = await Table.open(fake, running.service, host, [], variant="germany", ai_seats=1, dice=True)
        it = await fake.answered(await fake.slash(host, "rules", channel_id=usual.thread_id, topic="turn"))
        reply = fake.reply_messages(it)[-1]["content"]
        assert "**Undo** (the button, or /ttr turn undo) takes back your last **Claim** move" in reply
        assert "has no taking back" not in reply and "(this table" not in reply
        # The topic autocomplete lists the topics of the thread's game (or of the game named).
        listed = {}
        for name, table in (("ussr", strict), ("germany-dice", usual)):
            it = await fake.answered(await fake.autocomplete(host, "rules", "topic", channel_id=table.thread_id,
                                                             topic=""))
            listed[name] = [c["value"] for c in it.callback["data"]["choices"]]
        assert "controller" in listed["ussr"] and "dice" not in listed["ussr"]
        assert "dice" in listed["germany-dice"] and "passengers" in listed["germany-dice"]
        assert "controller" not in listed["germany-dice"] and "cards" not in listed["germany-dice"]
        it = await fake.answered(await fake.autocomplete(host, "rules", "topic", channel_id=fake.channel_id,
                                                         topic="", game=str(strict.game_id)))
        assert [c["value"] for c in it.callback["data"]["choices"]] == listed["ussr"]
        it = await fake.answered(await fake.autocomplete(host, "rules", "topic", channel_id=strict.thread_id,
                                                         topic="", variant="usa"))
        assert "controller" not in [c["value"] for c in it.callback["data"]["choices"]]
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
