"""The table around the game in the players' languages, through the real client and the fake
Discord (issue 28): a Swedish player's tutorial is told in Swedish, its Hint button too."""

from __future__ import annotations

from tests.fake_discord import FakeDiscord
from tests.fake_discord.harness import start_bot
from tests.fake_discord.renderer import StubRenderer


def _labels(components: list[dict]) -> list[str]:
    out = []
    for c in components:
        if "label" in c:
            out.append(c["label"])
        out += _labels(c.get("components") or [])
    return out


async def test_a_swedish_players_tutorial_is_told_in_swedish(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    sara = fake.add_user("Sara")
    sara.locale = "sv-SE"
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=StubRenderer(), seed=3)
    try:
        it = await fake.answered(await fake.slash(sara, "rules", lesson="usa"))
        await fake.wait_until(lambda: running.bot.desk.busy == 0, timeout=20)
        assert fake.reply_messages(it)[-1]["content"].startswith("📘 Din övning (spel #")
        thread_id = next(int(c["id"]) for c in fake.channels.values() if c["type"] == 12)
        await fake.wait_until(lambda: any("📘 **Övning" in m["content"] for m in fake.thread_messages(thread_id)))
        step = next(m for m in fake.thread_messages(thread_id) if "📘 **Övning" in m["content"])
        assert step["content"].startswith("Välkommen till Ticket to Ride! Du spelar USA mot en datorspelare.")
        assert "📘 **Övning · steg 1 av 6** — **Välj dina biljetter.**" in step["content"]
        assert "Tips" in _labels(step["components"])
    finally:
        await running.stop()
