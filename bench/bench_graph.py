"""Benchmark of engine/graph.py on its worst cases.

Run from the repository root:

    python bench/bench_graph.py            # full run (a few seconds)
    python bench/bench_graph.py --quick    # fewer repetitions

Cases (all built deterministically from seeded random.Random instances):

* longest_trail on the adversarial lattice: a 4x4 triangulated grid (16 cities,
  24 grid edges + 9 diagonals = 33 edges) keeping 30 of the 33 edges, lengths
  1-6 summing to 45 (a full set of trains).  500 such networks are timed, and
  the two hardest ones (where the cheap bounds do not meet, so the search must
  prove optimality) are timed on their own many times.
* best_ticket_outcome with 10 tickets and 3 stations, each station city
  touching 8 opponent routes, every route useful to some ticket.

Figures are printed as median, 99th percentile and max milliseconds per call.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.graph import Edge, best_ticket_outcome, longest_trail  # noqa: E402

# Lattice seeds whose root bounds do not meet (found by scanning seeds 0-1999):
# the exact search has to run and prove the answer.
HARD_LATTICE_SEEDS = (477, 695)


def lattice(seed: int, n: int = 4, remove: int = 3, budget: int = 45, max_len: int = 6) -> list[Edge]:
    """A triangulated n x n grid minus `remove` random edges; lengths start at 1
    and the rest of `budget` is spread at random (capped at `max_len`)."""
    rng = random.Random(seed)
    pairs: list[tuple[str, str]] = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n:
                pairs.append((f"N{r}{c}", f"N{r}{c + 1}"))
            if r + 1 < n:
                pairs.append((f"N{r}{c}", f"N{r + 1}{c}"))
            if r + 1 < n and c + 1 < n:
                pairs.append((f"N{r}{c}", f"N{r + 1}{c + 1}"))
    keep = sorted(rng.sample(range(len(pairs)), len(pairs) - remove))
    lengths = [1] * len(keep)
    extra = budget - len(keep)
    while extra > 0:
        i = rng.randrange(len(lengths))
        if lengths[i] < max_len:
            lengths[i] += 1
            extra -= 1
    return [(f"e{i}", pairs[k][0], pairs[k][1], lengths[i]) for i, k in enumerate(keep)]


def ticket_case(seed: int = 1) -> tuple[list[Edge], list[tuple[str, str, int]], dict[str, list[Edge]]]:
    """10 tickets, 3 stations with 8 candidate loans each, all of them useful.

    Own routes form three separate networks, one around each station city.
    Each station may borrow a route to one of 8 neighbours: its 3 ticket
    cities, a ticket city of the next station, one city in each other
    station's network (so loans chain up) and 2 junction cities shared with
    another station.
    """
    rng = random.Random(seed)
    own: list[Edge] = []
    stations = ["S0", "S1", "S2"]
    home: list[list[str]] = []
    for i, s in enumerate(stations):
        cities = [s] + [f"H{i}{k}" for k in range(4)]
        for k in range(1, len(cities)):
            own.append((f"own{i}{k}", cities[rng.randrange(k)], cities[k], rng.randint(1, 4)))
        home.append(cities)
    shared = [f"Y{k}" for k in range(3)]
    options: dict[str, list[Edge]] = {}
    tickets: list[tuple[str, str, int]] = []
    outer_for: list[list[str]] = []
    for i, s in enumerate(stations):
        outer = [f"X{i}{k}" for k in range(3)]
        outer_for.append(outer)
        outer = outer + [f"X{(i + 1) % 3}0"]
        others = [rng.choice(cities[1:]) for j, cities in enumerate(home) if j != i]
        targets = outer + others + [shared[i], shared[(i + 1) % 3]]
        options[s] = [(f"opp{i}{k}", s, t, rng.randint(1, 6)) for k, t in enumerate(targets)]
    # Tickets: each needs a different loan (or a chain of two).
    for i in range(3):
        for k in range(3):
            tickets.append((home[i][1 + k], outer_for[i][k], rng.randint(4, 21)))
    tickets.append((home[0][2], home[2][3], 13))
    rng.shuffle(tickets)
    return own, tickets, options


def time_calls(fn: Callable[[], object], reps: int) -> list[float]:
    """Per-call wall times in milliseconds."""
    out = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def report(label: str, times: list[float]) -> None:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    print(
        f"{label:<58} median {statistics.median(times):6.3f}  p99 {p99:6.3f}  max {max(times):6.3f} ms (n={len(times)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = parser.parse_args()
    scan, reps = (100, 50) if args.quick else (500, 300)

    # Longest trail: many adversarial lattices, each timed a few times (median
    # of 5 per network, so one scheduler hiccup does not count as the network).
    per_network = []
    results = {}
    for seed in range(scan):
        edges = lattice(seed)
        results[seed] = longest_trail(edges)
        per_network.append(statistics.median(time_calls(lambda e=edges: longest_trail(e), 5)))
    report(f"longest_trail, {scan} lattices (30 of 33 edges, 45 trains)", per_network)
    for seed in HARD_LATTICE_SEEDS:
        edges = lattice(seed)
        value = longest_trail(edges)
        times = time_calls(lambda e=edges: longest_trail(e), reps)
        report(f"longest_trail, hardest lattice seed {seed} (= {value})", times)

    own, tickets, options = ticket_case()
    outcome = best_ticket_outcome(own, tickets, options)
    report(
        f"best_ticket_outcome, 10 tickets, 3 stations x 8 (total {outcome.total}, {outcome.stations_used} used)",
        time_calls(lambda: best_ticket_outcome(own, tickets, options), reps * 10),
    )


if __name__ == "__main__":
    main()
