"""engine/graph.py, read like the rulebook: longest path, countries, tickets, stations.

The last part cross-checks both searches against plain brute force on a few
hundred small random networks (seeded, so every run checks the same ones).
"""

from __future__ import annotations

import functools
import itertools
import random

import pytest

from engine.graph import Edge, TicketOutcome, best_ticket_outcome, connected, connectivity, longest_trail

# ---------------------------------------------------------------------------
# Longest continuous path
# ---------------------------------------------------------------------------


def test_no_routes_no_path() -> None:
    assert longest_trail([]) == 0


def test_a_single_route_counts_its_length() -> None:
    assert longest_trail([("r", "Paris", "Bruxelles", 2)]) == 2


def test_the_path_may_loop_back_through_a_city() -> None:
    # A-B-C-A is a loop; the path goes round it and leaves along A-D.
    edges = [("ab", "A", "B", 2), ("bc", "B", "C", 2), ("ca", "C", "A", 2), ("ad", "A", "D", 3)]
    assert longest_trail(edges) == 9


def test_figure_eight_two_loops_sharing_a_city() -> None:
    edges = [
        ("xa", "X", "A", 1), ("ab", "A", "B", 1), ("bx", "B", "X", 1),
        ("xc", "X", "C", 2), ("cd", "C", "D", 2), ("dx", "D", "X", 2),
    ]  # fmt: skip
    assert longest_trail(edges) == 9


def test_figure_eight_with_tails() -> None:
    edges = [
        ("xa", "X", "A", 1), ("ab", "A", "B", 1), ("bx", "B", "X", 1),
        ("xc", "X", "C", 2), ("cd", "C", "D", 2), ("dx", "D", "X", 2),
        ("t1", "A", "T1", 4), ("t2", "D", "T2", 5), ("t3", "X", "T3", 1),
    ]  # fmt: skip
    # T1-A-B-X-C-D-T2 = 4+1+1+2+2+5: going round a loop as well would leave
    # a tail behind, which costs more than the loop's remaining route.
    assert longest_trail(edges) == 15 == _brute_longest(edges)


def test_a_double_route_can_be_used_both_ways() -> None:
    # Both tracks of the double route Paris-Bruxelles are the player's.
    edges = [("pb1", "Paris", "Bruxelles", 3), ("pb2", "Paris", "Bruxelles", 3), ("ba", "Bruxelles", "Amsterdam", 1)]
    assert longest_trail(edges) == 7


def test_separate_networks_the_longest_one_counts() -> None:
    edges = [("ab", "A", "B", 3), ("cd", "C", "D", 2), ("de", "D", "E", 2)]
    assert longest_trail(edges) == 4


def test_a_branch_is_not_part_of_the_path() -> None:
    # Three spokes of 1, 2 and 6 from one city: only two can be on one path.
    edges = [("s1", "Hub", "A", 1), ("s2", "Hub", "B", 2), ("s6", "Hub", "C", 6)]
    assert longest_trail(edges) == 8


def test_an_euler_network_is_one_path() -> None:
    # Every city has an even number of routes: the whole network is one loop.
    edges = [("ab", "A", "B", 1), ("bc", "B", "C", 2), ("cd", "C", "D", 3), ("da", "D", "A", 4)]
    assert longest_trail(edges) == 10


def test_listing_a_route_twice_counts_it_once() -> None:
    assert longest_trail([("r", "A", "B", 2), ("r", "A", "B", 2)]) == 2


def test_one_id_for_two_different_routes_is_refused() -> None:
    with pytest.raises(ValueError):
        longest_trail([("r", "A", "B", 2), ("r", "A", "C", 2)])


def test_negative_length_is_refused() -> None:
    with pytest.raises(ValueError):
        longest_trail([("r", "A", "B", -1)])


@pytest.mark.parametrize(
    ("seed", "expected"),
    # Checked once by exhaustive search over every trail (minutes each).
    [(0, 42), (1, 44), (2, 44), (3, 39), (4, 41), (5, 40), (477, 40), (695, 40)],
)
def test_adversarial_lattice_is_exact(seed: int, expected: int) -> None:
    # 4x4 triangulated grid, 30 of its 33 routes, 45 trains (bench/bench_graph.py).
    assert longest_trail(_lattice(seed)) == expected


# ---------------------------------------------------------------------------
# Countries (Germany): dead ends
# ---------------------------------------------------------------------------

COUNTRIES = {"Frankreich", "Schweiz", "Österreich"}


def test_two_routes_into_the_same_country_do_not_join() -> None:
    edges = [("fr1", "Freiburg", "Frankreich", 2), ("fr2", "Karlsruhe", "Frankreich", 2)]
    assert longest_trail(edges, COUNTRIES) == 2
    assert not connected(edges, "Freiburg", "Karlsruhe", COUNTRIES)
    # Without the rule they would make one path of 4.
    assert longest_trail(edges) == 4
    assert connected(edges, "Freiburg", "Karlsruhe")


def test_a_country_is_only_ever_the_end_of_a_path() -> None:
    edges = [
        ("sb", "Saarbrücken", "Frankreich", 2),
        ("fr", "Freiburg", "Frankreich", 2),
        ("fs", "Freiburg", "Stuttgart", 3),
    ]
    assert longest_trail(edges, COUNTRIES) == 5


def test_a_city_reaches_a_country_through_any_of_its_border_routes() -> None:
    edges = [
        ("sf", "Stuttgart", "Freiburg", 3),
        ("fr", "Freiburg", "Frankreich", 2),
        ("kf", "Karlsruhe", "Frankreich", 2),
    ]
    assert connected(edges, "Stuttgart", "Frankreich", COUNTRIES)
    assert connected(edges, "Frankreich", "Stuttgart", COUNTRIES)
    assert connected(edges, "Karlsruhe", "Frankreich", COUNTRIES)
    assert not connected(edges, "Stuttgart", "Karlsruhe", COUNTRIES)


def test_ticket_to_a_country_is_complete_once_the_city_reaches_a_border_route() -> None:
    edges = [("sf", "Stuttgart", "Freiburg", 3), ("fr", "Freiburg", "Frankreich", 2)]
    tickets = [("Stuttgart", "Frankreich", 8), ("München", "Frankreich", 9)]
    outcome = best_ticket_outcome(edges, tickets, {}, COUNTRIES)
    assert outcome.completed == (True, False)
    assert outcome.total == 8 - 9


def test_ticket_between_two_countries() -> None:
    edges = [("fr", "Freiburg", "Frankreich", 2), ("fs", "Freiburg", "Schweiz", 2)]
    outcome = best_ticket_outcome(edges, [("Frankreich", "Schweiz", 10)], {}, COUNTRIES)
    assert outcome.completed == (True,)
    # ... but not through a third country.
    edges = [("fr", "Freiburg", "Frankreich", 2), ("ko", "Konstanz", "Österreich", 2), ("os", "Österreich", "X", 1)]
    assert not connected(edges, "Freiburg", "X", COUNTRIES)


def test_a_country_without_routes_is_not_reached() -> None:
    assert not connected([("ab", "A", "B", 1)], "A", "Schweiz", COUNTRIES)
    assert not connected([], "Schweiz", "Schweiz", COUNTRIES)
    assert connected([], "A", "A", COUNTRIES)


def _reached(edges: list[Edge], a: str, b: str, dead_ends: set[str]) -> bool:
    """Brute force: a walk from `a` to `b` along the routes that passes through no dead end."""
    if a == b:
        return a not in dead_ends or any(a in (x, y) for _, x, y, _ in edges)
    seen, todo = {a}, [a]
    while todo:
        city = todo.pop()
        if city in dead_ends and city != a:
            continue
        for _, x, y, _ in edges:
            for here, there in ((x, y), (y, x)):
                if here == city and there not in seen:
                    seen.add(there)
                    todo.append(there)
    return b in seen


def test_the_routes_joined_once_answer_every_pair_of_cities() -> None:
    """`connectivity` (one join for a player's every ticket) agrees with a brute-force walk for
    every pair of cities, countries and cities off the network included, asked one after another."""
    rng = random.Random(5)
    for _ in range(60):
        cities = [f"c{i}" for i in range(rng.randint(2, 9))] + sorted(COUNTRIES)
        edges: list[Edge] = []
        for i in range(rng.randint(0, 12)):
            a, b = rng.sample(cities, 2)
            edges.append((f"r{i}", a, b, rng.randint(1, 6)))
        joined = connectivity(edges, COUNTRIES)
        for a, b in itertools.product([*cities, "elsewhere"], repeat=2):
            assert joined(a, b) == _reached(edges, a, b, COUNTRIES) == connected(edges, a, b, COUNTRIES), (edges, a, b)


# ---------------------------------------------------------------------------
# Tickets and stations (Europe)
# ---------------------------------------------------------------------------


def test_tickets_without_stations() -> None:
    own = [("pb", "Paris", "Bruxelles", 2), ("ba", "Bruxelles", "Amsterdam", 1)]
    outcome = best_ticket_outcome(own, [("Paris", "Amsterdam", 8), ("Paris", "Roma", 12)])
    assert outcome == TicketOutcome(8 - 12, (True, False), {}, 0)


def test_one_station_lends_the_route_of_the_more_valuable_ticket() -> None:
    # Station in Wien, which touches two opponent routes; each completes one
    # ticket.  Only one can be borrowed: the 10-point ticket wins.
    own = [("mw", "München", "Wien", 3)]
    tickets = [("München", "Budapest", 6), ("München", "Zagreb", 10)]
    options = {"Wien": [("wb", "Wien", "Budapest", 1), ("wz", "Wien", "Zagreb", 2)]}
    outcome = best_ticket_outcome(own, tickets, options)
    assert outcome.completed == (False, True)
    assert outcome.loans == {"Wien": "wz"}
    assert outcome.stations_used == 1
    assert outcome.total == -6 + 10


def test_a_station_whose_loan_is_not_needed_is_not_used() -> None:
    own = [("pb", "Paris", "Bruxelles", 2)]
    options = {"Bruxelles": [("ba", "Bruxelles", "Amsterdam", 1)]}
    outcome = best_ticket_outcome(own, [("Paris", "Bruxelles", 4)], options)
    assert outcome.completed == (True,)
    assert outcome.loans == {"Bruxelles": None}
    assert outcome.stations_used == 0


def test_two_stations_chain_their_loans_for_one_ticket() -> None:
    own = [("lp", "London", "Paris", 3)]
    options = {
        "Paris": [("pz", "Paris", "Zürich", 3), ("pm", "Paris", "Marseille", 4)],
        "Zürich": [("zw", "Zürich", "Wien", 4)],
    }
    outcome = best_ticket_outcome(own, [("London", "Wien", 10)], options)
    assert outcome.completed == (True,)
    assert outcome.loans == {"Paris": "pz", "Zürich": "zw"}
    assert outcome.stations_used == 2


def test_two_stations_each_serving_its_own_ticket() -> None:
    own = [("ab", "A", "B", 1), ("cd", "C", "D", 1)]
    options = {"B": [("bx", "B", "X", 1)], "D": [("dy", "D", "Y", 1)]}
    outcome = best_ticket_outcome(own, [("A", "X", 5), ("C", "Y", 7), ("A", "C", 9)], options)
    assert outcome.completed == (True, True, False)
    assert outcome.stations_used == 2
    assert outcome.total == 5 + 7 - 9


def test_among_equal_totals_the_fewest_stations() -> None:
    # Either the first station alone or both stations complete the ticket.
    own = [("ab", "A", "B", 1)]
    options = {"C": [("cb", "C", "B", 1)], "B": [("bc", "B", "C", 1)]}
    outcome = best_ticket_outcome(own, [("A", "C", 5)], options)
    assert outcome.stations_used == 1
    assert outcome.total == 5


def test_a_route_lent_by_two_stations_is_one_route() -> None:
    # Stations in both Paris and Bruxelles; the same route is offered twice.
    own = [("lp", "London", "Paris", 3)]
    route = ("pb", "Paris", "Bruxelles", 2)
    outcome = best_ticket_outcome(own, [("London", "Bruxelles", 7)], {"Paris": [route], "Bruxelles": [route]})
    assert outcome.stations_used == 1
    assert sorted(v for v in outcome.loans.values() if v) == ["pb"]


def test_ties_go_to_the_first_candidate() -> None:
    own = [("ab", "A", "B", 1)]
    options = {"B": [("b1", "B", "C", 1), ("b2", "B", "C", 2)]}
    outcome = best_ticket_outcome(own, [("A", "C", 5)], options)
    assert outcome.loans == {"B": "b1"}


def test_station_loan_to_a_country() -> None:
    own = [("sf", "Stuttgart", "Freiburg", 3)]
    options = {"Freiburg": [("ff", "Freiburg", "Frankreich", 2)]}
    outcome = best_ticket_outcome(own, [("Stuttgart", "Frankreich", 8)], options, COUNTRIES)
    assert outcome.completed == (True,)
    assert outcome.loans == {"Freiburg": "ff"}


def test_a_candidate_must_touch_its_station_city() -> None:
    with pytest.raises(ValueError):
        best_ticket_outcome([], [("A", "B", 1)], {"A": [("bc", "B", "C", 1)]})


def test_stations_never_lengthen_the_path() -> None:
    # Loans are for tickets only; longest_trail only ever sees own routes.
    own = [("ab", "A", "B", 2)]
    best_ticket_outcome(own, [("A", "C", 3)], {"B": [("bc", "B", "C", 5)]})
    assert longest_trail(own) == 2


# ---------------------------------------------------------------------------
# Brute-force cross-checks
# ---------------------------------------------------------------------------


def _split(edges: list[Edge], dead_ends: set[str]) -> list[tuple[object, object, int]]:
    return [((a, i) if a in dead_ends else a, (b, i) if b in dead_ends else b, w) for i, a, b, w in edges]


def _brute_longest(edges: list[Edge], dead_ends: set[str] | None = None) -> int:
    """Every trail from every city, memoised on (city, routes used)."""
    split = _split(edges, dead_ends or set())
    adj: dict[object, list[tuple[int, object, int]]] = {}
    for i, (a, b, w) in enumerate(split):
        adj.setdefault(a, []).append((i, b, w))
        if a != b:
            adj.setdefault(b, []).append((i, a, w))

    @functools.cache
    def walk(city: object, used: int) -> int:
        return max((w + walk(nxt, used | 1 << i) for i, nxt, w in adj[city] if not used >> i & 1), default=0)

    return max((walk(city, 0) for city in adj), default=0)


def _random_network(rng: random.Random) -> tuple[list[Edge], set[str]]:
    cities = [f"c{i}" for i in range(rng.randint(2, 8))]
    dead = {c for c in cities if rng.random() < 0.15}
    edges: list[Edge] = []
    for i in range(rng.randint(0, 13)):
        a, b = rng.choice(cities), rng.choice(cities)
        if rng.random() < 0.15 and edges:  # a double route
            _, a, b, _ = rng.choice(edges)
        edges.append((f"e{i}", a, b, rng.randint(1, 6)))
    return edges, dead


def test_longest_trail_matches_brute_force_on_random_networks() -> None:
    rng = random.Random(20240601)
    for _ in range(200):
        edges, dead = _random_network(rng)
        assert longest_trail(edges, dead) == _brute_longest(edges, dead), (edges, dead)


def test_longest_trail_matches_brute_force_on_dense_networks() -> None:
    # Few cities, many routes: the search has to prove its answer here.
    rng = random.Random(7)
    for _ in range(60):
        cities = [f"c{i}" for i in range(rng.randint(4, 7))]
        edges = [(f"e{i}", *rng.sample(cities, 2), rng.randint(1, 3)) for i in range(rng.randint(9, 13))]
        assert longest_trail(edges) == _brute_longest(edges), edges


def _brute_tickets(
    own: list[Edge], tickets: list[tuple[str, str, int]], options: dict[str, list[Edge]], dead: set[str]
) -> TicketOutcome:
    """Every combination of loans (no loan first, input order); the best total,
    then the fewest stations actually needed (smallest subset of the chosen
    loans completing the same tickets)."""

    def done(edges: list[Edge]) -> tuple[bool, ...]:
        split = _split(list({e[0]: e for e in edges}.values()), dead)
        parent: dict[object, object] = {}

        def find(x: object) -> object:
            while parent.setdefault(x, x) != x:
                x = parent[x]
            return x

        for a, b, _ in split:
            parent[find(a)] = find(b)

        def nodes(city: str) -> list[object]:
            if city not in dead:
                return [city]
            return [n for a, b, _ in split for n in (a, b) if isinstance(n, tuple) and n[0] == city]

        return tuple(any(find(x) == find(y) for x in nodes(a) for y in nodes(b)) for a, b, _ in tickets)

    cities = list(options)
    best: tuple[tuple[int, int], tuple[Edge | None, ...], tuple[bool, ...]] | None = None
    for combo in itertools.product(*([None, *options[c]] for c in cities)):
        chosen = [e for e in combo if e is not None]
        completed = done(own + chosen)
        total = sum(p if ok else -p for (_, _, p), ok in zip(tickets, completed, strict=True))
        needed = min(
            k
            for k in range(len(chosen) + 1)
            for sub in itertools.combinations(chosen, k)
            if done(own + list(sub)) == completed
        )
        key = (total, -needed)
        if best is None or key > best[0]:
            best = (key, combo, completed)
    assert best is not None
    (total, minus_used), combo, completed = best
    return TicketOutcome(
        total, completed, {c: e[0] if e else None for c, e in zip(cities, combo, strict=True)}, -minus_used
    )


def test_best_ticket_outcome_matches_brute_force_on_random_games() -> None:
    rng = random.Random(99)
    for _ in range(200):
        cities = [f"c{i}" for i in range(rng.randint(3, 8))]
        dead = {c for c in cities[1:] if rng.random() < 0.2}
        own = [(f"o{i}", *rng.sample(cities, 2), 1) for i in range(rng.randint(0, 6))]
        opponent = [(f"p{i}", *rng.sample(cities, 2), 1) for i in range(rng.randint(0, 9))]
        stations = [c for c in rng.sample(cities, min(len(cities), rng.randint(0, 3))) if c not in dead]
        options = {c: [e for e in opponent if c in e[1:3]] for c in stations}
        tickets = [(*rng.sample(cities, 2), rng.randint(1, 20)) for _ in range(rng.randint(0, 5))]
        got = best_ticket_outcome(own, tickets, options, dead)
        want = _brute_tickets(own, tickets, options, dead)
        assert (got.total, got.completed, dict(got.loans), got.stations_used) == (
            want.total,
            want.completed,
            dict(want.loans),
            want.stations_used,
        ), (own, tickets, options, dead)


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------


def _lattice(seed: int) -> list[Edge]:
    """Same generator as bench/bench_graph.py."""
    rng = random.Random(seed)
    pairs: list[tuple[str, str]] = []
    for r in range(4):
        for c in range(4):
            if c + 1 < 4:
                pairs.append((f"N{r}{c}", f"N{r}{c + 1}"))
            if r + 1 < 4:
                pairs.append((f"N{r}{c}", f"N{r + 1}{c}"))
            if r + 1 < 4 and c + 1 < 4:
                pairs.append((f"N{r}{c}", f"N{r + 1}{c + 1}"))
    keep = sorted(rng.sample(range(len(pairs)), len(pairs) - 3))
    lengths = [1] * len(keep)
    extra = 45 - len(keep)
    while extra > 0:
        i = rng.randrange(len(lengths))
        if lengths[i] < 6:
            lengths[i] += 1
            extra -= 1
    return [(f"e{i}", pairs[k][0], pairs[k][1], lengths[i]) for i, k in enumerate(keep)]


def test_train_distances_take_the_cheapest_way_and_never_pass_through_a_country() -> None:
    from engine.graph import train_distances

    edges = [("1", "a", "b", 2), ("2", "b", "c", 2), ("3", "a", "c", 5), ("4", "c", "X", 1), ("5", "X", "d", 1)]
    assert train_distances(edges, "a") == {"a": 0, "b": 2, "c": 4, "X": 5, "d": 6}
    assert train_distances(edges, "a", dead_ends={"X"}) == {"a": 0, "b": 2, "c": 4, "X": 5}
