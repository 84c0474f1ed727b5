"""Paying for routes in Ticket to Ride Nordic Countries (AMBIGUITIES N2-N6).

- **Ordinary routes**: cards of the route's colour (grey: any one colour); no locomotives and
  no jokers (N6).
- **Tunnels**: the Europe rule; locomotives stand in for the colour, revealed locomotives
  count as matches, and no 3- or 4-card sets anywhere, the extra cards included (N5). This is
  the base `PaymentRule`.
- **Ferries**: each locomotive space takes a locomotive or any 3 cards; each coloured space
  takes a card of the ferry's colour (grey: one chosen colour) or a locomotive; a 3-card set
  never pays for a coloured space (N4).
- **Murmansk–Lieksa** (any route tagged `four_card_joker`): 9 cards of one chosen colour,
  any 4 cards (locomotives allowed) standing in for each of them, for any number of them
  (N1-N3). Locomotives are allowed only inside such a set.

Listing and checking. `check_claim` accepts **every** payment that fits (an exact cover of the
spaces, worked out by counting, below). For ferries and Murmansk–Lieksa the number of fitting
payments from a big hand runs into the thousands (a 3- or 4-card set may be any cards), so
`claim_options` lists a canonical subset instead: for each chosen colour, each number of
locomotive spaces paid with locomotives and each number of coloured spaces paid with
locomotives (ferries), or each number of spaces paid with the chosen colour (Murmansk–Lieksa),
the one payment whose sets are made of the cards the player can best spare — the smallest
stacks of other colours first, then the chosen colour, locomotives last. Every listed payment
is accepted; a player may still name any other one that fits.

Counting check for a ferry with L locomotive spaces and C coloured spaces (colour X), joker
size k (3): if j locomotive spaces take a locomotive, the other L - j take k cards each, so a
payment of n cards fits only with j = (C + k·L - n) / (k - 1), a whole number in 0..L, with
j ≤ locomotives paid, and the coloured spaces covered by X cards and the locomotives left over:
x + (l - j) ≥ C. Every remaining card then goes into the sets, which may hold anything.
For Murmansk–Lieksa (length m, joker size 4): s spaces take an X card, the rest a set, so
n = s + 4(m - s), i.e. s = (4m - n) / 3 in 0..m, and the payment needs at least s X cards.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from engine.cards import COLOURS, GRAY, LOCO, Cards, card_word, cards, count, describe, has_cards
from engine.errors import IllegalAction
from engine.maps import GameMap, Route
from engine.rules.payment import PaymentRule

PLAIN = "plain"
TUNNEL = "tunnel"
FERRY = "ferry"
JOKER = "joker"


@dataclass(frozen=True)
class NordicPayment(PaymentRule):
    """The Nordic Countries payment rules (see the module docstring).

    `ferry_joker`: cards in a set that replaces a locomotive on a ferry's locomotive space;
    `route_joker`: cards in a set that replaces a coloured card on a route tagged `joker_tag`.
    """

    ferry_joker: int = 3
    route_joker: int = 4
    joker_tag: str = "four_card_joker"

    def route_kind(self, route: Route) -> str:
        if route.tunnel:
            return TUNNEL
        if self.joker_tag in route.tags:
            return JOKER
        if route.ferry_locos:
            return FERRY
        return PLAIN

    # --- listing ------------------------------------------------------------------------
    def options_key(self, route: Route) -> Hashable:
        return (self.route_kind(route), route.color, route.length, route.ferry_locos)

    def candidate_routes(self, game_map: GameMap, hand: Mapping[str, int]) -> list[Route]:
        locos = hand.get(LOCO, 0)
        best_colour = max((hand.get(c, 0) for c in COLOURS), default=0)
        size = sum(hand.values())
        out: list[Route] = []
        for route in game_map.routes.values():
            kind = self.route_kind(route)
            if kind == JOKER:
                # Sets make almost any cards count: the hand's size is the only quick bound.
                if route.length <= size:
                    out.append(route)
                continue
            if kind == FERRY:
                # Bounds every payment meets: the coloured spaces take one colour or
                # locomotives, and a locomotive space without a locomotive takes a set.
                colour_spaces = route.length - route.ferry_locos
                by_sets = max(0, route.ferry_locos - locos)
                cap = best_colour if route.color == GRAY else hand.get(route.color, 0)
                if cap + locos >= colour_spaces and size >= route.length + (self.ferry_joker - 1) * by_sets:
                    out.append(route)
                continue
            cap = best_colour if route.color == GRAY else hand.get(route.color, 0)
            if kind == TUNNEL:
                cap += locos
            if route.length <= cap:
                out.append(route)
        return out

    def claim_options(self, game_map: GameMap, route: Route, hand: Mapping[str, int]) -> list[Cards]:
        kind = self.route_kind(route)
        if kind == TUNNEL:
            return super().claim_options(game_map, route, hand)
        colours = COLOURS if route.color == GRAY else (route.color,)
        if kind == PLAIN:
            return [((c, route.length),) for c in colours if hand.get(c, 0) >= route.length]
        if kind == FERRY:
            return self._ferry_options(route, colours, hand)
        return self._joker_options(route, colours, hand)

    def _ferry_options(self, route: Route, colours: tuple[str, ...], hand: Mapping[str, int]) -> list[Cards]:
        n_loco_spaces = route.ferry_locos
        n_colour_spaces = route.length - n_loco_spaces
        locos = hand.get(LOCO, 0)
        out: dict[Cards, None] = {}
        for colour in colours:
            have = hand.get(colour, 0)
            if not have and colour != colours[0]:
                continue  # no card of it: only the all-locomotive payments, found under colours[0]
            for on_loco_spaces in range(min(n_loco_spaces, locos) + 1):
                for on_colour_spaces in range(min(n_colour_spaces, locos - on_loco_spaces) + 1):
                    n_colour = n_colour_spaces - on_colour_spaces
                    if n_colour > have or (n_colour == 0 and colour != colours[0]):
                        continue  # (with no colour card, one chosen colour is enough)
                    base = {LOCO: on_loco_spaces + on_colour_spaces, colour: n_colour}
                    filler = _spare(hand, base, colour, self.ferry_joker * (n_loco_spaces - on_loco_spaces))
                    if filler is not None:
                        out[cards(list(base.items()) + filler)] = None
        return list(out)

    def _joker_options(self, route: Route, colours: tuple[str, ...], hand: Mapping[str, int]) -> list[Cards]:
        out: dict[Cards, None] = {}
        for colour in colours:
            have = hand.get(colour, 0)
            for on_spaces in range(min(have, route.length), -1, -1):
                if on_spaces == 0 and colour != colours[0]:
                    continue  # all sets: the chosen colour does not matter
                base = {colour: on_spaces}
                filler = _spare(hand, base, colour, self.route_joker * (route.length - on_spaces))
                if filler is not None:
                    out[cards(list(base.items()) + filler)] = None
        return list(out)

    # --- checking -----------------------------------------------------------------------
    def fits(self, route: Route, payment: Cards) -> bool:
        """Whether the card set `payment` pays for `route` (whatever the hand holds)."""
        kind = self.route_kind(route)
        paid = dict(payment)
        if any(n < 0 for n in paid.values()) or any(c != LOCO and c not in COLOURS for c in paid):
            return False
        colours = COLOURS if route.color == GRAY else (route.color,)
        if kind == TUNNEL:
            n_colours = [c for c in paid if c != LOCO]
            return (count(payment) == route.length and len(n_colours) <= 1
                    and all(c in colours for c in n_colours))
        if kind == PLAIN:
            return len(paid) == 1 and next(iter(paid)) in colours and count(payment) == route.length
        if kind == FERRY:
            return ferry_fits(paid, colours, route.length - route.ferry_locos, route.ferry_locos, self.ferry_joker)
        return joker_route_fits(paid, colours, route.length, self.route_joker)

    def check_claim(self, game_map: GameMap, route: Route, hand: Mapping[str, int], payment: Cards) -> None:
        kind = self.route_kind(route)
        if kind == TUNNEL:
            super().check_claim(game_map, route, hand, payment)
            return
        label = game_map.route_label(route.id)
        name = f"{game_map.city_label(route.a)} – {game_map.city_label(route.b)}"
        odd = [c for c, _ in payment if c != LOCO and c not in COLOURS]
        if odd:
            raise IllegalAction(f"{card_word(odd[0]).capitalize()} cards cannot pay for a route.", "bad_payment")
        if not self.fits(route, payment):
            raise IllegalAction(self._refusal(route, name, label, payment), "bad_payment")
        if not has_cards(hand, payment):
            missing = {c: n - hand.get(c, 0) for c, n in payment if hand.get(c, 0) < n}
            raise IllegalAction(
                f"You do not hold {describe(payment)} for {name}: you are short of {describe(missing)}.",
                "not_enough_cards",
            )

    def _refusal(self, route: Route, name: str, label: str, payment: Cards) -> str:
        kind = self.route_kind(route)
        paid = dict(payment)
        colour = "one colour" if route.color == GRAY else route.color
        if kind == PLAIN:
            if paid.get(LOCO):
                return (f"Locomotives may only pay for tunnels and ferries (and sit inside 4-card sets on "
                        f"the joker route); {label} takes {route.length} cards of {colour}.")
            colours = [c for c in paid if c != LOCO]
            if len(colours) > 1:
                return f"{name} must be paid with cards of one colour; you offered {describe(payment)}."
            if route.color != GRAY and colours and colours[0] != route.color:
                return f"{name} is {route.color}; {colours[0]} cards cannot pay for it."
            cards_word = "card" if route.length == 1 else "cards"
            return f"{label} takes exactly {route.length} {cards_word}; you offered {count(payment)}."
        if kind == FERRY:
            colour_part = ""
            if route.length > route.ferry_locos:
                if route.color == GRAY:
                    colour_part = ", and each other space a card of one chosen colour or a locomotive (never a set)"
                else:
                    colour_part = (f", and each {route.color} space a {route.color} card or a locomotive "
                                   f"(never a set)")
            return (f"{label}: each locomotive space takes a locomotive or any {self.ferry_joker} cards"
                    f"{colour_part}; {describe(payment)} does not cover it exactly.")
        return (f"{label} takes {route.length} cards of {colour}, and any {self.route_joker} cards "
                f"(locomotives only inside such a set) may stand in for each of them; "
                f"{describe(payment)} does not cover it exactly.")


def ferry_fits(paid: Mapping[str, int], colours: tuple[str, ...], n_colour_spaces: int, n_loco_spaces: int,
               joker: int) -> bool:
    """Whether `paid` covers the spaces exactly: each coloured space one card of a single colour
    from `colours` or a locomotive, each locomotive space a locomotive or `joker` cards."""
    n = sum(paid.values())
    locos = paid.get(LOCO, 0)
    surplus = n_colour_spaces + joker * n_loco_spaces - n  # = (joker - 1) · locomotive spaces paid by locos
    if surplus < 0 or surplus % (joker - 1):
        return False
    by_loco = surplus // (joker - 1)
    if by_loco > min(n_loco_spaces, locos):
        return False
    spare_locos = locos - by_loco
    if n_colour_spaces == 0 or spare_locos >= n_colour_spaces:
        return True
    return any(paid.get(c, 0) + spare_locos >= n_colour_spaces for c in colours)


def joker_route_fits(paid: Mapping[str, int], colours: tuple[str, ...], length: int, joker: int) -> bool:
    """Whether `paid` covers a route where each of `length` spaces takes a card of one colour
    from `colours` or any `joker` cards (locomotives only inside sets)."""
    n = sum(paid.values())
    surplus = joker * length - n  # = (joker - 1) · spaces paid by a colour card
    if surplus < 0 or surplus % (joker - 1):
        return False
    on_spaces = surplus // (joker - 1)
    if on_spaces > length:
        return False
    return on_spaces == 0 or any(paid.get(c, 0) >= on_spaces for c in colours)


_ORDER = {c: i for i, c in enumerate(COLOURS)}


def _spare(hand: Mapping[str, int], used: Mapping[str, int], colour: str, n: int) -> list[tuple[str, int]] | None:
    """`n` cards from what is left of `hand` after `used`, chosen to keep the most useful
    cards: the smallest stacks of other colours first, then `colour`, locomotives last.
    None if too few cards are left."""
    left = {c: hand.get(c, 0) - used.get(c, 0) for c in (*COLOURS, LOCO)}
    if any(v < 0 for v in left.values()):
        return None
    if n <= 0:
        return []
    if sum(left.values()) < n:
        return None
    others = sorted((c for c in COLOURS if c != colour and left[c] > 0), key=lambda c: (left[c], _ORDER[c]))
    out: list[tuple[str, int]] = []
    for c in (*others, colour, LOCO):
        if n <= 0:
            break
        take = min(n, left[c])
        if take:
            out.append((c, take))
            n -= take
    return out if n <= 0 else None
