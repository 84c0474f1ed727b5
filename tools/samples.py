"""Made-up game views for any map: golden tests, benchmarks and previews.

A sample view has the shape of ``engine.game.view`` and is built from map data alone with a
small deterministic generator, so it does not change when the AI or the rules change and it
exists for maps whose rule set is not playable yet (Nordic, Germany, later USSR and Alsace).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.maps import GameMap, load_map
from engine.rules.dice import DiceView
from engine.rules.passengers import PassengersView
from engine.rules.tickets import completed_tickets
from engine.rules.tourist_cards import TouristView, tourist_card_done
from engine.view import PendingView, PlayerView, View


class _Lcg:
    """A tiny fixed generator (so samples never change with Python's `random`)."""

    def __init__(self, seed: int) -> None:
        self.x = (seed * 2654435761 + 12345) & 0xFFFFFFFF

    def next(self) -> int:
        self.x = (self.x * 1664525 + 1013904223) & 0xFFFFFFFF
        return self.x >> 8

    def below(self, n: int) -> int:
        return self.next() % n

    def shuffle(self, items: list) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


NAMES = ("Ada", "Bruno", "Chiara", "Dmitri", "Elif")


def sample_view(
    map_id: str | GameMap,
    players: int = 4,
    seed: int = 1,
    claimed_share: float = 0.4,
    seat: int | None = None,
    stations: bool | None = None,
    over: bool = False,
    dice: bool = False,
) -> View:
    """A mid-game view of `map_id`: about `claimed_share` of the routes claimed, a station or
    two where `stations` (default: maps with tunnels or ferries, i.e. Europe-like), passengers
    and tourist cards where the map has them, dice and route tokens instead of train cards
    with `dice`. `seat` makes it that player's private view (hand, tickets, tourist cards)."""
    game_map = map_id if isinstance(map_id, GameMap) else load_map(map_id)
    rng = _Lcg(seed)
    routes = sorted(game_map.routes.values(), key=lambda r: r.index)
    order = list(range(len(routes)))
    rng.shuffle(order)
    trains = [45] * players
    owned: list[list[str]] = [[] for _ in range(players)]
    groups_taken: dict[str, set[int]] = {}
    owner: dict[str, int] = {}
    target = int(len(routes) * claimed_share)
    points = [0] * players
    turn_seat = 0
    for idx in order:
        if len(owner) >= target:
            break
        r = routes[idx]
        p = turn_seat % players
        taken = groups_taken.setdefault(r.parallel_group or r.id, set())
        if p in taken or trains[p] < r.length or (players < 4 and taken):
            continue
        taken.add(p)
        owner[r.id] = p
        owned[p].append(r.id)
        trains[p] -= r.length
        points[p] += game_map.points_for(r.length)
        turn_seat += 1
    if stations is None:
        stations = _rule_stations(game_map.id, players, any(r.tunnel or r.is_ferry for r in routes))
    station_owner: dict[str, int] = {}
    left = [3 if stations else 0] * players
    if stations:
        cities = sorted(game_map.cities)
        for p in range(min(players, 3)):
            city = cities[rng.below(len(cities))]
            if city not in station_owner:
                station_owner[city] = p
                left[p] -= 1
    extra: dict[str, Any] = {}
    public: list[dict[str, Any]] = [{} for _ in range(players)]
    waiting = game_map.extras.get("passengers")
    if waiting:
        bag = [c for c, n in sorted(game_map.extras["passenger_colors"].items()) for _ in range(int(n))]
        rng.shuffle(bag)
        on_board: dict[str, list[str]] = {}
        for city in sorted(waiting):
            on_board[city] = [bag.pop() for _ in range(int(waiting[city]))]
        # every claim collected one passenger from each end, where there was one
        for rid, p in owner.items():
            r = game_map.routes[rid]
            for end in (r.a, r.b):
                if on_board.get(end):
                    colour = on_board[end].pop(0)
                    got = public[p].setdefault("passengers", {})
                    got[colour] = got.get(colour, 0) + 1
        extra["passengers"] = on_board
    hand_sizes = [4 + rng.below(8) for _ in range(players)]
    ticket_ids = sorted(game_map.tickets)
    tickets: list[list[str]] = []
    for p in range(players):
        mine: list[str] = []
        # one ticket the player has finished, if their routes join any ticket's cities
        from engine.graph import connected

        edges = [(rid, game_map.routes[rid].a, game_map.routes[rid].b, game_map.routes[rid].length) for rid in owned[p]]
        dead = frozenset(c.id for c in game_map.cities.values() if c.is_country)
        done = [t for t in ticket_ids if connected(edges, game_map.tickets[t].a, game_map.tickets[t].b, dead)]
        if done:
            mine.append(done[rng.below(len(done))])
        while len(mine) < min(3 + (p % 2), len(ticket_ids)):
            t = ticket_ids[rng.below(len(ticket_ids))]
            if t not in mine:
                mine.append(t)
        tickets.append(mine)
    colours = ("red", "orange", "yellow", "green", "blue", "pink", "white", "black", "loco")
    if dice:  # no train cards under dice
        hand_sizes = [0] * players
    players_out = []
    for p in range(players):
        hand: dict[str, int] | None = None
        if seat == p:
            hand = {}
            for _ in range(hand_sizes[p]):
                c = colours[rng.below(len(colours))]
                hand[c] = hand.get(c, 0) + 1
        players_out.append(PlayerView(
            seat=p, name=NAMES[p], trains=trains[p], stations=left[p], hand_size=hand_sizes[p],
            ticket_count=len(tickets[p]), routes=tuple(owned[p]), route_points=points[p], hand=hand,
            tickets=tuple(tickets[p]) if seat == p else None,
            completed=completed_tickets(game_map, owned[p], tickets[p]) if seat == p else frozenset()))
    parts: tuple[object, ...] = ()
    current = turn_seat % players
    if dice:
        faces = ("single", "double", "station", "wild")
        roll = tuple(faces[rng.below(len(faces))] for _ in range(5))
        parts += (DiceView(
            unused=tuple(roll if p == current else () for p in range(players)),
            tokens=tuple({"single": rng.below(4), "double": rng.below(3)} for _ in range(players)),
            supply={"single": 12, "double": 13}),)
    if waiting:
        on_counts = {city: _counts(figures) for city, figures in extra["passengers"].items()}
        parts += (PassengersView(waiting=on_counts, held=tuple(dict(public[p].get("passengers", {}))
                                                               for p in range(players))),)
    tourist = _tourist_part(game_map, rng, players, seat, owned)
    if tourist is not None:
        parts += (tourist,)
    view = View(
        rules_version=1, variant=game_map.id, options={"dice": True} if dice else {}, map_id=game_map.id, you=seat,
        players=tuple(players_out), deck=40, discard=12, display=("red", "loco", "blue", "white", "green"),
        ticket_decks={d: 10 for d in game_map.deck_names()}, route_owner=owner,
        route_scored={rid: game_map.points_for(game_map.routes[rid].length) for rid in owner},
        stations=station_owner, current=current, turn=len(owner) + 12, status="playing",
        pending=PendingView(kind="turn"), final_turns_left=None, passes_in_a_row=0, result=None,
        names=tuple(NAMES[:players]), first_player=0, doubles_from_players=4, parts=parts,
    )
    if over:
        view = dataclasses.replace(view, status="over", result=sample_result(view, game_map, tickets))
    return view


def _tourist_part(game_map: GameMap, rng: _Lcg, players: int, seat: int | None,
                  owned: list[list[str]]) -> TouristView | None:
    """The tourist cards of the sample, where the map has them: a few per player, and `seat`'s
    own cards (those its routes already satisfy marked done)."""
    tourist_cards = [dict(c) for c in game_map.extras.get("tourist_cards", ())]
    if not tourist_cards:
        return None
    kept = [c for c in tourist_cards if c["kind"] != "lucky_devil"]
    counts = tuple(2 + rng.below(4) for _ in range(players))
    mine: tuple[str, ...] | None = None
    done: frozenset[str] = frozenset()
    if seat is not None:
        picks: list[str] = []
        while len(picks) < counts[seat]:
            card = kept[rng.below(len(kept))]["id"]
            if card not in picks:
                picks.append(card)
        mine = tuple(picks)
        visited = {end for rid in owned[seat] for end in game_map.routes[rid].ends}
        towns = {c["city"] for c in kept if c["kind"] == "attraction"}
        info = {c["id"]: c for c in kept}
        done = frozenset(c for c in mine if tourist_card_done(info[c], visited, towns))
    return TouristView(deck=len(tourist_cards) - sum(counts) - 4, out_of_game=1, counts=counts, mine=mine,
                       completed=done)


def sample_offer(map_id: str | GameMap, players: int = 3, seed: int = 1, seat: int = 1, cards: int = 3,
                 dice: bool = False) -> View:
    """`sample_view` as `seat` sees it while choosing from a later draw: `cards` tickets nobody
    in the sample holds (from every pile the map has, in turn: Germany's short and long), and
    on a map with tourist cards two of those as well."""
    game_map = map_id if isinstance(map_id, GameMap) else load_map(map_id)
    view = sample_view(game_map, players=players, seed=seed, seat=seat, dice=dice)
    rng = _Lcg(seed + 101)
    held = set(view.players[seat].tickets or ())
    piles = [d for d in game_map.deck_names() if any(t.deck == d for t in game_map.tickets.values())]
    offer: list[str] = []
    for i in range(cards):
        free = sorted(t.id for t in game_map.tickets.values()
                      if t.deck == piles[i % len(piles)] and t.id not in held and t.id not in offer)
        if free:
            offer.append(free[rng.below(len(free))])
    tourist = sorted(c["id"] for c in game_map.extras.get("tourist_cards", ()) if c["kind"] != "lucky_devil")
    part = view.part(TouristView)
    tourist = [c for c in tourist if part is None or c not in (part.mine or ())]
    for _ in range(2 if tourist else 0):
        card = tourist.pop(rng.below(len(tourist)))
        offer.append(card)
    offers: list[Any] = [None] * players
    offers[seat] = offer
    return dataclasses.replace(view, current=seat, pending=PendingView(kind="choose_tickets", offers=tuple(offers)))


def _counts(figures: list[str]) -> dict[str, int]:
    """Figures of each colour, in the order they first appear."""
    out: dict[str, int] = {}
    for colour in figures:
        out[colour] = out.get(colour, 0) + 1
    return out


def sample_result(view: View, game_map: GameMap, tickets: list[list[str]]) -> dict[str, Any]:
    """A final result in the engine's shape for the sample view: every point on a named line
    (`lines`, named by the rule set's `score_line_names`), bonuses to the players with the
    most route points, in turn."""
    from engine.graph import connected
    from engine.scoring import add_bonus, add_points

    dead = frozenset(c.id for c in game_map.cities.values() if c.is_country)
    names = _line_names(view)
    fixed = {"routes", "tickets_won", "tickets_lost", "stations", "tourist_won", "tourist_lost"}
    bonuses = [line for line in names if line not in fixed] or ["Longest Path"]
    tourist = view.part(TouristView)
    sheets = []
    for p in view.players:
        seat = p.seat
        edges = [(rid, game_map.routes[rid].a, game_map.routes[rid].b, game_map.routes[rid].length)
                 for rid in p.routes]
        rows: list[dict[str, Any]] = []
        for t in tickets[seat]:
            tk = game_map.tickets[t]
            rows.append({"id": t, "a": tk.a, "b": tk.b, "points": tk.points,
                         "completed": connected(edges, tk.a, tk.b, dead)})
        sheet: dict[str, Any] = {"seat": seat, "name": NAMES[seat], "routes": p.route_points, "tickets": rows,
                                 "tickets_completed": sum(r["completed"] for r in rows), "bonuses": {},
                                 "lines": {"routes": p.route_points}, "total": p.route_points}
        sheet["tickets_won"] = sum(r["points"] for r in rows if r["completed"])
        sheet["tickets_lost"] = -sum(r["points"] for r in rows if not r["completed"])
        add_points(sheet, "tickets_won", sheet["tickets_won"])
        add_points(sheet, "tickets_lost", sheet["tickets_lost"])
        if tourist is not None:
            sheet["tourist_won"] = 5 + 3 * ((seat * 7) % 4)
            sheet["tourist_lost"] = -2 * ((seat * 5) % 3)
            add_points(sheet, "tourist_won", sheet["tourist_won"])
            add_points(sheet, "tourist_lost", sheet["tourist_lost"])
        if "stations" in names or (not names and (view.stations or p.stations)):
            sheet["stations"] = 4 * p.stations
            sheet["stations_left"] = p.stations
            sheet["stations_used"] = 3 - p.stations
            add_points(sheet, "stations", sheet["stations"])
        sheets.append(sheet)
    by_routes = sorted(range(len(sheets)), key=lambda i: (-sheets[i]["routes"], i))
    for i, label in enumerate(bonuses):
        add_bonus(sheets[by_routes[i % len(by_routes)]], label, 20 if label == "Passengers" else 10)
    top = max(s["total"] for s in sheets)
    winners = [s["seat"] for s in sheets if s["total"] == top]
    tie_break = ["Most completed tickets"] if len(winners) > 1 else []
    return {"sheets": sheets, "winners": winners[:1], "tie_break": tie_break,
            "ranking": sorted(range(len(sheets)), key=lambda i: (-sheets[i]["total"], i))}


def _rule_stations(variant: str, players: int, otherwise: bool) -> bool:
    """Whether the variant's rules have stations (`otherwise` for a made-up map)."""
    from engine.errors import IllegalAction
    from engine.rulesets import build_ruleset

    for n in (players, 2, 3, 4, 5):
        try:
            return build_ruleset(variant, n).module("stations") is not None
        except IllegalAction:
            continue
    return otherwise


def _line_names(view: View) -> dict[str, str]:
    """The score lines of the view's rule set (none for a made-up map)."""
    from engine.errors import IllegalAction
    from engine.rulesets import build_ruleset
    from engine.scoring import score_line_names

    for n in (len(view.players), 2, 3, 4, 5):
        try:
            return score_line_names(build_ruleset(view.variant, n, dict(view.options)).modules)
        except IllegalAction:
            continue
    return {}
