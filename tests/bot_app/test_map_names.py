"""Matching what players type against a map's route and city names (bot_app/presentation/names.py:
find_route, find_city, suggest_cities): the same answers as the straightforward search they replaced, in
work that grows linearly with the text, and no crash on any text."""

from __future__ import annotations

import difflib
import random
import re
from typing import Any

import pytest

from bot_app.presentation import names as names_module
from bot_app.presentation.names import MAX_NAME_CHARS, find_city, find_route, names_of, suggest_cities
from engine.maps import COLORS, GameMap, Route, available_maps, fold, load_map, parse_map

MAPS = available_maps()


# ---------------------------------------------------------------------------------------------
# The former implementation, kept as the reference for the language find_route accepts. It
# tries every split of the words and folds every candidate text, so it is only run on short
# text here.
# ---------------------------------------------------------------------------------------------

_SEPARATOR_RE = re.compile(r"\s*(?:<->|->|[-–—‐‑−/↔→])\s*|\s+to\s+", re.IGNORECASE)
_SPACE_RE = re.compile(r"\s+")


def _reference_pairs_in(m: GameMap, text: str) -> set[frozenset[str]]:
    for pattern in (_SEPARATOR_RE, _SPACE_RE):
        pairs = set()
        for match in pattern.finditer(text):
            a = find_city(m, text[:match.start()])
            b = find_city(m, text[match.end():])
            if a is not None and b is not None and a.id != b.id:
                pairs.add(frozenset((a.id, b.id)))
        if pairs:
            return pairs
    return set()


def reference_find_route(m: GameMap, text: str) -> Route | None:
    if not isinstance(text, str) or not text.strip():
        return None
    text = text.strip()
    if text in m.routes:
        return m.routes[text]
    rid = names_of(m).route_ids.get(text.casefold())
    if rid is not None:
        return m.routes[rid]
    is_qualifier = names_module._is_qualifier
    bracketed = " ".join(re.findall(r"\(([^()]*)\)", text))
    words = re.sub(r"\([^()]*\)", " ", text).replace(",", " ").split()
    max_lead = next((i for i, w in enumerate(words) if not is_qualifier(w)), len(words))
    max_trail = next((i for i, w in enumerate(reversed(words)) if not is_qualifier(w)),
                     len(words))
    pair = None
    qualifiers: list[str] = []
    for peeled in range(len(words)):
        for lead in range(min(peeled, max_lead) + 1):
            trail = peeled - lead
            if trail > max_trail or lead + trail >= len(words):
                continue
            pairs = _reference_pairs_in(m, " ".join(words[lead:len(words) - trail]))
            if len(pairs) > 1:
                return None
            if pairs:
                pair = pairs.pop()
                qualifiers = words[:lead] + words[len(words) - trail:]
                break
        if pair is not None:
            break
    if pair is None:
        return None
    candidates = list(m.routes_between(*pair))
    wanted = names_module._parse_qualifiers(qualifiers + bracketed.replace(",", " ").split())
    if wanted is None:
        return None
    candidates = [r for r in candidates if names_of(m)._matches(r, wanted)]
    if not candidates:
        return None
    first = candidates[0]
    same = (first.length, first.color, first.tunnel, first.ferry_locos)
    if all((r.length, r.color, r.tunnel, r.ferry_locos) == same for r in candidates):
        return first
    return None


def reference_suggest_cities(m: GameMap, text: str, n: int = 3) -> list[str]:
    key = fold(text) if isinstance(text, str) else ""
    if not key or n <= 0:
        return []
    keys = {k: cid for k, cid in names_of(m).city_keys.items() if cid is not None}
    found = [k for k in keys if k.startswith(key)] if len(key) >= 2 else []
    found += difflib.get_close_matches(key, list(keys), n=len(keys), cutoff=0.6)
    names: list[str] = []
    for k in found:
        name = m.cities[keys[k]].name
        if name not in names:
            names.append(name)
    return names[:n]


# ---------------------------------------------------------------------------------------------
# Text that players might type, and text that they should not
# ---------------------------------------------------------------------------------------------

QUALIFIERS = [*COLORS, "grey", "purple", "Red", "tunnel", "ferry", "track", "route",
              "locomotive", "locomotives", "loco", "locos", "1", "2", "3", "4", "6", "#1", "#2",
              "2.", "3,", "0"]
SEPARATORS = ["-", "–", "—", "to", "To", "TO", "->", "<->", "/", "→", "↔", "‐", "‑", "−"]
JUNK = ["(", ")", "(3 red)", "(2 gray, track 1)", "(ferry", ",", "x", "é", "🚂", "\u0301", "St.",
        "a-", "-b", "to-", "-to", "ø", "Ω", "\u0338", "<", ">", "()", "Ⅳ", "ß", "İ"]


def city_words(m: GameMap) -> dict[str, list[str]]:
    """Ways of writing each city: names, ids, aliases, loose spellings and name parts."""
    out: dict[str, list[str]] = {}
    for city in m.cities.values():
        words = out[city.id] = []
        for text in (city.id, city.name, *city.aliases):
            words += [text, text.lower(), text.upper(), text.replace(" ", ""), fold(text)]
            words += text.replace("-", " ").split()
    return out


def random_text(rng: random.Random, m: GameMap, spellings: dict[str, list[str]]) -> str:
    """A short text mixing city names, separators, qualifiers and junk, often shaped like
    "qualifiers A separator B qualifiers" for the two ends of a route."""
    cities = [word for words in spellings.values() for word in words]

    def pick() -> str:
        bag = rng.choice((cities, cities, QUALIFIERS, SEPARATORS, JUNK))
        return rng.choice(bag)

    if rng.random() < 0.5:
        route = rng.choice(list(m.routes.values()))
        a, b = rng.sample((route.a, route.b), 2)
        tokens = [rng.choice(QUALIFIERS) for _ in range(rng.randrange(3))]
        tokens += [rng.choice(spellings[a])]
        tokens += [rng.choice(SEPARATORS)] if rng.random() < 0.7 else []
        tokens += [rng.choice(spellings[b] if rng.random() < 0.8 else cities)]
        tokens += [rng.choice(QUALIFIERS) for _ in range(rng.randrange(3))]
        if rng.random() < 0.5:
            tokens.insert(rng.randrange(len(tokens) + 1), pick())
    elif rng.random() < 0.3:
        label = m.route_label(rng.choice(list(m.routes)))
        tokens = label.split()
        for _ in range(rng.randrange(1, 3)):
            i = rng.randrange(len(tokens))
            tokens[i:i + rng.randrange(2)] = [pick()] if rng.random() < 0.7 else []
    else:
        tokens = [pick() for _ in range(rng.randrange(1, 8))]
    joiners = [" ", " ", " ", "", "  ", "\t", ", ", " - "]
    text = tokens[0] if tokens else ""
    for token in tokens[1:]:
        text += rng.choice(joiners) + token
    return text[:MAX_NAME_CHARS]


def hostile_texts(m: GameMap, size: int) -> dict[str, str]:
    """Families of text built to make a matcher work hard, each repeated up to `size`."""
    first = next(iter(m.routes.values()))
    a, b = m.city_label(first.a), m.city_label(first.b)
    units = {
        "numbers and colours": "1 red 2 blue 3 ",
        "qualifiers": "track 2 grey tunnel ferry 1 locomotives #3 ",
        "separators": "- – — to -> <-> / ",
        "to": "to ",
        "cities": f"{a} {b} ",
        "cities and separators": f"{a} - {b} to ",
        "cities and numbers": f"{a} 1 {b} red ",
        "accents and emoji": "é🚂ø–Ω ʼ\u0301 ",
        "brackets": "(1 red) (",
        "one word": "x",
        "dashes": "a-",
    }
    if m.id == "tricky":
        units.update({"names as qualifiers": "red 2 track 3 tunnel 3 to ",
                      "to and names": "to toto to red - ", "names only": "red blue two red "})
    return {name: (unit * (size // len(unit) + 1))[:size] for name, unit in units.items()}


def tricky_map() -> GameMap:
    """A map whose city names are qualifier words, "to" and names inside other names, so that
    peeling qualifiers and splitting at "to" or at spaces all have several ways to go."""
    names = {"red": "Red", "blue_two": "Blue Two", "to": "To", "toto": "Toto", "track": "Track",
             "tunnel_3": "Tunnel 3", "red_blue": "Red Blue", "x": "X-Ray", "ray": "Ray"}
    cities = [{"id": cid, "name": name, "x": 10 + 5 * i, "y": 10 + 5 * i}
              for i, (cid, name) in enumerate(names.items())]
    cities[1]["aliases"] = ["2"]

    def link(a: str, b: str, length: int, color: str, n: int = 0, **more: Any) -> dict:
        group = f"{a}-{b}" if n else None
        return {"id": f"{a}-{b}-{n}" if n else f"{a}-{b}", "a": a, "b": b, "length": length,
                "color": color, "tunnel": False, "ferry_locos": 0, "parallel_group": group,
                **more}

    routes = [link("red", "blue_two", 2, "red", 1), link("red", "blue_two", 2, "blue", 2),
              link("red", "to", 1, "gray"), link("to", "toto", 2, "gray", 1),
              link("to", "toto", 2, "gray", 2), link("toto", "track", 3, "green"),
              link("track", "tunnel_3", 3, "gray", tunnel=True),
              link("tunnel_3", "red_blue", 1, "pink"), link("red_blue", "x", 2, "white"),
              link("x", "ray", 1, "black"), link("ray", "red", 4, "gray", ferry_locos=1),
              link("to", "track", 2, "yellow")]
    data = {"id": "tricky", "name": "Tricky", "provenance": {"note": "test"},
            "coordinates": {"width": 100, "height": 100},
            "route_points": {"1": 1, "2": 2, "3": 4, "4": 7}, "cities": cities,
            "routes": routes,
            "tickets": [{"id": "red-ray", "a": "red", "b": "ray", "points": 5, "deck": "main"}]}
    return parse_map(data, "maps/tricky.json")


TRICKY_WORDS = ["Red", "red", "Blue", "Two", "Blue Two", "bluetwo", "2", "To", "to", "TO",
                "Toto", "to to", "Track", "track", "Tunnel", "3", "Tunnel 3", "Red Blue", "X",
                "X-Ray", "x-ray", "Ray", "xray", "X Ray", "1", "4", "gray", "ferry",
                "locomotive", "-", "–", "/", "->", "(2 blue)", "(track 2)", "(1 locomotive)"]


def test_find_route_on_names_that_look_like_qualifiers_answers_as_the_former_search():
    m = tricky_map()
    rng = random.Random("tricky")
    found = 0
    for _ in range(3000):
        tokens = [rng.choice(TRICKY_WORDS) for _ in range(rng.randrange(1, 7))]
        text = tokens[0]
        for token in tokens[1:]:
            text += rng.choice((" ", " ", "", "-", " - ", " to ")) + token
        route = find_route(m, text)
        assert route == reference_find_route(m, text), text
        found += route is not None
    assert found > 80
    assert find_route(m, "Red - Blue Two blue").id == "red-blue_two-2"
    assert find_route(m, "red to 2 red").id == "red-blue_two-1"
    assert find_route(m, "To to Toto").id == "to-toto-1"
    assert find_route(m, "to to toto track 2").id == "to-toto-2"
    assert find_route(m, "tunnel 3 track").id == "track-tunnel_3"
    assert find_route(m, "Red Blue X-Ray").id == "red_blue-x"
    assert find_route(m, "Red Blue Two") is None  # the red or the blue track?


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("map_id", MAPS)
def test_every_route_label_finds_its_route(map_id):
    m = load_map(map_id)
    for rid in m.routes:
        label = m.route_label(rid)
        assert len(label) < MAX_NAME_CHARS // 2
        assert find_route(m, label).id == rid, label
        assert find_route(m, label.upper()).id == rid, label
        assert find_route(m, rid).id == rid


@pytest.mark.parametrize("map_id", MAPS)
def test_every_city_name_alias_and_id_finds_its_city(map_id):
    m = load_map(map_id)
    for city in m.cities.values():
        for text in (city.id, city.name, *city.aliases):
            assert find_city(m, text).id == city.id


@pytest.mark.parametrize("map_id", MAPS)
def test_find_route_answers_as_the_former_search(map_id):
    m = load_map(map_id)
    rng = random.Random(f"names-{map_id}")
    cities = city_words(m)
    found = 0
    for _ in range(2000):
        text = random_text(rng, m, cities)
        route = find_route(m, text)
        assert route == reference_find_route(m, text), text
        found += route is not None
    assert found > 100  # the sample reaches routes, not only refusals


def test_find_route_separator_corner_cases_answer_as_the_former_search():
    u = load_map("usa")
    for text in ("Dallas to to Houston", "Dallas to to to Houston", "Dallas - to Houston",
                 "Dallas- to Houston", "to Dallas Houston", "Dallas Houston to",
                 "Dallas -to Houston", "Dallas <-> Houston", "Dallas<->Houston 1",
                 "Dallas->Houston", "Dallas <- Houston", "Dallas /Houston", "Dallas—Houston",
                 "Dallas - - Houston", "Dallas--Houston", "1 Dallas Houston 1", "red",
                 "Dallas Houston (1 gray, track 2)", "(track 2) Houston Dallas",
                 "Kansas City Saint Louis pink", "Kansas City to Saint Louis blue",
                 "New York to Montreal to", "to New York to Montreal", "Duluth Sault St. Marie",
                 "SaultSt Marie-Duluth", "Saint Louis Kansas City 2 blue", "Dallas→\u0338Houston",
                 "2 Dallas - Houston", "gray Dallas - Houston 1 track 1"):
        assert find_route(u, text) == reference_find_route(u, text), text


@pytest.mark.parametrize("map_id", MAPS)
def test_suggest_cities_answers_as_the_former_search(map_id):
    m = load_map(map_id)
    rng = random.Random(f"suggest-{map_id}")
    cities = [word for words in city_words(m).values() for word in words]
    for _ in range(200):
        text = rng.choice(cities)
        cut = rng.randrange(len(text) + 1)
        text = text[:cut] + rng.choice(["", "x", "e", "é", "  "]) + text[cut + 1:]
        assert suggest_cities(m, text) == reference_suggest_cities(m, text), text
    # Long keys are skipped without difflib: they could not have matched anything anyway.
    longest = max(map(len, names_of(m).keys))
    for size in range(longest, 3 * longest):
        text = ("abcdefghijklmnopqrstuvwxyz" * 10)[:size]
        assert suggest_cities(m, text) == reference_suggest_cities(m, text)


@pytest.mark.parametrize("map_id", MAPS)
def test_text_longer_than_the_bound_is_refused_before_any_work(map_id, monkeypatch):
    m = load_map(map_id)
    label = m.route_label(next(iter(m.routes)))
    padded = label + " " * (MAX_NAME_CHARS + 1 - len(label))
    city = next(iter(m.cities.values())).name

    def no_fold(text: str) -> str:
        raise AssertionError("folded text that is too long")

    monkeypatch.setattr(names_module, "fold", no_fold)
    assert find_route(m, padded) is None
    assert find_city(m, city + " " * MAX_NAME_CHARS) is None
    assert suggest_cities(m, city + " " * MAX_NAME_CHARS) == []
    assert find_route(m, "x" * 6000) is None and find_city(m, "x" * 6000) is None


class Counting:
    """Counts the lookups of folded text in a map's name index (the unit of work)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, m: GameMap) -> None:
        self.calls = 0
        names = names_of(m)
        for attr in ("keys", "prefixes", "suffixes"):
            monkeypatch.setattr(names, attr, _CountingContainer(getattr(names, attr), self))


class _CountingContainer:
    def __init__(self, inner: Any, counter: Counting) -> None:
        self.inner = inner
        self.counter = counter

    def __contains__(self, key: str) -> bool:
        self.counter.calls += 1
        return key in self.inner

    def get(self, key: str, default: Any = None) -> Any:
        self.counter.calls += 1
        return self.inner.get(key, default)

    def __iter__(self):
        return iter(self.inner)

    def __len__(self) -> int:
        return len(self.inner)

    def __getitem__(self, key: str) -> Any:
        return self.inner[key]


@pytest.mark.parametrize("map_id", [*MAPS, "tricky"])
def test_find_route_work_grows_linearly_with_the_text(map_id, monkeypatch):
    m = tricky_map() if map_id == "tricky" else load_map(map_id)
    monkeypatch.setattr(names_module, "MAX_NAME_CHARS", 100_000)  # measure the matcher itself
    longest = names_of(m).longest
    for family, text in hostile_texts(m, 6000).items():
        counts = []
        for size in (500, 1000, 2000):
            with monkeypatch.context() as patch:
                counter = Counting(patch, m)
                find_route(m, text[:size])
                counts.append(counter.calls)
        # Lookups per character stay below a constant of the map (a name's length, squared,
        # allows for each start being tried against each end) — not growing with the text.
        for size, calls in zip((500, 1000, 2000), counts, strict=True):
            assert calls <= 4 * (longest + 2) ** 2 * size // 10, (family, size, calls)
        assert counts[2] <= 5 * max(counts[0], 50), (family, counts)


@pytest.mark.parametrize("map_id", MAPS)
def test_hostile_text_up_to_discords_limit_costs_bounded_work(map_id, monkeypatch):
    # Counted in lookups, not timed: the figure in seconds is bench/bench_names.py's job.
    m = load_map(map_id)
    longest = names_of(m).longest
    bound = 4 * (longest + 2) ** 2 * MAX_NAME_CHARS // 10
    for size in (MAX_NAME_CHARS, 6000):
        for family, text in hostile_texts(m, size).items():
            with monkeypatch.context() as patch:
                counter = Counting(patch, m)
                find_route(m, text)
                find_city(m, text)
                suggest_cities(m, text)
            assert counter.calls <= 3 * bound, (family, size, counter.calls)


@pytest.mark.parametrize("map_id", MAPS)
def test_random_junk_never_raises(map_id):
    m = load_map(map_id)
    rng = random.Random(f"junk-{map_id}")
    alphabet = ("abcdeéøßİ ΩЖ日🚂-–—/→↔<>()[],.;:#'\"\\\t\n\u0301\u0338\u200b\ufeff"
                "0123456789ᄀ\ud7a3\ud800to")
    for _ in range(300):
        size = rng.choice((1, 5, 20, 80, MAX_NAME_CHARS, MAX_NAME_CHARS + 1, 1000))
        text = "".join(rng.choice(alphabet) for _ in range(size))
        route = find_route(m, text)
        assert route is None or route.id in m.routes
        city = find_city(m, text)
        assert city is None or city.id in m.cities
        assert isinstance(suggest_cities(m, text, rng.randrange(-1, 5)), list)
    for value in (None, 5, b"oslo", ["oslo"], {"a": 1}, 3.5):
        assert find_route(m, value) is None and find_city(m, value) is None  # type: ignore[arg-type]
        assert suggest_cities(m, value) == []  # type: ignore[arg-type]
