"""Everyone hears that a game ended, end to end through the real client and the fake Discord
(issue 27, item 4): the final move owes each person who played the news — the result, their
place and score, a link to the final post — as a stored delivery, sent by the dispatcher after
the final post (here by a bot started only after the game ended: nothing comes from memory):

- a player with open DMs gets a direct message;
- a player whose DMs are known to be closed gets a mention in the thread instead;
- a player whose DMs closed since (Discord answers 50007) gets that mention too;
- a player who takes a daily digest gets the news in their next digest, once, whatever
  restarts;
- the news is public information only (the leak scan over everything public).
On SQLite and on PostgreSQL."""

from __future__ import annotations

import re

from ai.levels import make_ai
from app import Actor, GameService
from app.owed import DIGEST_HOLD, GAME_OVER
from bot_app.presentation.text import ticket_label
from engine.maps import load_map
from tests.clock import BERLIN, at
from tests.fake_discord import FakeDiscord
from tests.fake_discord.driver import Table
from tests.fake_discord.harness import Clock, RunningBot, start_bot
from tests.fake_discord.leaks import public_leaks
from tests.fake_discord.renderer import StubRenderer


async def _idle(fake: FakeDiscord, running: RunningBot) -> None:
    running.service.deliveries_waiting.set()  # the dispatcher sleeps by the real clock: wake it
    await fake.wait_until(lambda: running.bot.desk.busy == 0)


async def _finish_offline(database, clock: Clock, game_id: int) -> dict[int, int]:
    """The players play the greedy AI's moves to the end through a service of its own, while
    no bot runs (what the moves owe waits in the database). Returns each seat's final total."""
    service = await GameService.open(database.target, clock=clock)
    try:
        ai = make_ai("greedy", 5)
        while (summary := await service.reads.game(game_id)).status != "over":
            seat = summary.waiting_for[0]
            user = summary.seats[seat].user_id
            view = await service.reads.view(game_id, user)
            legal = await service.reads.legal_actions(game_id, user)
            await service.moves.submit(game_id, Actor.user(user), ai.choose(view, legal), summary.seq)
        result = (await service.reads.view(game_id, None)).result or {}
        return {int(s["seat"]): int(s["total"]) for s in result["sheets"]}
    finally:
        await service.close()


def _place(totals: dict[int, int], winners: set[int], seat: int) -> int:
    if seat in winners:
        return 1
    return 1 + sum(1 for s, t in totals.items() if s in winners or t > totals[seat])


async def test_every_player_hears_the_result_by_dm_mention_or_digest(database):
    fake = FakeDiscord()
    await fake.start()
    alice, bob, carol, dave = (fake.add_user("Alice"), fake.add_user("Bob", dms_closed=True), fake.add_user("Carol"),
                               fake.add_user("Dave"))
    users = [alice, bob, carol, dave]
    clock = Clock(at(2024, 6, 3, 12, 0))
    running = await start_bot(fake, database.target, renderer=StubRenderer(), clock=clock)
    try:
        it = await fake.answered(await fake.slash(carol, "settings", timezone=BERLIN, digest="9"))
        assert "One DM a day at 09:00" in fake.reply_messages(it)[-1]["content"]
        table = await Table.open(fake, running.service, alice, [bob, carol, dave], variant="usa")
        table.desk = running.bot.desk
        while (await table.summary()).status == "setup":
            await table.play_one(users)
        await _idle(fake, running)
        g = table.game_id
        seats = {s.user_id: s.seat for s in (await table.summary()).seats}
        secrets = [t for u in users for t in await _tickets_in_words(running.service, g, u.id)]
        await running.stop()

        # The game ends while no bot runs; Dave closes his DMs meanwhile (the bot does not know).
        totals = await _finish_offline(database, clock, g)
        dave.dms_closed = True
        alice_before, dave_dm_posts = len(fake.dms_to(alice)), fake.count("POST", r"/channels/\d+/messages")
        running = await start_bot(fake, database.target, renderer=StubRenderer(), clock=clock)
        final = await fake.wait_until(lambda: [m for m in fake.thread_messages(table.thread_id)
                                               if "Final scores" in m["content"]])
        await _idle(fake, running)
        await fake.wait_until(lambda: len(_mentions(fake, table)) == 2)
        await _idle(fake, running)
        view = await running.service.reads.view(g, None)
        winners = set((view.result or {}).get("winners", []))
        link = f"https://discord.com/channels/{fake.guild_id}/{table.thread_id}/{final[0]['id']}"

        def says_place(text: str, user) -> bool:
            seat = seats[user.id]
            place = _place(totals, winners, seat)
            words = "you won with" if place == 1 else f"you came {place}"
            return words in text and f"{totals[seat]} points" in text and link in text

        # Alice: one DM, after the final post, with her place, her score and the link.
        news = [m for m in fake.dms_to(alice)[alice_before:] if "is over" in m["content"]]
        assert len(news) == 1 and says_place(news[0]["content"], alice), news
        assert f"Game #{g} · USA is over" in news[0]["content"]
        assert int(news[0]["id"]) > int(final[0]["id"])
        # Bob (DMs known closed) and Dave (closed since: refused with 50007): a mention each,
        # pinging only them; no "your hand stays here" notice at a game that is over.
        mentions = _mentions(fake, table)
        for user in (bob, dave):
            mine = [m for m in mentions if f"<@{user.id}>" in m["content"]]
            assert len(mine) == 1 and says_place(mine[0]["content"], user), mentions
            assert [int(u) for u in fake.allowed_mentions[int(mine[0]["id"])]["users"]] == [user.id]
        assert not [m for m in fake.thread_messages(table.thread_id)[-6:] if "can't send you direct" in m["content"]
                    and f"<@{dave.id}>" in m["content"]]
        assert not [m for m in fake.dms_to(dave) if "is over" in m["content"]]
        assert fake.count("POST", r"/channels/\d+/messages") > dave_dm_posts
        # Carol takes a daily digest: her news waits for it, stored.
        assert not [m for m in fake.dms_to(carol) if "over" in m["content"] or "ended" in m["content"]]
        held = [d for d in await running.service.outbox.deliveries(g, "pending") if d.kind == GAME_OVER]
        assert [d.user_id for d in held] == [carol.id] and held[0].payload.get("digest") is True
        row = await running.service.store.deliveries.get(held[0].id)
        assert row is not None and row.due_at == at(2024, 6, 4, 9, 0) + DIGEST_HOLD

        # Her digest at 09:00 the next morning carries it; restarts send nothing more.
        clock.now = at(2024, 6, 4, 9, 0)
        await running.bot.timer_loop.run_once()
        await fake.wait_until(lambda: [m for m in fake.dms_to(carol) if "daily digest" in m["content"]])
        await _idle(fake, running)
        digest = [m for m in fake.dms_to(carol) if "daily digest" in m["content"]]
        assert len(digest) == 1 and f"Game #{g} · USA ended" in digest[0]["content"]
        assert says_place(digest[0]["content"], carol), digest[0]["content"]
        await running.stop()
        running = await start_bot(fake, database.target, renderer=StubRenderer(), clock=clock)
        await running.bot.timer_loop.run_once()
        await _idle(fake, running)
        assert len([m for m in fake.dms_to(carol) if "ended" in m["content"]]) == 1
        assert len([m for m in fake.dms_to(alice) if "is over" in m["content"]]) == 1
        assert len(_mentions(fake, table)) == 2
        assert [d for d in await running.service.outbox.deliveries(g, "pending") if d.kind == GAME_OVER] == []
        # Nothing secret reached a public message (the final post reveals the tickets on purpose).
        # (its text may run on in a second message): the news mentions are scanned like the rest.
        news_ids = {int(m["id"]) for m in _mentions(fake, table)}
        revealed = [int(m["id"]) for m in fake.thread_messages(table.thread_id)
                    if int(m["id"]) >= int(final[0]["id"]) and int(m["id"]) not in news_ids]
        assert public_leaks(fake, secrets, revealed_in=revealed, pictures=False) == []
    finally:
        await running.stop()
        await fake.stop()


def _mentions(fake: FakeDiscord, table: Table) -> list[dict]:
    return [m for m in fake.thread_messages(table.thread_id) if re.match(r"🏁 <@\d+>, game #\d+ is over", m["content"])]


async def _tickets_in_words(service, game_id: int, user_id: int) -> list[str]:
    """A player's tickets as words (their secret while the game is played)."""
    view = await service.reads.view(game_id, user_id)
    game_map = load_map(view.map_id)
    return [ticket_label(game_map, t) for t in (view.me.tickets or ())] if view.me else []
