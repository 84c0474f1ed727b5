"""The table around the game in the players' languages, through the real client and the fake
Discord (issue 28): a Swedish player's tutorial is told in Swedish, its Hint button too; a
Russian table's lobby lists its options in Russian, while a Swedish player there is completed,
planned for and refused in Swedish."""

from __future__ import annotations

from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table, _cid
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
        assert step["content"].startswith("Välkommen till Ticket to Ride! Du spelar på kartan USA mot en datorspelare.")
        assert "📘 **Övning · steg 1 av 6** — **Välj dina biljetter.**" in step["content"]
        assert "Tips" in _labels(step["components"])
    finally:
        await running.stop()


class RussianTable(Table):
    move_word = "ход"


async def test_a_russian_table_lists_its_options_and_completes_in_the_readers_language(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    fake.guild_locales[fake.guild_id] = "ru"
    olga = fake.add_user("Olga")
    olga.locale = "ru"
    nils = fake.add_user("Nils")
    nils.locale = "sv-SE"
    running = await start_bot(fake, tmp_path / "ttr.sqlite3", renderer=StubRenderer(), seed=3)
    try:
        table = await RussianTable.open(fake, running.service, olga, [nils], variant="europe", undo=False)
        lobby = fake.messages[table.lobby_message]["content"]
        assert "ходы не отменяются" in lobby and "первый игрок: по жребию" in lobby, lobby
        assert "отпуск до 7 дней" in lobby, lobby
        it = await fake.answered(await fake.autocomplete(nils, "draw", "card", channel_id=table.thread_id, card=""))
        names = [c["name"] for c in it.callback["data"]["choices"]]
        assert names and all(n == "Leken (dolt)" or n.startswith("Plats ") for n in names), names
        it = await fake.answered(await fake.autocomplete(olga, "claim", "route", channel_id=table.thread_id,
                                                         route="Wien"))
        choices = it.callback["data"]["choices"]
        assert {"name": "München – Wien (3 оранжевый)", "value": "munchen-wien"} in choices, choices
        # The plan panel, privately in the presser's language (the button itself in the table's).
        for _ in range(2):  # both choose their opening tickets
            await table.play_one([olga, nils])
        summary = await table.summary()
        idle = nils if table.user_of([olga, nils], summary.waiting_for[0], summary) is olga else olga
        post = table.latest_post()
        it = await fake.answered(await fake.click(idle, int(post["id"]), _cid(post, ":plan")))
        panel = fake.reply_messages(it)[-1]
        said = "Du har ingen plan i spel #" if idle is nils else "У вас нет плана в игре #"
        assert panel["flags"] & 64 and said in panel["content"], panel["content"]
        it = await fake.answered(await fake.slash(nils, "plan", channel_id=table.thread_id, what="set",
                                                  plan="if raining: draw blind"))
        refusal = fake.reply_messages(it)[-1]["content"]
        assert "Jag förstår inte villkoret" in refusal, refusal
    finally:
        await running.stop()
