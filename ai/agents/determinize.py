"""Determinisation: a whole game state sampled from what one seat knows.

The search AI cannot see the other players' hands and tickets or the order of the decks, so it
plays out many guesses of them. `sample_state(view, rng)` builds one: everything public, and
the seat's own cards and tickets, are copied from the `View`; the rest is drawn at random from
what the view leaves possible — the train cards nobody can see (the whole deck minus the hand
and the display) dealt into the other hands, the discard pile and the deck by their public
counts; the tickets nobody can see dealt to the other players by their ticket counts (tickets
near the routes a player has built are likelier) and into the ticket decks; likewise tourist
cards. It reads nothing but the view and the public rules, so a view of a state whose
secrets were scrambled gives the same samples.

The state is made by dealing a fresh game of the same table (so every rule module's data has
its place) and overwriting it; a rule module that keeps data of its own shows it as a part of
the view, and that rule's advice rebuilds it (`Advice.part`, `Advice.sample`: ai/advice/).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ai.advice import advice_of_view
from ai.agents.planning import MapInfo, shortest_path
from ai.sampling import CannotSample, deal
from engine.game import new_game
from engine.maps import GameMap
from engine.rng import Rng
from engine.rules.train_cards import TrainCardDraw
from engine.rules.tunnels import Tunnel
from engine.rulesets import build_ruleset
from engine.state import GameState, copy_data
from engine.view import Offer, View


def _deck_cards(view: View) -> list[str]:
    rules = build_ruleset(view.variant, len(view.players), dict(view.options))
    for module in rules.modules:
        if isinstance(module, TrainCardDraw):
            return [name for name, n in module.deck for _ in range(n)]
    return []


def _remove(pool: list[str], cards: Mapping[str, int] | Sequence[str]) -> None:
    items = cards.items() if isinstance(cards, Mapping) else ((c, 1) for c in cards)
    for name, n in items:
        for _ in range(n):
            if name in pool:
                pool.remove(name)


_PATHS: dict[str, dict[str, frozenset[str]]] = {}


def _ticket_paths(info: MapInfo) -> dict[str, frozenset[str]]:
    """Each ticket's cheapest path on the empty board (its likely routes), once per board."""
    paths = _PATHS.get(info.game_map.id)
    if paths is None:
        paths = {}
        for tid, t in info.game_map.tickets.items():
            found = shortest_path(info, {}, -1, set(), t.a, t.b)
            paths[tid] = frozenset(found[1]) if found else frozenset()
        _PATHS[info.game_map.id] = paths
    return paths


def ticket_weights(info: MapInfo, routes: Sequence[str], candidates: Sequence[str]) -> list[float]:
    """How likely each candidate ticket is to be held by a player who built `routes`: tickets
    whose cheapest empty-board path uses those routes, or ends in a town they reach, are
    likelier."""
    if not routes:
        return [1.0] * len(candidates)
    paths = _ticket_paths(info)
    built = set(routes)
    towns = {end for rid in routes for end in info.route(rid).ends}
    tmap = info.game_map.tickets
    out = []
    for t in candidates:
        ticket = tmap[t]
        w = 1.0 + 1.5 * len(paths[t] & built) + 1.0 * ((ticket.a in towns) + (ticket.b in towns))
        out.append(w)
    return out


def _weighted_pick(rng: Rng, items: list[str], weights: list[float], n: int) -> list[str]:
    """n distinct items, each drawn with probability proportional to its weight."""
    items = list(items)
    weights = list(weights)
    out = []
    for _ in range(min(n, len(items))):
        total = sum(weights)
        x = rng.below(1 << 30) / (1 << 30) * total
        acc = 0.0
        k = len(items) - 1
        for i, w in enumerate(weights):
            acc += w
            if x < acc:
                k = i
                break
        out.append(items.pop(k))
        weights.pop(k)
    return out


def sample_state(view: View, rng: Rng, info: MapInfo) -> GameState:
    """One full state consistent with `view` (see the module text)."""
    seat = view.you
    if seat is None or view.status == "over":
        raise CannotSample("a spectator's view, or a finished game")
    n = len(view.players)
    state, _ = new_game(view.variant, n, rng.next_u64() & 0x7FFFFFFF, dict(view.options),
                        first_player=view.first_player)
    game_map = info.game_map
    me = view.players[seat]

    # --- public board and counters
    state.route_owner = dict(view.route_owner)
    state.route_scored = dict(view.route_scored)
    state.stations = dict(view.stations)
    state.display = list(view.display)
    state.current = view.current
    state.turn = view.turn
    state.status = view.status
    state.final_turns_left = view.final_turns_left
    state.passes_in_a_row = view.passes_in_a_row
    state.names = list(view.names)
    state.first_player = view.first_player
    state.result = None
    for p, pv in zip(state.players, view.players, strict=True):
        p.trains = pv.trains
        p.stations = pv.stations
        p.routes = list(pv.routes)
        p.route_points = pv.route_points

    # --- pending decision: public data as shown; offers sampled below
    pending = view.pending.shown()
    pending.pop("offers", None)  # sampled below

    # --- train cards
    pool = _deck_cards(view)
    if pool:
        _remove(pool, me.hand or {})
        _remove(pool, [c for c in view.display if c is not None])
        tunnel = view.pending.decision
        if isinstance(tunnel, Tunnel):
            _remove(pool, tunnel.payment)
            _remove(pool, tunnel.revealed)
        rng.shuffle(pool)
    for p, pv in zip(state.players, view.players, strict=True):
        if pv.seat == seat:
            p.hand = dict(me.hand or {})
        else:
            hand: dict[str, int] = {}
            for card in deal(pool, pv.hand_size):
                hand[card] = hand.get(card, 0) + 1
            p.hand = hand
    state.discard = deal(pool, view.discard)
    state.deck = deal(pool, view.deck)
    rng.shuffle(state.deck)

    # --- tickets: the unseen ones go to the other players, then into the decks
    my_offer = view.pending.offers[seat] if view.pending.offers is not None else None
    offered_tickets: list[str] = []
    if isinstance(my_offer, Mapping):
        offered_tickets = list(my_offer.get("tickets", []))
    elif isinstance(my_offer, list | tuple):
        offered_tickets = list(my_offer)
    known = set(me.tickets or ()) | set(offered_tickets)
    unseen = [t for t in game_map.tickets if t not in known]
    rng.shuffle(unseen)
    for p, pv in zip(state.players, view.players, strict=True):
        if pv.seat == seat:
            p.tickets = list(me.tickets or ())
            continue
        weights = ticket_weights(info, pv.routes, unseen)
        picked = _weighted_pick(rng, unseen, weights, pv.ticket_count)
        for t in picked:
            unseen.remove(t)
        p.tickets = picked
    offers_out: list[Offer | None] | None = None
    if view.pending.offers is not None:
        offers_out = []
        for i, offer in enumerate(view.pending.offers):
            if i == seat:
                offers_out.append(copy_data(offer) if not isinstance(offer, tuple) else list(offer))
            elif isinstance(offer, int):  # another seat's offer: the view shows only its size
                offers_out.append(_sample_offer(rng, unseen, offer, game_map, state))
            else:
                offers_out.append(None)
        pending["offers"] = offers_out
    decks: dict[str, list[str]] = {}
    for name, size in view.ticket_decks.items():
        own = [t for t in unseen if game_map.tickets[t].deck == name]
        decks[name] = own[:size]
        for t in decks[name]:
            unseen.remove(t)
    state.ticket_decks = decks
    state.pending = pending

    # --- rule modules' own data, each rebuilt by its rule's advice
    samplers = {advice.part: advice for advice in advice_of_view(view) if advice.part is not None}
    for part in view.parts:
        sampler = samplers.get(type(part))
        if sampler is None:
            raise CannotSample(f"no advice samples {type(part).__name__}")
        sampler.sample(state, part, view, rng, game_map)
    state.secret.pop("returned_tickets", None)
    state.rng = rng.next_u64()
    return state


def _sample_offer(rng: Rng, unseen: list[str], size: int, game_map: GameMap, state: GameState) -> list[str]:
    """Another player's offer of `size` cards: tickets from those unseen (tourist offers are
    filled by the tourist cards' advice)."""
    picked = unseen[-size:] if size else []
    del unseen[len(unseen) - len(picked):]
    return list(picked)
