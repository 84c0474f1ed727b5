"""The bot's slash commands, as discord.py cogs loaded as extensions (bot_app.adapter.client):
`lobby` (new, join, leave), `play` (draw, claim, tickets, station, move, hand), `info` (board,
status, log, games, rules, stats), `admin` (the host's and managers' group: addai, start,
cancel, kick, pause, resume), `settings`. All are sub-commands of the one `/ttr` group; each
command reads its options and calls the desk's parts — nothing is decided here."""
