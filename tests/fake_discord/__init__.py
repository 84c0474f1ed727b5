"""A loopback fake of Discord for end-to-end tests with the real discord.py client.
See server.py for what it speaks and faults.py for how it fails; harness.py runs the bot
against it in the test's process, child.py in a child process that a test can SIGKILL."""

from .faults import Failure
from .server import FakeDiscord, Interaction, Logged, User, custom_ids, install, install_urls, select_options

__all__ = ["FakeDiscord", "Failure", "Interaction", "Logged", "User", "custom_ids", "install", "install_urls",
           "select_options"]
