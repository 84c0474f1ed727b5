"""The leak scan: nothing secret in anything the fake's public saw — a message's text and
components (a layout's text displays and its media items' descriptions each on their own too,
and every attachment's description), a thread's name, a picture. Secrets are what the test collected from the players'
own views (their tickets in words); a hand in words ("Your hand", "Cards:") and a planned move
(a player's plan, or the line telling them which step ran) never show in public, and a public
picture is a board (or a part of it, zoomed), a score sheet, every ticket revealed (the final
post), a replay or a stats card, never a picture sent privately (a hand, `hand.png`; a ticket
offer on the map, `offer.png`)."""

from __future__ import annotations

from collections.abc import Iterable

from .server import FakeDiscord

PUBLIC_PICTURES = ("board.png", "zoom.png", "scores.png", "tickets.png", "replay.gif", "stats.png")


def public_leaks(fake: FakeDiscord, secrets: Iterable[str], *, revealed_in: Iterable[int] = (),
                 pictures: bool = True) -> list[str]:
    """Where a secret shows in public (empty: nowhere). `revealed_in`: messages that show the
    tickets on purpose (the final scores). `pictures`: also check that no private picture is
    posted in public (needs the real renderer: the stub draws every picture alike)."""
    secrets = [s for s in secrets if s]
    skip = {f"message {m} " for m in revealed_in}
    private_files = {item.data for item in fake.private if item.data}
    found = []
    for item in fake.public:
        if any(w in item.where + " " for w in skip):
            continue
        found += [f"secret {s!r} in public {item.where}" for s in secrets if s in item.text]
        if "Your hand" in item.text or "Cards:" in item.text:
            found.append(f"a hand in public {item.where}")
        if "your plan" in item.text.lower() or "🗒️ game #" in item.text.lower():  # a plan, or its private line
            found.append(f"a plan in public {item.where}")
        if item.data and item.text not in PUBLIC_PICTURES:
            found.append(f"a picture {item.text!r} in public {item.where}")
        if pictures and item.data and item.data in private_files:
            found.append(f"a private picture in public {item.where}")
    return found
