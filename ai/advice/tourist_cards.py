"""Advice on Alsace's tourist cards (engine/rules/tourist_cards.py): which tickets and tourist
cards to keep, whom a Lucky Devil spares, and the routes the cards still want; in a playout,
the first Lucky Devil offered; in a sampled game, the other players' tourist cards and the
deck dealt from the cards the view leaves possible. Sees only the view and the legal
actions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ai.advice import Advice, Decision
from ai.sampling import CannotSample, deal
from engine.actions import Action, KeepTickets
from engine.rules import tourist_cards
from engine.rules.tourist_cards import DECK_KEY, TOURIST, PlayLuckyDevil, TouristView
from engine.view import View

if TYPE_CHECKING:
    from ai.agents.rollout import RolloutPolicy
    from ai.greedy import GreedyAI
    from engine.maps import GameMap
    from engine.rng import Rng
    from engine.state import GameState


def _cards(game_map: GameMap) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for c in game_map.extras.get("tourist_cards", ())}


def _visited(view: View, game_map: GameMap, seat: int) -> set[str]:
    out: set[str] = set()
    for rid in view.players[seat].routes:
        out.update(game_map.routes[rid].ends)
    return out


def _city_cost(view: View, game_map: GameMap, seat: int, city: str) -> tuple[int, str] | None:
    """Trains to visit `city`: 0 if visited, else the shortest open route into it."""
    if city in _visited(view, game_map, seat):
        return 0, ""
    owner = view.route_owner
    open_routes = [r for r in game_map.routes_at(city) if owner.get(r.id) is None]
    if not open_routes:
        return None
    best = min(open_routes, key=lambda r: (r.length, r.tunnel, r.id))
    return best.length, best.id


def _card_target(view: View, game_map: GameMap, seat: int, card: dict[str, Any]) -> tuple[int, str] | None:
    if card["kind"] == "attraction":
        return _city_cost(view, game_map, seat, card["city"])
    if card["kind"] == "visitor_pass":
        cities = {c["city"] for c in _cards(game_map).values() if c["kind"] == "attraction"}
        costs = [c for c in (_city_cost(view, game_map, seat, city) for city in sorted(cities)) if c is not None]
        return min(costs) if costs else None
    return None


def tourist_wanted(view: View, game_map: GameMap, seat: int) -> set[str]:
    """The routes that would complete the player's unfinished tourist cards."""
    part = view.part(TouristView)
    hand = part.mine or () if part is not None else ()
    cards = _cards(game_map)
    wanted = set()
    for card_id in hand:
        target = _card_target(view, game_map, seat, cards[card_id])
        if target and target[0] > 0:
            wanted.add(target[1])
    return wanted


def _tourist_value(view: View, game_map: GameMap, seat: int, card_id: str) -> float:
    card = _cards(game_map)[card_id]
    target = _card_target(view, game_map, seat, card)
    points: int = card["points"]  # the map's data (JSON): a tourist card's points
    return -points if target is None else points - 1.6 * target[0]


class TouristCardsAdvice(Advice):
    """Lucky Devils first (the offer's keep comes after them), then the keep of tickets and
    tourist cards together; the routes into the towns still to visit."""

    rule = tourist_cards.__name__
    actions = (PlayLuckyDevil, KeepTickets)
    part = TouristView

    def decide(self, ai: GreedyAI, decision: Decision) -> Action | None:
        view, game_map, legal, seat = decision.view, decision.game_map, decision.legal, decision.seat
        if "play_lucky_devil" in decision.kinds:
            # Discard the attraction that is hardest to reach for its points; none if all are good.
            devils = [a for a in legal if isinstance(a, PlayLuckyDevil)]
            targets = [a for a in devils if a.discard]
            if not targets:
                return devils[0]
            return min(targets, key=lambda a: (_tourist_value(view, game_map, seat, a.discard), a.discard))
        offers = view.pending.offers
        if "keep_tickets" in decision.kinds and offers:
            offer = offers[seat]
            if isinstance(offer, Mapping):
                return _keep(ai, view, game_map, offer, [a for a in legal if isinstance(a, KeepTickets)])
        return None

    def wanted(self, view: View, game_map: GameMap, seat: int) -> set[str]:
        return tourist_wanted(view, game_map, seat)

    def playout(self, policy: RolloutPolicy, state: GameState, seat: int, legal: Sequence[Action]) -> Action | None:
        return legal[0] if isinstance(legal[0], PlayLuckyDevil) else None

    def sample(self, state: GameState, part: object, view: View, rng: Rng, game_map: GameMap) -> None:
        assert isinstance(part, TouristView)
        seat = view.you
        assert seat is not None
        cards = [c["id"] for c in game_map.extras.get("tourist_cards", ())]
        mine = list(part.mine or ())
        offer = view.pending.offers[seat] if view.pending.offers is not None else None
        offered = list(offer.get("tourist", [])) + list(offer.get("devils", [])) if isinstance(offer, Mapping) else []
        pool = [c for c in cards if c not in mine and c not in offered]
        rng.shuffle(pool)
        for p, count in zip(state.players, part.counts, strict=True):
            p.public["tourist_cards"] = count
            p.private[TOURIST] = mine if p.seat == seat else deal(pool, count)
        # Another player's open offer mixes tickets and tourist cards in proportions the view
        # does not show (the simultaneous opening choice): not sampled.
        offers = view.pending.offers or ()
        if any(o is not None for i, o in enumerate(offers) if i != seat):
            raise CannotSample("another player's tourist offer")
        deal(pool, min(part.out_of_game, len(pool)))
        deck = deal(pool, part.deck)
        state.secret[DECK_KEY] = deck
        state.extra[DECK_KEY] = len(deck)
        state.extra["tourist_out_of_game"] = part.out_of_game


def _keep(ai: GreedyAI, view: View, game_map: GameMap, offer: Mapping[str, Sequence[str]],
          options: list[KeepTickets]) -> Action:
    """The keep of `offer` (tickets and tourist cards, the viewer's own) that this AI prefers."""
    seat = view.you
    assert seat is not None
    setup = view.pending.setup
    ticket_value = {}
    for t in offer["tickets"]:
        cost = ai.ticket_cost(view, game_map, seat, t)
        points = game_map.tickets[t].points
        ticket_value[t] = points - 1.6 * cost if cost is not None else -points
    tourist_value = {c: _tourist_value(view, game_map, seat, c) for c in offer["tourist"]}

    def best(values: dict[str, float], minimum: int, cap: int) -> set[str]:
        ranked = sorted(values, key=lambda k: (-values[k], k))
        keep = ranked[:minimum]
        keep += [k for k in ranked[minimum:cap] if values[k] > 0]
        return set(keep)

    t_min = min(3 if setup else 1, len(offer["tickets"]))
    c_min = min(3 if setup else 1, len(offer["tourist"]))
    want = best(ticket_value, t_min, max(t_min, 3 if setup else 2)) | best(tourist_value, c_min, 5)
    for option in options:
        if set(option.keep) == want:
            return option
    return max(options, key=lambda o: sum(ticket_value.get(k, 0) + tourist_value.get(k, 0) for k in o.keep))


ADVICE = (TouristCardsAdvice(),)
