"""The pictures as jobs for a render worker process: each takes a view (and what to mark) and
returns only the PNG bytes, so nothing but small views and finished PNGs crosses between
processes. `prepare_worker` runs once when a worker starts, in a thread of its own beside the
jobs (`start_preparing`): it builds every map's static base (the empty board with its labels,
and the hand picture's small map with each city's label spots), so that later moves do not
wait for one and the first ones wait at most for their own. A job's `words` are the picture's
language (render/words.py), resolved by the caller; None draws in English.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine.timeline import TimelineStep
from engine.view import View
from render.words import use

if TYPE_CHECKING:
    from render.stats import StatsCard
    from render.words import PictureWords

log = logging.getLogger("render.jobs")


def board_png(view: View, routes: Sequence[str] = (), cities: Sequence[str] = (), colorblind: bool = False,
              words: PictureWords | None = None) -> bytes:
    """The public board (`render.board.render_board`) as PNG bytes (drawn by
    `render.board.board_png`: no picture is kept, so a large board reuses its base's scratch)."""
    from render.board import board_png as draw

    with use(words):
        return draw(view, highlight_routes=tuple(routes), highlight_cities=tuple(cities), colorblind=colorblind)


def hand_png(view: View, colorblind: bool = False, words: PictureWords | None = None) -> bytes:
    """A player's private hand picture (`render.hand.render_hand`) as PNG bytes."""
    from render.hand import render_hand

    with use(words):
        return render_hand(view, colorblind=colorblind).png


def offer_png(view: View, words: PictureWords | None = None) -> bytes:
    """The private picture of the tickets offered to the view's player (`render.offer.render_offer`)
    as PNG bytes."""
    from render.offer import render_offer

    with use(words):
        return render_offer(view).png


def zoom_png(view: View, city: str | None = None, route: str | None = None, routes: Sequence[str] = (),
             cities: Sequence[str] = (), colorblind: bool = False, words: PictureWords | None = None) -> bytes:
    """A part of the public board, enlarged (`render.zoom.render_zoom`), as PNG bytes."""
    from render.zoom import render_zoom

    with use(words):
        return render_zoom(view, city=city, route=route, highlight_routes=tuple(routes),
                           highlight_cities=tuple(cities), colorblind=colorblind).png


def scores_png(view: View, words: PictureWords | None = None) -> bytes:
    """The final scores (`render.scores.render_scores`) as PNG bytes."""
    from render.scores import render_scores

    with use(words):
        return render_scores(view).png


def tickets_png(view: View, words: PictureWords | None = None) -> bytes:
    """Every player's tickets on the map at the end (`render.tickets.render_tickets`) as PNG bytes."""
    from render.tickets import render_tickets

    with use(words):
        return render_tickets(view).png


def replay_gif(steps: Sequence[TimelineStep], words: PictureWords | None = None) -> bytes:
    """A finished game's replay (`render.replay.render_replay`) as GIF bytes."""
    from render.replay import render_replay

    with use(words):
        return render_replay(tuple(steps)).gif


def stats_png(card: StatsCard, words: PictureWords | None = None) -> bytes:
    """A player's record on a server (`render.stats.render_stats`) as PNG bytes."""
    from render.stats import render_stats

    with use(words):
        return render_stats(card).png


def worker_pid() -> int:
    """The process a job ran in (tests: which worker, and to stop one)."""
    return os.getpid()


_PREPARING: threading.Thread | None = None


def start_preparing(variants: Sequence[str]) -> None:
    """Prepare these variants' bases in a thread of this worker, so that the worker takes jobs
    at once after a (re)start: a job needing a base being built waits for that one only."""
    global _PREPARING
    _PREPARING = threading.Thread(target=prepare_worker, args=(tuple(variants),), name="prepare", daemon=True)
    _PREPARING.start()


def preparing() -> bool:
    """Whether this worker is still preparing its bases (tests)."""
    return _PREPARING is not None and _PREPARING.is_alive()


def wait_prepared(timeout: float = 120.0) -> bool:
    """Block until this worker has prepared its bases (a bench waits for it); True when done."""
    if _PREPARING is not None:
        _PREPARING.join(timeout)
        return not _PREPARING.is_alive()
    return True


def prepare_worker(variants: Sequence[str]) -> None:
    """Build the static bases of these variants' maps in this process: the board's (with the
    legend key of the variant's rules) and the hand picture's small map with every city's label
    spots. Drawn from a fresh two-player game of each variant (public and own views only)."""
    from engine.game import new_game, view
    from engine.maps import load_map
    from render.board import board_image
    from render.hand import prepare_mini
    from render.memory import give_back

    maps: set[str] = set()
    for variant in variants:
        try:
            state, _ = new_game(variant, 2, seed=1)
            board_image(view(state, None))[1].rows()  # the base, and its scanlines quantized
            if state.map_id not in maps:
                maps.add(state.map_id)
                prepare_mini(load_map(state.map_id))
        except Exception:  # a base that fails here is built (or fails clearly) on first use
            log.exception("render worker: could not prepare %s", variant)
    give_back()  # the small maps' label searches too made more than they keep
