"""The Discord adapter: what Discord calls and what the bot answers it with — the client, the
`/ttr` tree (its one check and error handler), the button and menu families (one DynamicItem
each), autocomplete, which game a request means, the handlers of the table's life (lobby,
rematch, votes, undo, plans), the desk they share, shards, stopping, and the request budget.
"""
