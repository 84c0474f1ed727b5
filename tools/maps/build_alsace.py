"""Build maps/alsace.json: the Alsace board, a reconstruction authored by this project.

No public data exists for the Alsace fan board (the seed says "the board is already
available"), so this script *is* the board: towns with their real latitude and longitude, the
projection that places them for drawing, and the routes, tickets and tourist deck as readable
tables. Change the tables here and re-run; never edit the JSON.

    python -m tools.maps.build_alsace            # write maps/alsace.json (re-validated on the way out)
    python -m tools.maps.build_alsace --report   # print the board's figures, write nothing

How the board was made (also in maps/README.md, "Alsace"):

* Towns: southern Alsace and its neighbours: every town on an attraction card (Montbéliard,
  Mulhouse, Belfort, Thann, Altkirch, Kruth, Muhlbach-sur-Munster, Colmar) plus the towns and
  valleys that connect them, from their real latitude and longitude (0.01°). Each town is
  tagged with its country (FR, DE, CH) and, in France, its (pre-2016) region: Alsace,
  Franche-Comté or Lorraine, and its département.
* Foreign countries are border towns across the Rhine (Germany: Freiburg, Müllheim) and around
  Basel and the Swiss Jura (Switzerland: Basel, Porrentruy, Delémont). They are ordinary
  towns (kind "city") tagged with their country, so paths run through them like any town
  (the perimeter ring passes Basel); "most foreign countries" counts their country tags.
* Projection: true shape (about 8 drawing units per km): x = 40 + (lon - 5.95) * 600,
  y = 40 + (48.35 - lat) * 890. No two towns are closer than 60 units.
* Routes follow real railways and roads; length is about the distance / 7 km. Tunnels cross
  the Vosges (the Sainte-Marie-aux-Mines tunnel, the Schlucht, the Bussang tunnel, the Ballon
  d'Alsace) and the Jura (Mont Terri, Lomont, Lucelle). The Ballon d'Alsace crossing
  Giromagny - Saint-Maurice-sur-Moselle, a double tunnel running due north-south, is tagged
  `north_south_tunnel`; the ring of routes along the board's edge is tagged `perimeter`.
* Tickets (one `main` deck): the seed's tickets "come from the base game", whose cities are
  not on this board, so the project wrote 36; each is worth the number of trains on the
  shortest connection, computed here.
* The tourist deck is in `extras["tourist_cards"]`: the 15 listed attractions (1 copy each),
  2 Visitor Passes (10) and 9 Lucky Devils = 26 cards (AMBIGUITIES A2).
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

REPO = Path(__file__).resolve().parents[2]
OUT = REPO / "maps" / "alsace.json"

ROUTE_POINTS = {"1": 1, "2": 2, "3": 4, "4": 7, "5": 10, "6": 15, "7": 18, "8": 21, "9": 27}

ALS, FC, LOR = "Alsace", "Franche-Comté", "Lorraine"
# --- towns: id, name, latitude N, longitude E, country, region, département, aliases ---------
CITIES: list[tuple[str, str, float, float, str, str | None, str | None, tuple[str, ...]]] = [
    ("selestat", "Sélestat", 48.26, 7.45, "FR", ALS, "Bas-Rhin", ("Schlettstadt",)),
    ("sainte_marie_aux_mines", "Sainte-Marie-aux-Mines", 48.25, 7.18, "FR", ALS, "Haut-Rhin", ()),
    ("ribeauville", "Ribeauvillé", 48.19, 7.32, "FR", ALS, "Haut-Rhin", ("Rappoltsweiler",)),
    ("colmar", "Colmar", 48.08, 7.36, "FR", ALS, "Haut-Rhin", ()),
    ("neuf_brisach", "Neuf-Brisach", 48.02, 7.53, "FR", ALS, "Haut-Rhin", ()),
    ("muhlbach_sur_munster", "Muhlbach-sur-Munster", 48.03, 7.07, "FR", ALS, "Haut-Rhin",
     ("Muhlbach", "Muhlbach s/Munster")),
    ("guebwiller", "Guebwiller", 47.91, 7.21, "FR", ALS, "Haut-Rhin", ()),
    ("ensisheim", "Ensisheim", 47.87, 7.35, "FR", ALS, "Haut-Rhin", ()),
    ("kruth", "Kruth", 47.93, 6.96, "FR", ALS, "Haut-Rhin", ()),
    ("thann", "Thann", 47.81, 7.10, "FR", ALS, "Haut-Rhin", ()),
    ("masevaux", "Masevaux", 47.78, 6.99, "FR", ALS, "Haut-Rhin", ()),
    ("mulhouse", "Mulhouse", 47.75, 7.34, "FR", ALS, "Haut-Rhin", ("Mülhausen",)),
    ("dannemarie", "Dannemarie", 47.63, 7.12, "FR", ALS, "Haut-Rhin", ()),
    ("altkirch", "Altkirch", 47.62, 7.24, "FR", ALS, "Haut-Rhin", ()),
    ("ferrette", "Ferrette", 47.49, 7.31, "FR", ALS, "Haut-Rhin", ("Pfirt",)),
    ("giromagny", "Giromagny", 47.74, 6.83, "FR", FC, "Territoire de Belfort", ()),
    ("belfort", "Belfort", 47.64, 6.86, "FR", FC, "Territoire de Belfort", ()),
    ("delle", "Delle", 47.51, 7.00, "FR", FC, "Territoire de Belfort", ()),
    ("montbeliard", "Montbéliard", 47.51, 6.80, "FR", FC, "Doubs", ("Mömpelgard",)),
    ("pont_de_roide", "Pont-de-Roide", 47.39, 6.77, "FR", FC, "Doubs", ()),
    ("maiche", "Maîche", 47.25, 6.80, "FR", FC, "Doubs", ()),
    ("besancon", "Besançon", 47.24, 6.02, "FR", FC, "Doubs", ()),
    ("lure", "Lure", 47.68, 6.50, "FR", FC, "Haute-Saône", ()),
    ("vesoul", "Vesoul", 47.62, 6.15, "FR", FC, "Haute-Saône", ()),
    ("saint_maurice_sur_moselle", "Saint-Maurice-sur-Moselle", 47.86, 6.82, "FR", LOR, "Vosges", ()),
    ("remiremont", "Remiremont", 48.02, 6.59, "FR", LOR, "Vosges", ()),
    ("gerardmer", "Gérardmer", 48.07, 6.88, "FR", LOR, "Vosges", ()),
    ("epinal", "Épinal", 48.17, 6.45, "FR", LOR, "Vosges", ()),
    ("saint_die", "Saint-Dié-des-Vosges", 48.28, 6.95, "FR", LOR, "Vosges", ("Saint-Dié",)),
    ("freiburg", "Freiburg im Breisgau", 47.99, 7.85, "DE", None, None, ("Freiburg", "Fribourg-en-Brisgau")),
    ("mullheim", "Müllheim", 47.81, 7.63, "DE", None, None, ()),
    ("basel", "Basel", 47.56, 7.59, "CH", None, None, ("Bâle", "Basle")),
    ("porrentruy", "Porrentruy", 47.42, 7.08, "CH", None, None, ("Pruntrut",)),
    ("delemont", "Delémont", 47.36, 7.34, "CH", None, None, ("Delsberg",)),
]

# --- the projection: true shape, about 8 units per km ------------------------------------------
LON0, X_SCALE, LAT0, Y_SCALE, MARGIN = 5.95, 600.0, 48.35, 890.0, 40.0
WIDTH, HEIGHT = 1240, 1080


def project(lat: float, lon: float) -> tuple[int, int]:
    """Drawing coordinates (x right, y down) of a latitude and longitude."""
    return round(MARGIN + (lon - LON0) * X_SCALE), round(MARGIN + (LAT0 - lat) * Y_SCALE)


# --- routes ------------------------------------------------------------------------------------
# One line per connection: the two towns, the length, the colour of each track (several colours
# = a double route), the kind (`-` plain, `tunnel`), the tag (`perim` = `perimeter`, `ns` =
# `north_south_tunnel`, `-` none) and the geography behind it.
ROUTES = """
saint_die              sainte_marie_aux_mines    3 black        tunnel perim Vosges: the Maurice-Lemaire tunnel
sainte_marie_aux_mines selestat                  3 green        -      perim Liepvrette valley
selestat               freiburg                  5 gray         -      perim Rhine crossing at Marckolsheim
freiburg               mullheim                  3 red,white    -      perim Rheintalbahn
mullheim               basel                     4 orange       -      perim Rheintalbahn via Weil am Rhein
basel                  delemont                  4 green,gray   -      perim Laufen valley line (Birs gorges)
delemont               porrentruy                3 red          tunnel perim Jura: the Mont Terri tunnel
porrentruy             pont_de_roide             3 gray         tunnel perim Jura: Lomont via Saint-Hippolyte
pont_de_roide          maiche                    2 green        tunnel perim Jura: the Lomont ridge
maiche                 besancon                  5 gray         -      perim Jura plateau
besancon               vesoul                    5 blue         -      perim Besançon-Vesoul line
vesoul                 epinal                    6 green        -      perim Vesoul-Épinal line
epinal                 saint_die                 5 pink         -      perim Meurthe valley
selestat               ribeauville               2 gray         -      -     Route des Vins
selestat               colmar                    3 red,blue     -      -     Strasbourg-Basel main line
ribeauville            colmar                    2 yellow       -      -     Route des Vins
ribeauville            sainte_marie_aux_mines    2 gray         -      -     Col de Fouchy road
colmar                 muhlbach_sur_munster      3 orange,gray  -      -     Munster valley line
colmar                 neuf_brisach              2 white        -      -     Colmar-Neuf-Brisach line
neuf_brisach           freiburg                  3 pink         -      -     Breisach-Freiburg line
colmar                 ensisheim                 3 green        -      -     Hardt plain
colmar                 guebwiller                3 gray         -      -     Route des Vins
ensisheim              mulhouse                  2 black,gray   -      -     Ill valley
ensisheim              guebwiller                2 white        -      -     Lauch valley via Bollwiller
ensisheim              neuf_brisach              3 gray         -      -     Hardt forest
mulhouse               mullheim                  3 yellow       -      -     Mulhouse-Müllheim line
mulhouse               basel                     4 red,green    -      -     Strasbourg-Basel main line
mulhouse               thann                     3 blue,yellow  -      -     Thur valley line
mulhouse               altkirch                  2 pink,gray    -      -     Mulhouse-Altkirch line
mulhouse               dannemarie                3 white        -      -     Paris-Mulhouse main line
mulhouse               guebwiller                3 orange       -      -     Bollwiller-Guebwiller line
thann                  guebwiller                2 gray         -      -     Route des Vins foothills
thann                  masevaux                  1 gray         -      -     Doller valley
thann                  kruth                     3 red,gray     -      -     Thur valley line to Kruth
guebwiller             muhlbach_sur_munster      2 gray         tunnel -     Vosges: the Petit Ballon
muhlbach_sur_munster   kruth                     2 green        tunnel -     Vosges: the Route des Crêtes
muhlbach_sur_munster   gerardmer                 3 yellow       tunnel -     Vosges: the Col de la Schlucht
kruth                  saint_maurice_sur_moselle 2 blue         tunnel -     Vosges: the Bussang railway tunnel
kruth                  masevaux                  2 gray         -      -     Col du Hundsruck
masevaux               belfort                   3 orange       -      -     via Rougemont-le-Château
masevaux               dannemarie                2 black        -      -     Doller and Largue valleys
masevaux               giromagny                 2 gray         -      -     foot of the Ballon d'Alsace
dannemarie             altkirch                  1 gray         -      -     Largue valley
dannemarie             belfort                   3 yellow,black -      -     Paris-Mulhouse main line
dannemarie             delle                     2 green        -      -     Sundgau
altkirch               ferrette                  2 yellow       -      -     Ill valley, upper Sundgau
altkirch               basel                     4 black        -      -     Sundgau road via Hagenthal
ferrette               basel                     3 gray         -      -     Leimental
ferrette               delemont                  2 orange       tunnel -     Jura: the Col des Rangiers
ferrette               porrentruy                3 white        tunnel -     Jura: Lucelle
delle                  porrentruy                2 pink         -      -     Delle-Porrentruy line
belfort                delle                     3 blue,gray    -      -     Belfort-Delle line
montbeliard            delle                     2 orange       -      -     Allan valley
belfort                montbeliard               2 green,white  -      -     Belfort-Montbéliard line
belfort                giromagny                 2 pink         -      -     Savoureuse valley
giromagny              saint_maurice_sur_moselle 3 black,pink   tunnel ns    Ballon d'Alsace, due north-south
belfort                lure                      3 black,orange -      -     Paris-Mulhouse main line
lure                   vesoul                    3 red,gray     -      -     Paris-Mulhouse main line
lure                   remiremont                5 gray         -      -     Vosges saônoises
montbeliard            besancon                  6 yellow,blue  -      -     Doubs valley line
montbeliard            pont_de_roide             2 black        -      -     Doubs valley
montbeliard            lure                      4 gray         -      -     via Héricourt
epinal                 remiremont                3 orange,gray  -      -     Moselle valley line
epinal                 gerardmer                 4 red          -      -     Vologne valley
remiremont             gerardmer                 3 pink         -      -     Col de Sapois
remiremont             saint_maurice_sur_moselle 3 white,gray   -      -     Moselle valley line to Bussang
gerardmer              saint_die                 3 blue         -      -     Col du Plafond
"""

# --- tickets: the two towns; the points are the trains of the shortest connection -------------
TICKETS = """
colmar belfort
colmar basel
colmar montbeliard
colmar epinal
colmar delemont
mulhouse besancon
mulhouse saint_die
mulhouse epinal
mulhouse porrentruy
mulhouse kruth
belfort freiburg
belfort basel
belfort saint_die
belfort selestat
montbeliard freiburg
montbeliard basel
montbeliard gerardmer
thann besancon
thann delemont
altkirch epinal
altkirch gerardmer
kruth basel
kruth besancon
muhlbach_sur_munster basel
muhlbach_sur_munster montbeliard
muhlbach_sur_munster vesoul
selestat basel
selestat besancon
freiburg vesoul
freiburg epinal
freiburg porrentruy
basel vesoul
delemont epinal
saint_die besancon
ribeauville altkirch
guebwiller maiche
"""
TICKET_POINTS = (4, 22)

# --- the tourist deck (seed [A:13-32], AMBIGUITIES A2) -------------------------------------------
ATTRACTIONS = [
    ("montbeliard", "Temple Saint-Martin", 2),
    ("mulhouse", "Zoo & Botanical Gardens", 3),
    ("montbeliard", "Golf de Pruneveille", 5),
    ("belfort", "Flea Market", 4),
    ("belfort", "The Lion", 8),
    ("mulhouse", "Text'ill Fabric Market", 6),
    ("thann", "L'Oeil de la Sorcière", 5),
    ("altkirch", "Rue de la Carpe Frite", 10),
    ("altkirch", "L'Église Notre Dame", 5),
    ("thann", "The Witches' Tower", 2),
    ("kruth", "Town Hall", 3),
    ("kruth", "Tree Adventure Park", 6),
    ("muhlbach_sur_munster", "Ski Slopes", 8),
    ("muhlbach_sur_munster", "Mountaineering", 4),
    ("colmar", "Maison Pfister", 5),
]
VISITOR_PASSES, VISITOR_PASS_POINTS, LUCKY_DEVILS = 2, 10, 9


def tourist_cards() -> list[dict]:
    cards = [{"id": f"attraction_{n:02d}", "kind": "attraction", "city": city, "name": name, "points": points}
             for n, (city, name, points) in enumerate(ATTRACTIONS, 1)]
    cards += [{"id": f"visitor_pass_{n}", "kind": "visitor_pass", "city": None,
               "name": "Visitor Pass to any attraction", "points": VISITOR_PASS_POINTS}
              for n in range(1, VISITOR_PASSES + 1)]
    cards += [{"id": f"lucky_devil_{n}", "kind": "lucky_devil", "city": None, "name": "Lucky Devil", "points": 0}
              for n in range(1, LUCKY_DEVILS + 1)]
    return cards


TAG_CODES = {"perim": "perimeter", "ns": "north_south_tunnel"}


def parse_routes() -> list[dict]:
    routes: list[dict] = []
    names = {c[0] for c in CITIES}
    for line in ROUTES.strip().splitlines():
        a, b, length, colours, kind, tags, *note = line.split()
        for end in (a, b):
            if end not in names:
                raise SystemExit(f"unknown town {end!r} in route line: {line}")
        if kind not in ("-", "tunnel"):
            raise SystemExit(f"unknown kind {kind!r} in route line: {line}")
        tracks = colours.split(",")
        group = f"{a}-{b}" if len(tracks) > 1 else None
        for n, colour in enumerate(tracks, 1):
            routes.append({
                "id": f"{group}-{n}" if group else f"{a}-{b}",
                "a": a, "b": b, "length": int(length), "color": colour,
                "tunnel": kind == "tunnel", "ferry_locos": 0, "parallel_group": group,
                "tags": [] if tags == "-" else [TAG_CODES[tags]],
                "note": " ".join(note),
            })
    return routes


def shortest_trains(routes: list[dict]) -> dict[str, dict[str, int]]:
    """Fewest trains between every two cities: Dijkstra over the route lengths (networkx; the
    tests check the shipped values against the engine's own engine.graph.train_distances)."""
    board = nx.MultiGraph()
    board.add_weighted_edges_from(((r["a"], r["b"], r["length"]) for r in routes), weight="length")
    return {start: dict(dist) for start, dist in nx.all_pairs_dijkstra_path_length(board, weight="length")}


def parse_tickets(routes: list[dict]) -> list[dict]:
    dist = shortest_trains(routes)
    tickets = []
    low, high = TICKET_POINTS
    for line in TICKETS.strip().splitlines():
        a, b = line.split()
        points = dist[a][b]
        if not low <= points <= high:
            raise SystemExit(f"ticket {a}-{b} would be worth {points}, outside {low}-{high}")
        tickets.append({"id": f"{a}-{b}", "a": a, "b": b, "points": points, "deck": "main"})
    return tickets


def build() -> dict:
    cities = []
    for city_id, name, lat, lon, country, region, dept, aliases in CITIES:
        x, y = project(lat, lon)
        tags: dict = {"lat": lat, "lon": lon, "country": country}
        if region:
            tags["french_region"] = region
            tags["departement"] = dept
        cities.append({"id": city_id, "name": name, "x": x, "y": y, "kind": "city", "aliases": list(aliases),
                       "tags": tags})
    routes = parse_routes()
    return {
        "id": "alsace",
        "name": "Ticket to Ride Alsace (fan expansion, reconstructed board)",
        "provenance": {
            "note": ("A reconstruction authored by this project, not a copy of a printed board: no public data "
                     "exists for the Alsace fan board. Towns of southern Alsace and its neighbours placed from "
                     "their real latitude and longitude, tagged with country and French region; routes follow "
                     "real railways and roads; tunnels cross the Vosges and the Jura. The tourist deck is the "
                     "seed's list (shared/seeds/alsace-fan-expansion.txt). See maps/README.md, section Alsace."),
            "generated_by": "tools/maps/build_alsace.py",
            "seed": "shared/seeds/alsace-fan-expansion.txt",
            "coordinates": (f"x = {MARGIN:g} + (longitude - {LON0:g}) * {X_SCALE:g}; "
                            f"y = {MARGIN:g} + ({LAT0:g} - latitude) * {Y_SCALE:g}; "
                            "city tags keep the latitude and longitude"),
            "tickets": "points = trains on the shortest connection (computed by the generator)",
        },
        "coordinates": {"width": WIDTH, "height": HEIGHT},
        "route_points": ROUTE_POINTS,
        "cities": cities,
        "routes": routes,
        "tickets": parse_tickets(routes),
        "extras": {"tourist_cards": tourist_cards()},
    }


def report(data: dict) -> None:
    routes = data["routes"]
    pos = {c["id"]: (c["x"], c["y"]) for c in data["cities"]}
    print(f"towns {len(data['cities'])}, routes {len(routes)}, trains {sum(r['length'] for r in routes)}")
    by_colour = defaultdict(list)
    for r in routes:
        by_colour[r["color"]].append(r["length"])
    for colour, lengths in sorted(by_colour.items()):
        print(f"  {colour:7} {len(lengths):3} routes {sum(lengths):4} trains")
    print("  lengths", sorted(Counter(r["length"] for r in routes).items()))
    print(f"  tunnels {sum(r['tunnel'] for r in routes)}, perimeter {sum('perimeter' in r['tags'] for r in routes)}, "
          f"north-south {sum('north_south_tunnel' in r['tags'] for r in routes)}, "
          f"doubles {len({r['parallel_group'] for r in routes if r['parallel_group']})}")
    # A bridge is a connection whose loss cuts the board in two: the places beyond it hang on
    # one route (or one double route), a choke point for every ticket that ends there.
    links = nx.Graph((r["a"], r["b"]) for r in routes)
    print("  bridges", sorted(tuple(sorted(edge)) for edge in nx.bridges(links)))
    close = sorted((math.dist(pos[a], pos[b]), a, b) for a, b in combinations(pos, 2))[:3]
    print("  closest towns", [(round(d), a, b) for d, a, b in close])
    pts = [t["points"] for t in data["tickets"]]
    print(f"  tickets {len(pts)}: {sorted(Counter(pts).items())}")
    print(f"  tourist cards {len(data['extras']['tourist_cards'])}")


def dump(data: dict) -> str:
    """The shipped map text (engine.maps.dump_map_json: one city/route/ticket per line)."""
    return dump_map_json(data)


def main(argv: list[str]) -> int:
    data = build()
    parse_map(data, "maps/alsace.json")
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
