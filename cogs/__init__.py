"""The bot's slash commands: one `/ttr` group whose commands live in four thin modules —
`lobby` (new, join, leave, addai, start, cancel), `play` (draw, claim, tickets, station,
controller, burn, roll, calltime, pass, hand), `info` (board, status, log, games, rules,
stats) and `admin` (kick, pause, resume). Each reads the interaction and calls the desk
(`bot_app.desk`). `build_group` makes a fresh group per bot, so two bots in one process
(the restart test) do not share command objects."""

from __future__ import annotations

from discord import app_commands

from cogs import admin, info, lobby, play


def build_group() -> app_commands.Group:
    group = app_commands.Group(name="ttr", description="Ticket to Ride")
    for module in (lobby, play, info, admin):
        module.register(group)
    return group
