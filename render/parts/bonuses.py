"""End-of-game bonuses: nothing on the board during the game; on the final sheet their lines
are bonuses, listed by name with the points and who won each."""

from __future__ import annotations

from render.parts.base import PicturePart, register


class Bonus(PicturePart):
    """A bonus awarded at the end (its score line is the bonus's name)."""

    bonus = True


@register("longest_path")
class LongestPath(Bonus):
    """Longest Path / European Express / The Longest Railway…"""


@register("most_tickets")
class MostTickets(Bonus):
    """Globetrotter: the most tickets completed."""


@register("most_count")
class MostCount(Bonus):
    """USSR's and Alsace's "most …" bonuses (routes of a kind, tunnels, ferries)."""


@register("most_visited")
class MostVisited(Bonus):
    """Alsace's "most foreign countries / French cities / French regions"."""


@register("least_incomplete")
class LeastIncomplete(Bonus):
    """Alsace: the fewest incomplete tickets."""


@register("longest_tagged_path")
class LongestTaggedPath(Bonus):
    """Alsace: the longest perimeter route."""


@register("tagged_route_owner")
class TaggedRouteOwner(Bonus):
    """Alsace: owning the North–South tunnel."""
