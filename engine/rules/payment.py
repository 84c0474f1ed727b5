"""Paying for routes and tunnels with train cards (base game and Europe).

One object both lists the legal payments (for menus and the AI) and checks a given payment,
so the two can never drift apart: `check_claim` accepts exactly what `claim_options` lists.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache

from engine.cards import COLOURS, GRAY, LOCO, Cards, card_word, colour_and_locos, count, describe, has_cards
from engine.errors import IllegalAction
from engine.maps import GameMap, Route


@dataclass(frozen=True)
class TunnelDemand:
    """What a tunnel asks for after its reveal: `extra` more cards of `colour` or locomotives,
    of which `locos_only` must be locomotives. `colour` None means only locomotives will do
    (the claim was paid with locomotives alone)."""

    colour: str | None
    extra: int
    locos_only: int = 0

    @property
    def total(self) -> int:
        return self.extra + self.locos_only


@dataclass(frozen=True)
class PaymentRule:
    """The standard rule: a route takes cards of its colour (grey: any one colour), and
    locomotives stand in for any card; a ferry needs a locomotive per locomotive space.

    `tunnel_loco_only`: revealed cards that can only be matched with a locomotive (USSR
    Controller); `tunnel_match_as_loco`: revealed cards that count as a revealed locomotive.
    """

    tunnel_reveal: int = 3
    tunnel_loco_only: tuple[str, ...] = ()
    tunnel_match_as_loco: tuple[str, ...] = ()

    # --- claims -------------------------------------------------------------------------
    def candidate_routes(self, game_map: GameMap, hand: Mapping[str, int]) -> list[Route]:
        """The routes `hand` might pay for: a quick first filter when listing claims, which
        runs for every decision of every AI game. `claim_options` decides."""
        locos = hand.get(LOCO, 0)
        best_colour = max([hand.get(c, 0) for c in COLOURS])
        out: list[Route] = []
        for colour, (lengths, routes) in routes_by_colour(game_map).items():
            cap = (best_colour if colour == GRAY else hand.get(colour, 0)) + locos
            out.extend(routes[: bisect_right(lengths, cap)])
        return out

    def claim_options(self, game_map: GameMap, route: Route, hand: Mapping[str, int]) -> list[Cards]:
        """Every card set from `hand` that pays for `route`."""
        locos = hand.get(LOCO, 0)
        if locos < route.ferry_locos:
            return []
        colours = COLOURS if route.color == GRAY else (route.color,)
        out: list[Cards] = []
        for colour in colours:
            have = hand.get(colour, 0)
            if have:
                out.extend(_colour_payments(colour, have, locos, route.length, route.ferry_locos))
        if locos >= route.length:
            out.append(((LOCO, route.length),))
        return out

    def options_key(self, route: Route) -> Hashable:
        """What `claim_options` reads of a route: routes with equal keys take the same
        payments from a hand. A payment rule that reads more of a route says so here."""
        return (route.color, route.length, route.ferry_locos)

    def all_claim_options(
        self, game_map: GameMap, routes: Iterable[Route], hand: Mapping[str, int]
    ) -> Iterator[tuple[Route, Cards]]:
        """`claim_options` for many routes: what listing legal claims uses. A payment rule
        changes `claim_options` (and `candidate_routes`, `options_key`), never this. Routes
        with the same `options_key` share one answer (a hand pays many routes of a colour
        and length, and Nordic's ferries cost much to list)."""
        for route, options in self.claim_options_by_route(game_map, routes, hand):
            for cards in options:
                yield route, cards

    def claim_options_by_route(
        self, game_map: GameMap, routes: Iterable[Route], hand: Mapping[str, int]
    ) -> Iterator[tuple[Route, tuple[Cards, ...]]]:
        """`claim_options` for many routes, one entry per route that can be paid (in `routes`'
        order): the payments themselves, shared between routes of one `options_key`. A
        playout on a big hand reads these instead of an action per payment."""
        seen: dict[Hashable, tuple[Cards, ...]] = {}
        for route in routes:
            key = self.options_key(route)
            options = seen.get(key)
            if options is None:
                options = seen[key] = tuple(self.claim_options(game_map, route, hand))
            if options:
                yield route, options

    def check_claim(self, game_map: GameMap, route: Route, hand: Mapping[str, int], payment: Cards) -> None:
        """Raise IllegalAction, in one plain sentence, unless `payment` pays for `route`."""
        if payment in self.claim_options(game_map, route, hand):
            return
        name = _route_name(game_map, route)
        odd = [c for c, _ in payment if c != LOCO and c not in COLOURS]
        if odd:
            raise IllegalAction(f"{card_word(odd[0]).capitalize()} cards cannot pay for a route.", "bad_payment")
        colours = [c for c, _ in payment if c != LOCO]
        if len(colours) > 1:
            raise IllegalAction(f"{name} must be paid with cards of one colour (and locomotives).", "bad_payment")
        if route.color != GRAY and colours and colours[0] != route.color:
            raise IllegalAction(f"{name} is {route.color}; {colours[0]} cards cannot pay for it.", "bad_payment")
        n = count(payment)
        if n != route.length:
            raise IllegalAction(
                f"{game_map.route_label(route.id)} takes exactly {route.length} cards; you offered {n}.", "bad_payment"
            )
        locos = dict(payment).get(LOCO, 0)
        if locos < route.ferry_locos:
            raise IllegalAction(
                f"{name} is a ferry: it needs at least {route.ferry_locos} "
                f"{card_word(LOCO, route.ferry_locos)}.",
                "bad_payment",
            )
        if not has_cards(hand, payment):
            raise IllegalAction(_shortfall(name, route, hand, payment), "not_enough_cards")
        raise IllegalAction(f"{describe(payment)} cannot pay for {game_map.route_label(route.id)}.", "bad_payment")

    # --- tunnels ------------------------------------------------------------------------
    def tunnel_demand(self, route: Route, payment: Cards, revealed: list[str]) -> TunnelDemand:
        """What the revealed cards add to the price of a tunnel paid with `payment`."""
        colours = [c for c, _ in payment if c != LOCO]
        colour = colours[0] if colours else None
        extra = 0
        locos_only = 0
        for card in revealed:
            if card in self.tunnel_loco_only:
                locos_only += 1
            elif card == LOCO or card in self.tunnel_match_as_loco or (colour is not None and card == colour):
                extra += 1
        return TunnelDemand(colour, extra, locos_only)

    def tunnel_options(self, hand: Mapping[str, int], demand: TunnelDemand) -> list[Cards]:
        """Every card set from `hand` that meets `demand`."""
        locos = hand.get(LOCO, 0)
        if demand.colour is None:
            return [((LOCO, demand.total),)] if locos >= demand.total else []
        have = hand.get(demand.colour, 0)
        out = []
        for n_loco in range(demand.locos_only, demand.total + 1):
            n_colour = demand.total - n_loco
            if n_loco <= locos and n_colour <= have:
                out.append(colour_and_locos(demand.colour, n_colour, n_loco))
        return out

    def check_tunnel(self, hand: Mapping[str, int], demand: TunnelDemand, payment: Cards) -> None:
        if payment not in self.tunnel_options(hand, demand):
            if demand.colour is None or demand.locos_only == demand.total:  # only locomotives will do
                what = f"{demand.total} {card_word(LOCO, demand.total)}"
            else:
                if demand.total == 1:
                    what = f"1 more {demand.colour} card or a locomotive"
                else:
                    what = f"{demand.total} more {demand.colour} cards or locomotives"
                if demand.locos_only:
                    what += f", {demand.locos_only} of them locomotives"
            raise IllegalAction(
                f"The tunnel needs {what}; you offered {describe(payment)} "
                f"and hold {describe(_relevant(hand, demand))}.",
                "bad_payment",
            )


@lru_cache(maxsize=4096)
def _colour_payments(colour: str, have: int, locos: int, length: int, ferry_locos: int) -> tuple[Cards, ...]:
    """The payments of `length` cards using at least one `colour` card, from `have` of that
    colour and `locos` locomotives, with at least `ferry_locos` locomotives (cached: the same
    few hands and lengths come up again and again)."""
    if have + locos < length:
        return ()
    return tuple(
        colour_and_locos(colour, length - n_loco, n_loco)
        for n_loco in range(max(ferry_locos, length - have), min(locos, length - 1) + 1)
    )


_BY_COLOUR: dict[str, dict[str, tuple[list[int], list[Route]]]] = {}


def routes_by_colour(game_map: GameMap) -> dict[str, tuple[list[int], list[Route]]]:
    """The map's routes by colour, shortest first, with their lengths (once per map)."""
    index = _BY_COLOUR.get(game_map.id)
    if index is None:
        by_colour: dict[str, list[Route]] = {}
        for route in game_map.routes.values():
            by_colour.setdefault(route.color, []).append(route)
        index = {}
        for colour, routes in by_colour.items():
            routes.sort(key=lambda r: (r.length, r.index))
            index[colour] = ([r.length for r in routes], routes)
        _BY_COLOUR[game_map.id] = index
    return index


def _route_name(game_map: GameMap, route: Route) -> str:
    return f"{game_map.city_label(route.a)} – {game_map.city_label(route.b)}"


def _relevant(hand: Mapping[str, int], demand: TunnelDemand) -> dict[str, int]:
    keep = {LOCO} | ({demand.colour} if demand.colour else set())
    return {k: v for k, v in hand.items() if k in keep}


def _shortfall(name: str, route: Route, hand: Mapping[str, int], payment: Cards) -> str:
    colours = [c for c, _ in payment if c != LOCO]
    colour = colours[0] if colours else (route.color if route.color != GRAY else None)
    locos = hand.get(LOCO, 0)
    loco_words = f"{locos} {card_word(LOCO, locos)}"
    if colour is None:
        return f"{name} needs {route.length} cards; you have {loco_words}."
    return f"{name} needs {route.length} {colour} cards; you have {hand.get(colour, 0)} {colour} and {loco_words}."
