"""A loopback fake of Discord for end-to-end tests with the real discord.py client.
See server.py for what it speaks; harness.py runs the bot against it."""

from .server import FakeDiscord, Interaction, User, custom_ids, install, select_options

__all__ = ["FakeDiscord", "Interaction", "User", "custom_ids", "install", "select_options"]
