"""Playing through the fake like a person: open a lobby, press buttons, pick from menus,
confirm. The test decides WHAT to play with the engine's greedy AI (reading the service as an
omniscient referee); HOW it is played is only through Discord interactions."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from ai.levels import make_ai
from engine.actions import Action

from .server import FakeDiscord, Interaction, User, custom_ids, select_options

DEADLINE = 3.0  # Discord's: answer an interaction within 3 seconds


class Table:
    """One game played through the fake by human users."""

    def __init__(self, fake: FakeDiscord, service: Any, game_id: int, thread_id: int, lobby_message: int) -> None:
        self.fake = fake
        self.service = service
        self.game_id = game_id
        self.thread_id = thread_id
        self.lobby_message = lobby_message
        self.ai = make_ai("greedy", 7)
        self.use_commands = False  # alternate between buttons and slash commands
        self.desk: Any = None  # the running bot's desk: when set, wait until it is idle after a move

    # How the turn post's head says "move" (a subclass for a table in another language).
    move_word = "move"

    # ---------------------------------------------------------------- opening

    @classmethod
    async def open(cls, fake: FakeDiscord, service: Any, host: User, others: list[User], variant: str = "europe",
                   ai_seats: int = 0, dice: bool = False, **table: Any) -> Table:
        """A table opened with /ttr new (`table`: more of its options, e.g. tunnel_dice=3) and started."""
        options: dict[str, Any] = {"dice": True} if dice else {}
        options.update(table)
        it = await fake.answered(await fake.slash(host, "new", variant=variant, seats=1 + len(others) + ai_seats,
                                                  **options))
        lobby_id = it.original_id
        assert lobby_id is not None
        thread_id = await fake.wait_until(lambda: next((int(c["id"]) for c in fake.channels.values()
                                                        if c["type"] == 11 and int(c["id"]) == lobby_id), None))
        game_id = int(re.search(r"#(\d+)", fake.messages[lobby_id]["content"]).group(1))
        await fake.wait_until(lambda: "<#" in fake.messages[lobby_id]["content"])  # the thread, in any language
        for u in others:
            await fake.answered(await fake.click(u, lobby_id, _cid(fake.messages[lobby_id], ":join")))
        for _ in range(ai_seats):
            await fake.answered(await fake.click(host, lobby_id, _cid(fake.messages[lobby_id], ":addai")))
        table = cls(fake, service, game_id, thread_id, lobby_id)
        await fake.answered(await fake.click(host, lobby_id, _cid(fake.messages[lobby_id], ":start")))
        await table.wait_posted()
        return table

    # ---------------------------------------------------------------- state

    async def summary(self) -> Any:
        return await self.service.reads.game(self.game_id)

    def latest_post(self) -> dict[str, Any] | None:
        posts = [m for m in self.fake.thread_messages(self.thread_id) if f"· {self.move_word} " in m["content"]]
        return posts[-1] if posts else None

    async def wait_posted(self, timeout: float = 20.0) -> dict[str, Any]:
        """Wait until the thread shows the game's current move (or its end). The game may move
        on meanwhile (computer players), so the move is read again at every look."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            seq = (await self.summary()).seq
            post = self.latest_post()
            if post is not None and re.search(rf"· {self.move_word} {seq}\b", post["content"]):
                return post
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"game {self.game_id} is at move {seq}, its thread shows "
                                     f"{post['content'][:300] if post else None!r}")
            await asyncio.sleep(0.005)

    def user_of(self, users: list[User], seat: int, summary: Any) -> User:
        uid = summary.seats[seat].user_id
        return next(u for u in users if u.id == uid)

    # ---------------------------------------------------------------- playing one decision

    async def play_one(self, users: list[User]) -> list[Interaction]:
        """The waiting player makes the move the greedy AI would, through the UI."""
        summary = await self.summary()
        seat = summary.waiting_for[0]
        user = self.user_of(users, seat, summary)
        view = await self.service.reads.view(self.game_id, user.id)
        legal = await self.service.reads.legal_actions(self.game_id, user.id)
        action = self.ai.choose(view, legal)
        its = await self.perform(user, action, legal, summary.seq)
        await self.wait_posted()
        if self.desk is not None:  # DMs and timers come after the post
            await self.fake.wait_until(lambda: self.desk.busy == 0)
        return its

    async def perform(self, user: User, action: Action, legal: list[Action], seq: int) -> list[Interaction]:
        fake = self.fake
        post = self.latest_post()
        assert post is not None
        token = f"{legal.index(action)}.{action.TYPE}"
        t = action.TYPE
        its: list[Interaction] = []

        async def go(it: Interaction) -> dict[str, Any]:
            await fake.answered(it)
            its.append(it)
            msgs = fake.reply_messages(it)
            assert msgs, f"no answer to {it.payload['data']}"
            return msgs[-1]

        self.use_commands = not self.use_commands
        if t == "keep_tickets":
            panel = await go(await fake.click(user, int(post["id"]), _cid(post, ":kt")))
            sel, _, _ = select_options(panel)[0]
            panel = await go(await fake.click(user, int(panel["id"]), sel, list(action.to_json()["keep"])))
            await go(await fake.click(user, int(panel["id"]), _cid(panel, ":keepok:")))
            return its
        if t == "draw_card":
            if self.use_commands:
                slot = action.to_json().get("slot")
                await go(await fake.slash(user, "draw", channel_id=self.thread_id,
                                          card="deck" if slot is None else str(slot + 1)))
                return its
            panel = await go(await fake.click(user, int(post["id"]), _cid(post, f":{seq}:draw")))
            await go(await fake.click(user, int(panel["id"]), _cid(panel, f":do:{token}")))
            return its
        if t == "claim_route" and self.use_commands:
            data = action.to_json()
            from bot_app.presentation.moves_text import payment_code

            panel = await go(await fake.slash(user, "claim", channel_id=self.thread_id, route=data["route"],
                                              payment=payment_code(data["payment"])))
            await go(await fake.click(user, int(panel["id"]), _cid(panel, f":do:{token}")))
            return its
        if t in ("claim_route", "build_station"):
            verb = "claim" if t == "claim_route" else "stn"
            key = action.to_json()["route" if t == "claim_route" else "city"]
            panel = await go(await fake.click(user, int(post["id"]), _cid(post, f":{seq}:{verb}")))
            for _ in range(20):  # page until the group is listed
                opts = [(c, v) for c, v, _ in select_options(panel) if v == key]
                if opts:
                    break
                more = [c for label, c in custom_ids(panel) if label.startswith("More")]
                assert more, f"{key} is not offered"
                panel = await go(await fake.click(user, int(panel["id"]), more[0]))
            panel = await go(await fake.click(user, int(panel["id"]), opts[0][0], [key]))
            if select_options(panel):
                sel = select_options(panel)[0][0]
                panel = await go(await fake.click(user, int(panel["id"]), sel, [token]))
            await go(await fake.click(user, int(panel["id"]), _cid(panel, f":do:{token}")))
            return its
        # a move with a button of its own (Give up, Call time, No action …): it, then Confirm
        asks = [c for _, c in custom_ids(post) if c.endswith(f":{seq}:ask:{token}")]
        if asks:
            panel = await go(await fake.click(user, int(post["id"]), asks[0]))
            await go(await fake.click(user, int(panel["id"]), _cid(panel, f":do:{token}")))
            return its
        # tickets and everything else: the button for its type, maybe a menu, then Confirm
        verb = f":{seq}:tix" if t == "draw_tickets" else f":{seq}:rulemove:{t}"
        if t == "draw_tickets" and not any(c.endswith(verb) for _, c in custom_ids(post)):
            verb = ":kt"  # an announced opening deal (Germany): the mix is chosen under Choose tickets
        panel = await go(await fake.click(user, int(post["id"]), _cid(post, verb)))
        if select_options(panel):
            sel = select_options(panel)[0][0]
            panel = await go(await fake.click(user, int(panel["id"]), sel, [token]))
        await go(await fake.click(user, int(panel["id"]), _cid(panel, f":do:{token}")))
        return its


def _cid(message: dict[str, Any], fragment: str) -> str:
    found = [c for _, c in custom_ids(message) if fragment in c]
    assert found, f"no component with {fragment!r} in {custom_ids(message)} ({message.get('content', '')[:200]!r})"
    return found[0]
