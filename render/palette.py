"""Colours and colour-blind marks: route colours, card colours, player colours, ink.

Player colours are chosen away from the eight route colours (purple, teal, brown, magenta,
olive rather than red, blue, green, yellow, black), so a claimed route never looks like an
open route of another colour; every player also has a shape mark and every route colour a
letter, so no information is carried by colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]

# Route spaces and train cards. Grey routes stay grey; white has a darker outline in drawing.
ROUTE_RGB: dict[str, RGB] = {
    "red": (214, 45, 40),
    "orange": (240, 135, 30),
    "yellow": (246, 211, 38),
    "green": (58, 160, 72),
    "blue": (40, 105, 205),
    "pink": (238, 140, 190),
    "white": (250, 250, 246),
    "black": (40, 40, 44),
    "gray": (168, 168, 168),
}

# Colour-blind letters (K for black, as in printing, so B can stay blue).
ROUTE_LETTER: dict[str, str] = {
    "red": "R",
    "orange": "O",
    "yellow": "Y",
    "green": "G",
    "blue": "B",
    "pink": "P",
    "white": "W",
    "black": "K",
    "gray": "",
    "loco": "L",
}

# Ink that reads on each route colour (for letters drawn on a space or a card).
ROUTE_INK: dict[str, RGB] = {
    "red": (255, 255, 255),
    "orange": (40, 30, 20),
    "yellow": (40, 30, 20),
    "green": (255, 255, 255),
    "blue": (255, 255, 255),
    "pink": (40, 30, 40),
    "white": (40, 40, 40),
    "black": (255, 255, 255),
    "gray": (40, 40, 40),
    "loco": (40, 40, 40),
}

# Train card order in a hand picture: the engine's colours, then locomotives.
CARD_ORDER: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "pink", "white", "black", "loco")
CARD_NAME: dict[str, str] = {c: c for c in CARD_ORDER} | {"loco": "locomotive"}
# The locomotive card is drawn as a rainbow of these stripes.
LOCO_STRIPES: tuple[RGB, ...] = tuple(ROUTE_RGB[c] for c in ("red", "orange", "yellow", "green", "blue", "pink"))


@dataclass(frozen=True)
class PlayerStyle:
    """How one seat is drawn: fill colour, a dark outline, a light tint and a shape mark."""

    fill: RGB
    dark: RGB
    light: RGB
    mark: str  # "circle", "triangle", "square", "diamond", "star"
    mark_name: str  # for the legend / alt text


PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle((126, 63, 186), (62, 24, 100), (224, 208, 240), "circle", "circle"),
    PlayerStyle((0, 158, 160), (0, 80, 82), (196, 236, 236), "triangle", "triangle"),
    PlayerStyle((150, 88, 36), (80, 44, 14), (236, 218, 198), "square", "square"),
    PlayerStyle((226, 40, 140), (120, 10, 70), (248, 208, 228), "diamond", "diamond"),
    PlayerStyle((96, 110, 24), (44, 52, 6), (222, 228, 190), "star", "star"),
)


def player_style(seat: int) -> PlayerStyle:
    """The style of a seat (seats beyond five reuse the list; no rule set has more)."""
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


# The board's calm background.
SEA: RGB = (196, 220, 232)
SEA_DEEP: RGB = (184, 210, 225)
LAND: RGB = (238, 232, 212)
COAST: RGB = (150, 176, 190)
BEYOND: RGB = (226, 222, 206)  # off the network on maps without water
BEYOND_EDGE: RGB = (206, 200, 182)
COUNTRY_FILL: RGB = (214, 206, 186)
COUNTRY_EDGE: RGB = (120, 108, 90)
INK: RGB = (34, 34, 38)
INK_SOFT: RGB = (96, 96, 104)
PAPER: RGB = (250, 248, 242)
PANEL: RGB = (244, 241, 232)
PANEL_EDGE: RGB = (196, 190, 176)
SPACE_EDGE: RGB = (70, 66, 60)
TUNNEL_EDGE: RGB = (20, 20, 22)
CITY_FILL: RGB = (255, 252, 240)
CITY_EDGE: RGB = (60, 40, 30)
# A track closed to everyone (the twin of a claimed double route, in a game too small for both):
# its colour covered in a pale grey, hatched across.
CLOSED_FILL: RGB = (222, 219, 210)
CLOSED_HATCH: RGB = (122, 118, 112)
HIGHLIGHT: RGB = (255, 225, 0)
HIGHLIGHT_EDGE: RGB = (230, 40, 30)
GOOD: RGB = (36, 140, 60)
BAD: RGB = (200, 50, 40)
PATH_COLOURS: tuple[RGB, ...] = (
    (230, 40, 30),
    (20, 110, 230),
    (250, 150, 0),
    (0, 150, 90),
    (200, 0, 200),
    (0, 170, 200),
)
