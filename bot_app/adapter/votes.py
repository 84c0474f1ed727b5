"""Voting to hand a slow player's turn to the AI: `/ttr turn vote`, and the **Vote to skip** button
of the thread's notice that a vote began (bot_app/presentation/player_posts.py). The rules of a vote are
the service's (app/seat_ops.py); this answers the voter privately, and the thread hears of
the vote and of its outcome from what the service stored."""

from __future__ import annotations

from typing import Any

import discord

from app import StaleAction
from bot_app import lang
from bot_app.adapter.buttons import _Family
from bot_app.adapter.desk import Desk
from bot_app.presentation import ids
from bot_app.presentation.answers import Refusal
from bot_app.presentation.inputs import is_number
from bot_app.presentation.player_posts import VOTE


async def vote(desk: Desk, interaction: discord.Interaction, game_id: int, seat: int | None) -> None:
    """The caller votes to hand `seat`'s turn (None: the one player the game waits for) to the
    AI now; they are told where the vote stands."""
    result = await desk.service.seats.vote_skip(game_id, interaction.user.id, seat)
    words = lang.reader()
    if result.played:
        said = words.t("notice.skipped", who=result.name)
    else:
        said = words.t("vote.in", who=result.name, votes=result.votes, needed=result.needed)
    await desk.answers.say(interaction, said)
    if result.played:
        await desk.after_move(game_id)


class VoteButton(_Family, template=ids.template((VOTE,))):
    """**Vote to skip** under the thread's notice of a vote: only for the turn it was posted in."""

    async def handle(self, desk: Desk, interaction: discord.Interaction, values: list[str]) -> None:
        cid = self.cid
        summary = await desk.service.reads.game(cid.game)
        words = lang.reader()
        if cid.seq is None or not is_number(cid.arg):
            raise Refusal(words.t("lobby.refusal.unknown_button"))
        if cid.seq != summary.seq:
            raise Refusal(words.t("vote.refusal.moved_on_since"))
        try:
            await vote(desk, interaction, cid.game, int(cid.arg))
        except StaleAction:
            raise Refusal(words.t("vote.refusal.moved_on")) from None


FAMILIES: tuple[type[Any], ...] = (VoteButton,)
