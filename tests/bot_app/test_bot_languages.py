"""End to end, through the real client and the fake Discord: a table opened on a German server
plays in German — the lobby, the thread's posts and buttons — while each player's private
answers are in their own Discord language (a refusal in French for a French player)."""

from __future__ import annotations

from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table, _cid
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer


def _labels(components: list[dict]) -> list[str]:
    """Every button's label, however deep its layout holds it."""
    out = []
    for c in components:
        if "label" in c:
            out.append(c["label"])
        out += _labels(c.get("components") or [])
    return out


class GermanTable(Table):
    move_word = "Zug"


async def test_a_german_servers_table_speaks_german_and_a_french_player_is_answered_in_french(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    fake.guild_locales[fake.guild_id] = "de"
    anna = fake.add_user("Anna")
    anna.locale = "de"
    marc = fake.add_user("Marc")
    marc.locale = "fr"
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=StubRenderer(), seed=3)
    try:
        table = await GermanTable.open(fake, running.service, anna, [marc], variant="usa")
        table.desk = running.bot.desk
        assert "🗣️ Deutsch" in fake.messages[table.lobby_message]["content"]
        first = table.latest_post()
        assert "Start-Zielkarten" in first["content"] and "Offen:" in first["content"], first["content"]
        for _ in range(2):  # both choose their opening tickets
            await table.play_one([anna, marc])
        post = table.latest_post()
        summary = await table.summary()
        assert "du bist am Zug" in post["content"], post["content"]
        labels = _labels(post["components"])
        assert "Ziehen" in labels and "Meine Hand" in labels, labels
        waiting = table.user_of([anna, marc], summary.waiting_for[0], summary)
        other = marc if waiting is anna else anna
        it = await fake.answered(await fake.click(other, int(post["id"]), _cid(post, ":draw")))
        refusal = fake.reply_messages(it)[-1]["content"]
        if other is marc:
            assert refusal.startswith("🚫 Ce n'est pas votre tour dans la partie"), refusal
        else:
            assert refusal.startswith("🚫 In Spiel") and "nicht am Zug" in refusal, refusal
        # Anna chooses French for herself: her answers and her hand are in French from now on,
        # the thread stays German.
        it = await fake.answered(await fake.slash(anna, "settings", language="fr"))
        assert "Vos réponses et messages privés sont désormais en" in fake.reply_messages(it)[-1]["content"]
        it = await fake.answered(await fake.slash(anna, "hand", channel_id=table.thread_id))
        hand = await fake.wait_until(lambda: [m for m in fake.reply_messages(it) if m["content"]])
        assert hand[-1]["content"].startswith(f"**Votre main dans la partie #{table.game_id}**"), hand[-1]["content"]
        assert "du bist am Zug" in table.latest_post()["content"] or "Zug" in table.latest_post()["content"]
    finally:
        await running.stop()
