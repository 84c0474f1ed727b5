"""Bot-side glue that knows Discord only through small seams: configuration, custom ids,
message text, the game desk (interaction → service → render → post) and the timer loop.
The cogs in `cogs/` stay thin and call into here."""
