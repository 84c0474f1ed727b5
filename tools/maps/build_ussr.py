"""Build maps/ussr.json: the USSR board, a reconstruction authored by this project.

No public data exists for the USSR fan board, so this script *is* the board: the cities
with their real latitude and longitude, the projection that places them for drawing, and the
routes and tickets as readable tables. Change the tables here and re-run; never edit the JSON.

    python -m tools.maps.build_ussr            # write maps/ussr.json (re-validated on the way out)
    python -m tools.maps.build_ussr --report   # print the board's figures, write nothing

How the board was made (also in maps/README.md, "USSR"):

* Cities: 50 cities of the Soviet Union under their Soviet-era names (Leningrad, Gorky,
  Kuibyshev, Sverdlovsk, Alma-Ata, Frunze-era spellings ...), positioned from their real
  latitude and longitude (rounded to 0.01°).
* Projection: y is linear in latitude; x is piecewise linear in longitude (knots below). West
  of the Urals the horizontal scale is about true shape at 55° N; further east it is squeezed
  step by step, as printed boards squeeze empty land, so that the whole country fits a
  landscape board and no two cities are closer than 60 drawing units.
* Routes follow real railways (or, for ferries, real sea and lake crossings); each route's
  length is about its drawn length / 50, adjusted by hand. Tunnels cross real mountains (the
  Carpathians, the Caucasus, the Urals, the Pamir-Alai and Tian Shan, the Baikal and Stanovoy
  ranges, the Kolyma highlands); ferries cross real water (the White Sea, the Black Sea, the
  Caspian and Aral Seas, Lake Baikal, the Yenisei, the Tatar Strait, the Sea of Japan and the
  Sea of Okhotsk). Every route says which in its `note`.
* Colours: 8 routes of each of the 8 colours (24-26 trains each), the rest grey, as on the
  official boards; every ferry is grey (seed: "Ferries are special Grey routes").
* Tickets: 45 short and 12 long (seed). A ticket is worth the number of trains on the
  shortest connection between its cities, as on the official boards (Europe: 44 of 46
  tickets); this script computes the points, so they can never drift from the routes.
  Short tickets are worth 5-13, long tickets 17-25.
"""

from __future__ import annotations

import json
import math
import sys
from collections import Counter, defaultdict
from itertools import combinations
from pathlib import Path

import networkx as nx

from engine.maps import dump_map_json, parse_map
from tools.maps import seas

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "maps" / "ussr.json"

# The route scoring table (rules/README.md, AMBIGUITIES U1). 7 -> 18 is not printed anywhere.
ROUTE_POINTS = {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, "7": 18, "8": 21, "9": 27}

# --- cities: id, Soviet-era name, latitude N, longitude E, other names players may type ------
CITIES: list[tuple[str, str, float, float, tuple[str, ...]]] = [
    # Baltic, Belorussia, Ukraine, Crimea
    ("tallinn", "Tallinn", 59.44, 24.75, ("Reval",)),
    ("riga", "Riga", 56.95, 24.11, ()),
    ("minsk", "Minsk", 53.90, 27.57, ()),
    ("lvov", "Lvov", 49.84, 24.03, ("Lviv", "Lwow", "Lemberg")),
    ("uzhgorod", "Uzhgorod", 48.62, 22.30, ("Uzhhorod",)),
    ("kiev", "Kiev", 50.45, 30.52, ("Kyiv",)),
    ("odessa", "Odessa", 46.48, 30.73, ("Odesa",)),
    ("simferopol", "Simferopol", 44.95, 34.10, ()),
    ("kharkov", "Kharkov", 49.99, 36.23, ("Kharkiv",)),
    # Russia west of the Urals
    ("murmansk", "Murmansk", 68.97, 33.08, ()),
    ("arkhangelsk", "Arkhangelsk", 64.54, 40.54, ("Archangel",)),
    ("leningrad", "Leningrad", 59.94, 30.32, ("Saint Petersburg", "St. Petersburg", "Petrograd")),
    ("moskva", "Moskva", 55.76, 37.62, ("Moscow",)),
    ("gorky", "Gorky", 56.33, 44.00, ("Gorki", "Nizhny Novgorod")),
    ("kazan", "Kazan", 55.79, 49.12, ()),
    ("kuibyshev", "Kuibyshev", 53.20, 50.15, ("Kuybyshev", "Samara")),
    ("volgograd", "Volgograd", 48.71, 44.51, ("Stalingrad", "Tsaritsyn")),
    ("rostov", "Rostov", 47.24, 39.71, ("Rostov-na-Donu", "Rostov-on-Don")),
    ("astrakhan", "Astrakhan", 46.35, 48.04, ()),
    ("sochi", "Sochi", 43.59, 39.72, ()),
    ("perm", "Perm", 58.01, 56.25, ("Molotov",)),
    ("ufa", "Ufa", 54.74, 55.97, ()),
    ("sverdlovsk", "Sverdlovsk", 56.84, 60.61, ("Yekaterinburg", "Ekaterinburg")),
    ("vorkuta", "Vorkuta", 67.50, 64.03, ()),
    # Transcaucasia
    ("tbilisi", "Tbilisi", 41.72, 44.79, ("Tiflis",)),
    ("baku", "Baku", 40.41, 49.87, ()),
    # Central Asia and Kazakhstan
    ("krasnovodsk", "Krasnovodsk", 40.02, 52.97, ("Turkmenbashi",)),
    ("ashkhabad", "Ashkhabad", 37.95, 58.38, ("Ashgabat",)),
    ("nukus", "Nukus", 42.46, 59.60, ()),
    ("bukhara", "Bukhara", 39.77, 64.42, ("Buxoro",)),
    ("tashkent", "Tashkent", 41.30, 69.24, ()),
    ("dushanbe", "Dushanbe", 38.56, 68.78, ("Stalinabad",)),
    ("alma_ata", "Alma-Ata", 43.24, 76.89, ("Almaty",)),
    ("aralsk", "Aralsk", 46.80, 61.67, ("Aral",)),
    ("karaganda", "Karaganda", 49.80, 73.10, ("Karagandy",)),
    # Siberia
    ("omsk", "Omsk", 54.99, 73.37, ()),
    ("novosibirsk", "Novosibirsk", 55.03, 82.92, ()),
    ("krasnoyarsk", "Krasnoyarsk", 56.01, 92.87, ()),
    ("norilsk", "Norilsk", 69.35, 88.20, ()),
    ("irkutsk", "Irkutsk", 52.29, 104.28, ()),
    ("severobaikalsk", "Severobaikalsk", 55.63, 109.31, ("Severobaykalsk",)),
    ("chita", "Chita", 52.03, 113.50, ()),
    ("tynda", "Tynda", 55.15, 124.72, ()),
    ("yakutsk", "Yakutsk", 62.03, 129.73, ()),
    # The Far East
    ("khabarovsk", "Khabarovsk", 48.48, 135.08, ()),
    ("komsomolsk", "Komsomolsk", 50.55, 137.01, ("Komsomolsk-na-Amure", "Komsomolsk-on-Amur")),
    ("vladivostok", "Vladivostok", 43.12, 131.89, ()),
    ("yuzhno_sakhalinsk", "Yuzhno-Sakhalinsk", 46.96, 142.73, ("Toyohara",)),
    ("magadan", "Magadan", 59.56, 150.80, ()),
    ("petropavlovsk", "Petropavlovsk", 53.02, 158.65, ("Petropavlovsk-Kamchatsky",)),
]

# --- the projection ---------------------------------------------------------------------------
# x: piecewise linear in longitude through these (longitude °E, x) knots. Units per degree:
# 29 in the far west (so that Lvov and Uzhgorod, 185 km apart, stay 60 units apart), 18 to
# 40° E (true shape at 55° N is 16.3), 19.5 to 60° E, then 15, 9.5, 9 and 7.25 eastward.
LON_KNOTS: tuple[tuple[float, float], ...] = (
    (22.0, 47.0), (25.0, 134.0), (40.0, 404.0), (60.0, 794.0), (80.0, 1094.0),
    (100.0, 1284.0), (120.0, 1464.0), (160.0, 1754.0),
)
# y: 28.5 units per degree of latitude, 70° N at y = 40 (north up).
LAT_TOP, LAT_SCALE, Y_TOP = 70.0, 28.5, 40.0
WIDTH, HEIGHT = 1800, 1000


def project(lat: float, lon: float) -> tuple[int, int]:
    """Drawing coordinates (x right, y down) of a latitude and longitude."""
    for (lon0, x0), (lon1, x1) in zip(LON_KNOTS, LON_KNOTS[1:], strict=False):
        if lon <= lon1:
            x = x0 + (lon - lon0) * (x1 - x0) / (lon1 - lon0)
            break
    else:
        raise ValueError(f"longitude {lon} is east of the last knot")
    y = Y_TOP + (LAT_TOP - lat) * LAT_SCALE
    return round(x), round(y)


# --- routes -----------------------------------------------------------------------------------
# One line per connection: the two cities, the length, the colour of each track (several
# colours = a double or triple route), the kind (`-` plain, `tunnel`, `ferryN` = a ferry with
# N locomotive spaces) and the geography behind it.
ROUTES = """
murmansk     leningrad      5  orange               -        Kirov Railway through Karelia
murmansk     arkhangelsk    4  gray                 ferry1   White Sea
arkhangelsk  leningrad      4  pink                 -        Obozersky-Belomorsk line
arkhangelsk  moskva         5  green                -        Northern Railway via Vologda
arkhangelsk  vorkuta        7  gray                 -        Pechora Railway via Kotlas
leningrad    tallinn        2  white                -        Baltic Railway
tallinn      riga           1  gray                 -        Tapa-Valga-Riga line
leningrad    riga           3  red                  -        via Pskov
leningrad    moskva         3  orange,green         -        October Railway
riga         minsk          2  white                -        via Daugavpils
minsk        moskva         3  green,black          -        via Smolensk
minsk        kiev           2  red                  -        via Gomel
minsk        lvov           3  yellow               -        via Brest and Kovel
lvov         uzhgorod       1  gray                 tunnel   the Carpathians (Beskid tunnel)
lvov         kiev           2  yellow               -        via Ternopol
uzhgorod     odessa         3  gray                 -        along the Carpathians via Chernovtsy and Kishinev
kiev         odessa         2  green                -        via Vinnitsa
kiev         kharkov        2  gray                 -        via Poltava
kiev         moskva         4  white                -        via Bryansk
kharkov      moskva         3  blue,white           -        via Kursk and Orel
kharkov      rostov         2  black                -        via the Donbass
kharkov      volgograd      3  gray                 -        via Likhaya
kharkov      simferopol     3  green                -        via Zaporozhye and the Perekop isthmus
odessa       simferopol     2  gray                 ferry1   Black Sea (Odessa-Sevastopol)
simferopol   sochi          2  gray                 ferry1   Black Sea (Yalta-Sochi)
rostov       sochi          2  red                  tunnel   the western Caucasus (Tuapse line)
sochi        tbilisi        2  orange               tunnel   the Caucasus (Sukhumi, the Likhi range)
rostov       tbilisi        4  gray                 tunnel   the Greater Caucasus (Georgian Military Road)
rostov       volgograd      2  pink                 -        via Likhaya
tbilisi      baku           2  blue,white           -        Transcaucasian Railway
astrakhan    baku           3  blue                 -        along the Caspian coast via Makhachkala
baku         krasnovodsk    1  gray                 ferry1   Caspian Sea (Baku-Krasnovodsk train ferry)
volgograd    moskva         5  orange               -        via Tambov
volgograd    astrakhan      2  black                -        down the Volga
volgograd    kuibyshev      3  yellow               -        up the Volga via Saratov
moskva       gorky          2  pink,red             -        via Vladimir
gorky        kazan          2  green,blue           -        via Cheboksary
kazan        kuibyshev      1  gray                 -        via Ulyanovsk
kazan        perm           3  black                -        via Izhevsk
kazan        ufa            2  pink                 -        via Agryz
kuibyshev    ufa            2  orange               -        Samara-Zlatoust railway
perm         ufa            2  gray                 -        along the western Urals
perm         sverdlovsk     2  red                  tunnel   the Urals (Trans-Siberian)
ufa          sverdlovsk     2  orange               tunnel   the southern Urals via Zlatoust and Chelyabinsk
kuibyshev    aralsk         6  white                -        Orenburg-Tashkent railway
astrakhan    aralsk         5  gray                 -        via Guryev and Beineu
ufa          aralsk         5  blue                 -        via Orenburg and Aktyubinsk
sverdlovsk   omsk           4  black,red            -        Trans-Siberian via Tyumen
sverdlovsk   karaganda      5  yellow               -        via Chelyabinsk, Kustanai and Tselinograd
omsk         novosibirsk    3  green,yellow         -        Trans-Siberian across the Baraba steppe
omsk         karaganda      3  yellow               -        via Tselinograd
novosibirsk  krasnoyarsk    3  black,red,gray       -        Trans-Siberian (the triple route of the seed)
novosibirsk  alma_ata       7  red                  -        Turkestan-Siberia Railway via Barnaul and Semipalatinsk
novosibirsk  karaganda      4  black                -        via Pavlodar and Ekibastuz
krasnoyarsk  irkutsk        3  pink                 -        Trans-Siberian via Taishet
krasnoyarsk  norilsk        8  gray                 ferry2   the Yenisei, down to Dudinka
krasnoyarsk  severobaikalsk 4  white                -        Baikal-Amur Mainline via Bratsk and Ust-Kut
irkutsk      severobaikalsk 2  gray                 ferry1   Lake Baikal
irkutsk      chita          2  white                tunnel   the Circum-Baikal Railway and Khamar-Daban
severobaikalsk tynda        3  gray                 tunnel   Baikal-Amur Mainline (Severomuysky tunnel)
chita        tynda          3  green                -        Amur Railway and the Little BAM
chita        khabarovsk     5  pink                 -        Amur Railway
tynda        yakutsk        4  black                tunnel   Amur-Yakutsk Mainline across the Aldan highlands
tynda        komsomolsk     4  blue                 tunnel   Baikal-Amur Mainline (Dusse-Alin tunnel, Bureya range)
komsomolsk   khabarovsk     1  gray                 -        along the Amur
khabarovsk   vladivostok    3  orange               -        Ussuri Railway
komsomolsk   yuzhno_sakhalinsk 2 gray               ferry1   Tatar Strait (Vanino-Kholmsk train ferry)
vladivostok  yuzhno_sakhalinsk 3 gray               ferry1   Sea of Japan (Vladivostok-Korsakov)
yakutsk      magadan        4  gray                 tunnel   the Kolyma highway over the Suntar-Khayata range
magadan      petropavlovsk  4  gray                 ferry2   Sea of Okhotsk
magadan      komsomolsk     6  gray                 ferry2   Sea of Okhotsk (Nagaevo-Vanino)
yuzhno_sakhalinsk petropavlovsk 5 gray              ferry2   Sea of Okhotsk along the Kuril Islands
karaganda    alma_ata       4  yellow               -        via Balkhash and Chu
karaganda    aralsk         4  gray                 -        via Dzhezkazgan
tashkent     aralsk         4  pink                 -        Orenburg-Tashkent railway via Kzyl-Orda
tashkent     alma_ata       3  orange               tunnel   the western Tian Shan (Kirghiz range)
tashkent     bukhara        2  blue,pink            -        via Samarkand
tashkent     dushanbe       1  gray                 tunnel   the Pamir-Alai (Anzob pass)
bukhara      dushanbe       1  gray                 tunnel   the Gissar range
ashkhabad    bukhara        2  yellow               -        Trans-Caspian Railway via Mary and Chardzhou
krasnovodsk  ashkhabad      2  gray                 -        Trans-Caspian Railway
ashkhabad    nukus          3  blue                 -        via Tashauz and Urgench
nukus        bukhara        2  gray                 -        along the Amu Darya
nukus        aralsk         3  gray                 ferry1   Aral Sea (Muynak-Aralsk)
vorkuta      perm           6  gray                 -        via Pechora, Kotlas and Kirov
vorkuta      norilsk        6  gray                 tunnel   the polar Urals and the Transpolar Mainline
"""

# --- tickets: the two cities; the points are the trains of the shortest connection -----------
LONG_TICKETS = """
leningrad      tashkent
moskva         irkutsk
murmansk       baku
kiev           novosibirsk
minsk          alma_ata
odessa         omsk
sverdlovsk     khabarovsk
novosibirsk    magadan
tbilisi        krasnoyarsk
kazan          chita
krasnovodsk    krasnoyarsk
moskva         norilsk
"""
SHORT_TICKETS = """
tallinn        arkhangelsk
riga           lvov
tallinn        kharkov
murmansk       vorkuta
leningrad      lvov
uzhgorod       simferopol
lvov           rostov
uzhgorod       kharkov
simferopol     volgograd
kiev           sverdlovsk
odessa         tbilisi
rostov         baku
volgograd      ashkhabad
leningrad      tbilisi
gorky          perm
volgograd      perm
perm           omsk
kazan          vorkuta
alma_ata       omsk
novosibirsk    norilsk
irkutsk        yakutsk
chita          yakutsk
tynda          yuzhno_sakhalinsk
chita          komsomolsk
vladivostok    petropavlovsk
yakutsk        petropavlovsk
khabarovsk     magadan
nukus          alma_ata
bukhara        aralsk
krasnovodsk    dushanbe
aralsk         omsk
ufa            tashkent
astrakhan      tashkent
moskva         karaganda
krasnoyarsk    alma_ata
omsk           irkutsk
kiev           kuibyshev
leningrad      volgograd
murmansk       moskva
arkhangelsk    kazan
krasnoyarsk    chita
novosibirsk    severobaikalsk
severobaikalsk khabarovsk
irkutsk        vladivostok
minsk          sochi
"""

LONG_POINTS = (17, 25)
SHORT_POINTS = (5, 13)


def parse_routes() -> list[dict]:
    routes: list[dict] = []
    names = {c[0] for c in CITIES}
    for line in ROUTES.strip().splitlines():
        a, b, length, colours, kind, *note = line.split()
        for end in (a, b):
            if end not in names:
                raise SystemExit(f"unknown city {end!r} in route line: {line}")
        tracks = colours.split(",")
        tunnel = kind == "tunnel"
        ferry = int(kind[5:]) if kind.startswith("ferry") else 0
        if kind not in ("-", "tunnel") and not kind.startswith("ferry"):
            raise SystemExit(f"unknown kind {kind!r} in route line: {line}")
        group = f"{a}-{b}" if len(tracks) > 1 else None
        for n, colour in enumerate(tracks, 1):
            route = {
                "id": f"{group}-{n}" if group else f"{a}-{b}",
                "a": a,
                "b": b,
                "length": int(length),
                "color": colour,
                "tunnel": tunnel,
                "ferry_locos": ferry,
                "parallel_group": group,
                "tags": ["triple_route"] if len(tracks) == 3 else [],
                "note": " ".join(note),
            }
            routes.append(route)
    return routes


def shortest_trains(routes: list[dict]) -> dict[str, dict[str, int]]:
    """Fewest trains between every two cities: Dijkstra over the route lengths (networkx; the
    tests check the shipped values against the engine's own engine.graph.train_distances)."""
    board = nx.MultiGraph()
    board.add_weighted_edges_from(((r["a"], r["b"], r["length"]) for r in routes), weight="length")
    return {start: dict(dist) for start, dist in nx.all_pairs_dijkstra_path_length(board, weight="length")}


def parse_tickets(routes: list[dict]) -> list[dict]:
    dist = shortest_trains(routes)
    tickets: list[dict] = []
    for deck, text, (low, high) in (("long", LONG_TICKETS, LONG_POINTS), ("short", SHORT_TICKETS, SHORT_POINTS)):
        for line in text.strip().splitlines():
            a, b = line.split()[:2]
            points = dist[a][b]
            if not low <= points <= high:
                raise SystemExit(f"{deck} ticket {a}-{b} would be worth {points}, outside {low}-{high}")
            tickets.append({"id": f"{a}-{b}", "a": a, "b": b, "points": points, "deck": deck})
    return tickets


def build() -> dict:
    cities = []
    for city_id, name, lat, lon, aliases in CITIES:
        x, y = project(lat, lon)
        cities.append({"id": city_id, "name": name, "x": x, "y": y, "kind": "city", "aliases": list(aliases),
                       "tags": {"lat": lat, "lon": lon}})
    routes = parse_routes()
    return {
        "id": "ussr",
        "name": "Ticket to Ride USSR (fan expansion, reconstructed board)",
        "provenance": {
            "note": ("A reconstruction authored by this project, not a copy of the printed fan board: no public "
                     "data exists for it. Cities are Soviet-era cities placed from their real latitude and "
                     "longitude; routes follow real railways and real sea crossings; the seed rulebook "
                     "(shared/seeds/ussr-fan-expansion.txt) fixes the triple route Novosibirsk-Krasnoyarsk and "
                     "45 short + 12 long tickets. See maps/README.md, section USSR."),
            "generated_by": "tools/maps/build_ussr.py",
            "seed": "shared/seeds/ussr-fan-expansion.txt",
            "coordinates": ("x piecewise linear in longitude through the knots "
                            + ", ".join(f"{lon:g}E->{x:g}" for lon, x in LON_KNOTS)
                            + f"; y = {Y_TOP:g} + ({LAT_TOP:g} - latitude) * {LAT_SCALE:g}; "
                            "city tags keep the latitude and longitude"),
            "tickets": "points = trains on the shortest connection (computed by the generator)",
        },
        "coordinates": {"width": WIDTH, "height": HEIGHT},
        "route_points": ROUTE_POINTS,
        "cities": cities,
        "routes": routes,
        "tickets": parse_tickets(routes),
        "extras": {"drawing": {"seas": seas.project_seas("ussr", project_anywhere, WIDTH, HEIGHT)}},
    }


def project_anywhere(lon: float, lat: float) -> tuple[float, float]:
    """`project`, unrounded and continued past the first and last knots (for sea outlines that
    run off the board; they are clipped to it)."""
    knots = LON_KNOTS
    if lon <= knots[0][0]:
        (lon0, x0), (lon1, x1) = knots[0], knots[1]
    elif lon >= knots[-1][0]:
        (lon0, x0), (lon1, x1) = knots[-2], knots[-1]
    else:
        (lon0, x0), (lon1, x1) = next((a, b) for a, b in zip(knots, knots[1:], strict=False) if lon <= b[0])
    return x0 + (lon - lon0) * (x1 - x0) / (lon1 - lon0), Y_TOP + (LAT_TOP - lat) * LAT_SCALE


def report(data: dict) -> None:
    routes = data["routes"]
    pos = {c["id"]: (c["x"], c["y"]) for c in data["cities"]}
    print(f"cities {len(data['cities'])}, routes {len(routes)}, trains {sum(r['length'] for r in routes)}")
    by_colour = defaultdict(list)
    for r in routes:
        by_colour[r["color"]].append(r["length"])
    for colour, lengths in sorted(by_colour.items()):
        print(f"  {colour:7} {len(lengths):3} routes {sum(lengths):4} trains  {sorted(Counter(lengths).items())}")
    print("  lengths", sorted(Counter(r["length"] for r in routes).items()))
    print(f"  tunnels {sum(r['tunnel'] for r in routes)}, ferries {sum(r['ferry_locos'] > 0 for r in routes)}, "
          f"parallel groups {Counter(Counter(r['parallel_group'] for r in routes if r['parallel_group']).values())}")
    # A bridge is a connection whose loss cuts the board in two: the places beyond it hang on
    # one route (or one double route), a choke point for every ticket that ends there.
    links = nx.Graph((r["a"], r["b"]) for r in routes)
    print("  bridges", sorted(tuple(sorted(edge)) for edge in nx.bridges(links)))
    close = sorted((math.dist(pos[a], pos[b]), a, b) for a, b in combinations(pos, 2))[:3]
    print("  closest cities", [(round(d), a, b) for d, a, b in close])
    tickets = data["tickets"]
    for deck in ("short", "long"):
        pts = [t["points"] for t in tickets if t["deck"] == deck]
        print(f"  {deck} tickets {len(pts)}: {sorted(Counter(pts).items())}")


def dump(data: dict) -> str:
    """The shipped map text (engine.maps.dump_map_json: one city/route/ticket per line)."""
    return dump_map_json(data)


def main(argv: list[str]) -> int:
    data = build()
    parse_map(data, "maps/ussr.json")
    if "--report" in argv:
        report(data)
        return 0
    text = dump(data)
    assert json.loads(text) == data
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(REPO)}")
    report(data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
