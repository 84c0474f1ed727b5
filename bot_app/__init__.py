"""The bot, in three rooms for its three jobs (docs/architecture.md, "bot_app/"): `adapter/`
(what Discord calls and the answer: the client, the tree, the button families, the desk),
`delivery/` (what the bot sends unasked: the dispatcher, the timers) and `presentation/` (what
players read and type: posts, panels, words). Configuration, logging, the catalogues (`lang/`)
and the demo sit here, in no room. The cogs in `cogs/` stay thin and call into here."""
