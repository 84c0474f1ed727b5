"""Each rule module's part of the pictures (see `render.parts.base`).

The pictures never ask which variant is played: they loop over the game's rule modules and
draw what each module's part gives (`picture_parts(view)`). A module without a registered part
fails `tests/render/test_render_parts.py`, so a new rule cannot be silently left out of the pictures.
"""

import importlib
import pkgutil

from render.parts.base import (
    Badge,
    DiceRoll,
    HandBlock,
    HandContext,
    KeyEntry,
    PicturePart,
    modules_of,
    part_for,
    parts_for,
    picture_parts,
    registered_names,
)

# Each file registers its parts on import: every module of this package is imported here, so
# a rule's picture part is found by adding its file.
for _found in pkgutil.iter_modules(__path__, f"{__name__}."):
    importlib.import_module(_found.name)

__all__ = [
    "Badge",
    "DiceRoll",
    "HandBlock",
    "HandContext",
    "KeyEntry",
    "PicturePart",
    "modules_of",
    "part_for",
    "parts_for",
    "picture_parts",
    "registered_names",
]
