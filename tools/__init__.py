"""Tools for developers, not part of the bot at run time: the rule-scenario runner and the
sample game views that tests, benchmarks and previews use. Nothing in engine/, store/, app/,
bot_app/, cogs/ or render/ imports this package (tests/project/test_style.py checks it)."""
