"""Benchmark: the worst time of find_route, find_city and suggest_cities (bot_app/presentation/names.py) on
adversarial text, for each shipped map.

    .venv/bin/python bench/bench_names.py [--max-chars 6000] [--budget 2.0] [--root DIR]

Each family of hostile input (numbers and colours only, separators only, city names over and
over, accented and emoji junk, brackets, one long word...) is tried at 25, 50, 100, 200, 300,
400, 800, ... up to --max-chars characters. A family stops growing once one call takes longer
than --budget seconds, and a call is cut off after --timeout seconds, so that a slow
implementation still finishes: such rows name where they stopped, and a worst time shown as
">= T" is a lower bound. --root imports the code from another checkout
(e.g. an export of an older commit, where these were methods of engine.maps.GameMap), to
compare before and after with the same inputs; --no-cap lifts MAX_NAME_CHARS (where there is
one) to time the matching itself on long text rather than the refusal of it."""

from __future__ import annotations

import argparse
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path


def families(city_a: str, city_b: str) -> dict[str, str]:
    """A repeating unit per family of hostile input; the unit is repeated up to the size."""
    return {
        "numbers+colours": "1 red 2 blue 3 ",
        "qualifiers": "track 2 grey tunnel ferry 1 locomotives #3 ",
        "separators": "- – — to -> <-> / ",
        "to to": "to ",
        "cities": f"{city_a} {city_b} ",
        "cities+separators": f"{city_a} - {city_b} to ",
        "cities+numbers": f"{city_a} 1 {city_b} red ",
        "accents+emoji": "é🚂ø–Ω ʼ\u0301 ",
        "brackets": "(1 red) (",
        "one long word": "x",
        "dashes, no spaces": "a-",
    }


def sizes(max_chars: int) -> list[int]:
    # Fine steps where the former search went from fast to hopeless.
    out = [n for n in (25, 50, 100, 200, 300, 400) if n < max_chars]
    while out[-1] * 2 < max_chars:
        out.append(out[-1] * 2)
    return out + [max_chars]


class CutOff(Exception):
    """A call ran past --timeout."""


def _cut_off(signum: int, frame: object) -> None:
    raise CutOff


def timed(fn: Callable[[str], object], text: str, repeat: int, budget: float,
          timeout: float) -> float:
    """Best of `repeat` calls (one call if it already exceeds the budget); inf if cut off."""
    best = float("inf")
    for _ in range(repeat):
        signal.setitimer(signal.ITIMER_REAL, timeout)
        start = time.perf_counter()
        try:
            fn(text)
        except CutOff:
            return float("inf")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        best = min(best, time.perf_counter() - start)
        if best > budget:
            break
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-chars", type=int, default=6000)
    parser.add_argument("--budget", type=float, default=2.0,
                        help="stop growing a family once one call takes this many seconds")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="cut a call off after this many seconds")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-cap", action="store_true",
                        help="lift MAX_NAME_CHARS to time the matching of long text")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="checkout whose engine/ and bot_app/ to import")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    from engine.maps import available_maps, load_map

    try:
        import bot_app.presentation.names as matcher
    except ImportError:  # an older checkout: the matching lived in engine/maps.py
        import engine.maps as matcher

    def functions(m: object) -> tuple[tuple[str, Callable[[str], object]], ...]:
        if hasattr(matcher, "find_route"):
            return (("find_route", lambda text: matcher.find_route(m, text)),
                    ("find_city", lambda text: matcher.find_city(m, text)),
                    ("suggest_cities", lambda text: matcher.suggest_cities(m, text)))
        return (("find_route", m.find_route), ("find_city", m.find_city),  # type: ignore[attr-defined]
                ("suggest_cities", m.suggest_cities))  # type: ignore[attr-defined]

    signal.signal(signal.SIGALRM, _cut_off)
    capped = hasattr(matcher, "MAX_NAME_CHARS")
    if capped and args.no_cap:
        matcher.MAX_NAME_CHARS = 10**9
    cap = (f"text over {matcher.MAX_NAME_CHARS} characters refused"
           if capped and not args.no_cap else "no length cap")
    print(f"engine from {args.root.resolve()}; {cap}")
    print(f"{'map':8} {'function':15} {'worst (ms)':>11}  {'at input':28} reached")
    for map_id in available_maps():
        m = load_map(map_id)
        first = next(iter(m.routes.values()))
        units = families(m.city_label(first.a), m.city_label(first.b))
        for name, fn in functions(m):
            fn("warm up")  # builds the map's name index, once per map, outside the timings
            worst, worst_at, stopped = 0.0, "", []
            for family, unit in units.items():
                for size in sizes(args.max_chars):
                    text = (unit * (size // len(unit) + 1))[:size]
                    took = timed(fn, text, args.repeat, args.budget, args.timeout)
                    if took > worst:
                        worst, worst_at = took, f"{family} x{size}"
                    if took > args.budget:
                        stopped.append(f"{family} at {size}")
                        break
            reached = "all sizes" if not stopped else "stopped: " + ", ".join(stopped)
            shown = (f"{worst * 1000:11.2f}" if worst != float("inf")
                     else f">= {args.timeout * 1000:8.0f}")
            print(f"{map_id:8} {name:15} {shown}  {worst_at:28} {reached}", flush=True)


if __name__ == "__main__":
    main()
