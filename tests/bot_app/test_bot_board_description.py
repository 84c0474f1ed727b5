"""The board picture's description for screen readers (issue 27, item 6, in today's form of the
turn post): whose turn, the last move, every player's score and trains left — public facts
only, in plain words, within Discord's 1,024 characters; the leak scan reads it too."""

from __future__ import annotations

from bot_app.presentation.board_alt import MAX_DESCRIPTION, plain
from bot_app.presentation.text import ticket_label
from bot_app.presentation.words.base import plural
from engine.maps import load_map
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import start_bot
from tests.fake_discord.leaks import public_leaks
from tests.fake_discord.renderer import StubRenderer


def test_markup_is_not_read_aloud():
    assert plain("**Ann** claimed `Paris – Wien` <@123> <t:1900000000:R>") == "Ann claimed Paris – Wien"


async def test_every_turn_posts_board_says_in_words_what_it_shows(tmp_path):
    fake = FakeDiscord()
    await fake.start()
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    running = await start_bot(fake, tmp_path / "alt.sqlite3", renderer=StubRenderer(), seed=4)
    try:
        table = await Table.open(fake, running.service, alice, [bob], variant="europe")
        table.desk = running.bot.desk
        users = [alice, bob]
        gmap = load_map("europe")
        secrets: set[str] = set()
        described = 0
        for _ in range(14):
            for u in users:
                seen = await running.service.reads.view(table.game_id, u.id)
                secrets.update(ticket_label(gmap, t) for t in list(seen.me.tickets or ())
                               + seen.pending.offer_of(seen.you))
            await table.play_one(users)
            post = table.latest_post()
            (board,) = [a for a in post["attachments"] if a["filename"] == "board.png"]
            words = board["description"]
            summary = await table.summary()
            public = (await running.service.reads.panel(table.game_id, None)).public
            assert len(words) <= MAX_DESCRIPTION
            assert words.startswith(f"Board of game #{table.game_id} (Europe), turn {public.turn + 1}.")
            for p in public.players:
                assert f"{p.name} {plural(p.route_points, 'point')}, {plural(p.trains, 'train')} left" in words
            if summary.status == "playing" and summary.waiting_for:
                assert f"Waiting for {summary.seats[summary.waiting_for[0]].name}" in words
            if "claimed" in post["content"] or "drew" in post["content"]:
                assert "Last move: " in words
            assert "**" not in words and "<@" not in words
            described += 1
        assert described == 14
        assert public_leaks(fake, secrets, pictures=False) == []
        assert any(item.where.endswith("board.png description") for item in fake.public)
        assert not fake.errors
    finally:
        await running.stop()
        await fake.stop()
