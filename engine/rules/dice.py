"""The Dice Expansion: a way of paying that any rule set can switch on (options {"dice": true}).

Seed: dice-expansion.txt; AMBIGUITIES D1-D15. `with_dice(rules, options)` turns a board's
RuleSet into its dice version: modules that need train cards (`needs_train_cards = True`:
the card draw, card claims, card tunnels, the USSR Controller, Alsace "burn 5") are dropped,
the payment rule becomes the plain one (so no Nordic jokers), ticket draws may keep 0 (D7),
and `DiceRules` is added. Everything else of the board's rule set stays (stations, passengers,
bonuses, tourist cards).

A dice turn (all public):
- turn start: the 5 train dice are rolled -> pending `dice_roll`; the faces are in
  `player.public["dice"]` (the dice not yet used), tokens in `player.public["tokens"]`,
  the supply and this turn's bookkeeping in `state.extra["dice"]`.
- `dice_roll`: `reroll_dice` (the faces kept; the other dice are re-rolled, once) or act at once; after a re-roll
  the pending kind is `dice_action` (same actions without the re-roll).
- the action (at most one, optional, D12): `claim_route` whose `payment` names faces and
  tokens (`{"single": 2, "wild": 1, "token": 1}`); `draw_tickets_dice` with `payment` of
  station/wild faces (one ticket each, keep any number incl. 0, D7); `build_station` with
  1/2/3 station/wild faces (D3); or `pass` (no action).
- tunnels: the laid dice and tokens leave the player, the 3 tunnel dice are rolled
  (`tunnel_die_faces` of 6 show the symbol, D10); each symbol costs one more die of the route's
  type, a wild or a token (D11) -> pending `dice_tunnel` (`pay_tunnel` / `give_up_tunnel`).
  Giving up, or being unable to pay, gives the tokens back and ends the turn with no token
  bought (D8).
- after the action (via the `before_turn_end` hook): if a token can be bought, pending
  `dice_token`: `buy_token` (`token` single/double, `payment` any 2 unused faces) or `pass`.
  One exchange per turn (option `dice_token_exchanges_per_turn`, D5); at most 3 of a type,
  none of a type the player started the turn with 3 of; 15 of each in the supply (D6).

Dice injection: `state.secret["dice_queue"]` is a list of faces consumed (front first) before
the generator is asked, for every die rolled (train faces single/double/station/wild, tunnel
faces tunnel/blank). Scenarios fill it with the `dice:` setup key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from engine.actions import (
    Action,
    BuildStation,
    ClaimRoute,
    GiveUpTunnel,
    Pass,
    PayTunnel,
    register,
)
from engine.cards import Cards, card_word, cards, count
from engine.errors import IllegalAction
from engine.maps import Route, load_map
from engine.rules.module import RuleModule
from engine.rules.payment import PaymentRule
from engine.rules.routes import blocked_reason, complete_claim, find_city, find_route, open_route_test, route_name
from engine.rules.stations import Stations, _station_cities
from engine.rules.tickets import DestinationTickets

if TYPE_CHECKING:
    from engine.game import Game
    from engine.ruleset import RuleSet

SINGLE = "single"
DOUBLE = "double"
STATION = "station"
WILD = "wild"
TOKEN = "token"
TRAIN_FACES: tuple[str, ...] = (SINGLE, SINGLE, DOUBLE, DOUBLE, STATION, WILD)  # D1
TUNNEL = "tunnel"
BLANK = "blank"
TOKEN_TYPES = (SINGLE, DOUBLE)
N_DICE = 5
N_TUNNEL_DICE = 3
TOKEN_CAP = 3
TOKEN_SUPPLY = 15
MAX_LENGTH = 8  # 5 dice + 3 tokens (D13)

# Table options of the Dice Expansion, with their defaults.
DICE_OPTIONS: dict[str, Any] = {
    "tunnel_die_faces": 2,  # D10, UNVERIFIED: tunnel faces out of 6
    "dice_token_exchanges_per_turn": 1,  # D5
    "dice_nordic_9_route": "as_8",  # D13: "as_8" | "disabled"
}


# --- actions ---------------------------------------------------------------------------------


@register
@dataclasses.dataclass(slots=True, unsafe_hash=True)
class RerollDice(Action):
    """Keep the dice showing these faces (`keep`, sorted, may be empty) and re-roll all the
    others, once per turn. Faces are interchangeable, so naming them is enough."""

    TYPE: ClassVar[str] = "reroll_dice"
    DOES: ClassVar[str] = "re-roll dice"
    keep: tuple[str, ...] = ()


@register
@dataclasses.dataclass(slots=True, unsafe_hash=True)
class DrawTicketsWithDice(Action):
    """Draw one destination ticket per station (or wild) face in `payment`."""

    TYPE: ClassVar[str] = "draw_tickets_dice"
    DOES: ClassVar[str] = "draw tickets with dice"
    payment: Cards = ()


@register
@dataclasses.dataclass(slots=True, unsafe_hash=True)
class BuyToken(Action):
    """Turn two unused dice (`payment`, any faces) into one token (`token`: single/double)."""

    TYPE: ClassVar[str] = "buy_token"
    DOES: ClassVar[str] = "take a route token"
    token: str = SINGLE
    payment: Cards = ()


# --- helpers ---------------------------------------------------------------------------------


def route_type(game_map: Any, route: Route) -> str:
    """D9: "double" iff the map prints a parallel track, whatever its state."""
    return DOUBLE if route.parallel_group else SINGLE


def dice_length(route: Route, options: Mapping[str, Any]) -> int | None:
    """The spaces a route costs under dice (None: it cannot be claimed). D13."""
    if route.length > MAX_LENGTH:
        if route.length == 9 and options.get("dice_nordic_9_route", "as_8") == "as_8":
            return MAX_LENGTH
        return None
    return route.length


def roll(game: Game, n: int, faces: tuple[str, ...]) -> list[str]:
    """Roll n dice: injected results first (`secret["dice_queue"]`), then the generator."""
    queue = game.state.secret.get("dice_queue")
    out = []
    for _ in range(n):
        if queue:
            face = queue.pop(0)
            if face not in faces:
                raise AssertionError(f"injected die face {face!r} is not one of {sorted(set(faces))}")
            out.append(face)
        else:
            out.append(faces[game.rng.below(len(faces))])
    if queue == []:
        del game.state.secret["dice_queue"]
    return out


def _as_length(route: Route, n: int) -> Route:
    """The route as dice see it (Nordic's 9-route as an 8-route, D13)."""
    return route if n == route.length else dataclasses.replace(route, length=n)


def _face_counts(faces: Iterable[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in faces:
        out[f] = out.get(f, 0) + 1
    return out


# A payment a player makes up may name up to 50 kinds of face: a refusal lists this many.
_LISTED = 6


def _payment_words(payment: Cards) -> str:
    words = [f"{n} {card_word(name)}" for name, n in payment]
    if len(words) > _LISTED:
        words[_LISTED - 1:] = [f"{len(words) - _LISTED + 1} other kinds"]
    return ", ".join(words) or "nothing"


# --- the module ------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class DiceRules(RuleModule):
    """Rolling, paying with dice and tokens, dice tunnels and ferries, buying tokens."""

    name: ClassVar[str] = "dice"
    _main: ClassVar = (ClaimRoute, DrawTicketsWithDice, BuildStation, Pass)
    actions: ClassVar = {
        "dice_roll": (RerollDice, *_main),
        "dice_action": _main,
        "dice_tunnel": (PayTunnel, GiveUpTunnel),
        "dice_token": (BuyToken, Pass),
    }
    prompts: ClassVar = {
        "dice_roll": "re-roll dice or use them (claim a route, draw tickets, build a station, or pass)",
        "dice_action": "use your dice (claim a route, draw tickets, build a station, or pass)",
        "dice_tunnel": "pay the tunnel's extra dice or tokens or give it up",
        "dice_token": "take a token with two unused dice, or pass",
    }

    tunnel_die_faces: int = 2
    token_exchanges: int = 1
    options: tuple[tuple[str, Any], ...] = ()

    # --- state --------------------------------------------------------------------------
    @staticmethod
    def data(game: Game) -> dict[str, Any]:
        return game.state.extra["dice"]

    @staticmethod
    def turn(game: Game) -> dict[str, Any]:
        return game.state.extra["dice"].setdefault("turn", {})

    @staticmethod
    def dice(game: Game, seat: int) -> list[str]:
        return game.player(seat).public.setdefault("dice", [])

    @staticmethod
    def tokens(game: Game, seat: int) -> dict[str, int]:
        return game.player(seat).public.setdefault("tokens", {SINGLE: 0, DOUBLE: 0})

    def length(self, route: Route) -> int | None:
        return dice_length(route, dict(self.options))

    # --- hooks --------------------------------------------------------------------------
    def setup(self, game: Game) -> None:
        game.state.extra["dice"] = {"supply": {SINGLE: TOKEN_SUPPLY, DOUBLE: TOKEN_SUPPLY}, "idle_turns": 0}
        for p in game.state.players:
            p.public["dice"] = []
            p.public["tokens"] = {SINGLE: 0, DOUBLE: 0}

    def on_turn_start(self, game: Game) -> None:
        if game.state.pending.get("kind") != "turn":
            return
        seat = game.state.current
        game.state.extra.setdefault("dice", {"supply": {SINGLE: TOKEN_SUPPLY, DOUBLE: TOKEN_SUPPLY}, "idle_turns": 0})
        tokens = self.tokens(game, seat)
        faces = roll(game, N_DICE, TRAIN_FACES)
        game.player(seat).public["dice"] = faces
        self.data(game)["turn"] = {
            "seat": seat,
            "capped": [t for t in TOKEN_TYPES if tokens.get(t, 0) >= TOKEN_CAP],
            "acted": False,
            "bought": 0,
            "token_done": False,
            "no_token": False,
        }
        game.emit("dice_rolled", player=seat, dice=list(faces), reroll=False)
        game.set_pending("dice_roll")

    def before_turn_end(self, game: Game) -> bool:
        turn = game.state.extra.get("dice", {}).get("turn")
        if not turn or turn["token_done"] or turn["no_token"]:
            return False
        if self.token_options(game, turn["seat"]):
            game.set_pending("dice_token")
            return True
        return False

    def on_turn_end(self, game: Game) -> None:
        data = game.state.extra.get("dice")
        if data is None:
            return
        turn = data.pop("turn", None)
        if turn is not None:
            data["idle_turns"] = 0 if turn["acted"] or turn["bought"] else data.get("idle_turns", 0) + 1
            game.player(turn["seat"]).public["dice"] = []

    # --- listing ------------------------------------------------------------------------
    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        kind = game.state.pending.get("kind")
        if kind == "dice_token":
            return [*self.token_options(game, seat), Pass(seat)]
        if kind == "dice_tunnel":
            p = game.state.pending
            return [*(PayTunnel(seat, c) for c in self._pay_options(game, seat, p["type"], p["extra"], 0)),
                    GiveUpTunnel(seat)]
        out: list[Action] = []
        if kind == "dice_roll":
            out.extend(self._reroll_options(game, seat))
        out.extend(self.claim_options(game, seat))
        out.extend(self._ticket_options(game, seat))
        out.extend(self._station_options(game, seat))
        out.append(Pass(seat))
        return out

    def _reroll_options(self, game: Game, seat: int) -> list[Action]:
        """One re-roll per multiset of faces kept (keeping every die is no re-roll)."""
        dice = self.dice(game, seat)
        have = sorted(_face_counts(dice).items())
        out: list[Action] = []

        def build(i: int, acc: list[str]) -> None:
            if i == len(have):
                if len(acc) < len(dice):
                    out.append(RerollDice(seat, tuple(acc)))
                return
            face, n = have[i]
            for k in range(n + 1):
                build(i + 1, acc + [face] * k)

        build(0, [])
        return out

    def _pay_options(self, game: Game, seat: int, kind: str, n: int, wilds_needed: int) -> list[Cards]:
        """Every payment of n spaces of `kind` from the unused dice and the tokens."""
        have = _face_counts(self.dice(game, seat))
        n_face, n_wild = have.get(kind, 0), have.get(WILD, 0)
        n_token = self.tokens(game, seat).get(kind, 0)
        out = []
        for w in range(wilds_needed, min(n_wild, n) + 1):
            for t in range(0, min(n_token, n - w) + 1):
                f = n - w - t
                if f <= n_face:
                    out.append(cards({kind: f, WILD: w, TOKEN: t}))
        return out

    def claim_options(self, game: Game, seat: int) -> list[ClaimRoute]:
        is_open = open_route_test(game, seat)
        trains = game.player(seat).trains
        have = _face_counts(self.dice(game, seat))
        tokens = self.tokens(game, seat)
        reach = {k: have.get(k, 0) + have.get(WILD, 0) + tokens.get(k, 0) for k in TOKEN_TYPES}
        out: list[ClaimRoute] = []
        for route in game.map.routes.values():
            n = self.length(route)
            kind = route_type(game.map, route)
            if n is None or n > reach[kind] or n > trains or route.ferry_locos > have.get(WILD, 0):
                continue
            if not is_open(_as_length(route, n)):
                continue
            for payment in self._pay_options(game, seat, kind, n, route.ferry_locos):
                out.append(ClaimRoute(seat, route.id, payment))
        return out

    @staticmethod
    def _ticket_decks(game: Game) -> tuple[DestinationTickets, list[str]]:
        """The tickets module and the decks a dice draw takes from, in order: the map's draw
        decks, else every deck (short ones first)."""
        tickets = game.rules.module("tickets")
        assert isinstance(tickets, DestinationTickets)
        order = [name for name, _ in tickets.draw] or sorted(game.state.ticket_decks,
                                                             key=lambda d: (d != "short", d))
        return tickets, order

    def _ticket_options(self, game: Game, seat: int) -> list[Action]:
        _, order = self._ticket_decks(game)
        left = sum(len(game.state.ticket_decks.get(d, [])) for d in order)
        have = _face_counts(self.dice(game, seat))
        out: list[Action] = []
        for st in range(have.get(STATION, 0) + 1):
            for w in range(have.get(WILD, 0) + 1):
                if 1 <= st + w <= left:
                    out.append(DrawTicketsWithDice(seat, cards({STATION: st, WILD: w})))
        return out

    def _stations(self, game: Game) -> Stations | None:
        module = game.rules.module("stations")
        return module if isinstance(module, Stations) else None

    def _station_options(self, game: Game, seat: int) -> list[Action]:
        stations = self._stations(game)
        if stations is None or game.player(seat).stations <= 0:
            return []
        n = stations.cost(game, seat)
        have = _face_counts(self.dice(game, seat))
        payments = [cards({STATION: n - w, WILD: w}) for w in range(min(n, have.get(WILD, 0)) + 1)
                    if n - w <= have.get(STATION, 0)]
        if not payments:
            return []
        taken = game.state.stations
        return [BuildStation(seat, city, p) for city in _station_cities(game) if city not in taken for p in payments]

    def token_options(self, game: Game, seat: int) -> list[BuyToken]:
        turn = game.state.extra.get("dice", {}).get("turn") or {}
        if turn.get("no_token") or turn.get("bought", 0) >= self.token_exchanges:
            return []
        dice = self.dice(game, seat)
        if len(dice) < 2:
            return []
        supply = self.data(game)["supply"]
        tokens = self.tokens(game, seat)
        types = [t for t in TOKEN_TYPES if t not in turn.get("capped", ())
                 and tokens.get(t, 0) < TOKEN_CAP and supply.get(t, 0) > 0]
        pairs = sorted({tuple(sorted(p)) for p in combinations(dice, 2)})
        return [BuyToken(seat, t, cards(_face_counts(p))) for t in types for p in pairs]

    # --- applying -----------------------------------------------------------------------
    def apply(self, game: Game, action: Action) -> None:
        kind = game.state.pending.get("kind")
        seat = action.player
        if isinstance(action, RerollDice):
            self._reroll(game, action)
        elif isinstance(action, ClaimRoute):
            self._claim(game, action)
        elif isinstance(action, DrawTicketsWithDice):
            self._draw_tickets(game, action)
        elif isinstance(action, BuildStation):
            self._build_station(game, action)
        elif isinstance(action, PayTunnel):
            self._pay_tunnel(game, action)
        elif isinstance(action, GiveUpTunnel):
            self._fail_tunnel(game, seat, declined=True)
        elif isinstance(action, BuyToken):
            self._buy_token(game, action)
        elif isinstance(action, Pass):
            if kind == "dice_token":
                self.turn(game)["token_done"] = True
                game.end_turn()
                return
            game.emit("passed", player=seat)
            if self._deadlocked(game):
                game.emit("deadlock", text="Nobody can do anything any more, so the game ends.")
                game.state.passes_in_a_row = game.n_players
                game.finish_game()
                return
            game.end_turn()

    def _spend(self, game: Game, seat: int, payment: Cards, allowed: set[str], token_type: str | None) -> None:
        """Check that `payment` is there (faces among `allowed`, tokens of `token_type`) and
        take it: dice leave `public["dice"]`, tokens go back to the supply."""
        odd = [name for name, _ in payment if name not in allowed and not (name == TOKEN and token_type)]
        if odd:
            raise IllegalAction(f"A {card_word(odd[0])} cannot pay for that.", "bad_payment")
        dice = self.dice(game, seat)
        have = _face_counts(dice)
        for name, n in payment:
            if name == TOKEN:
                assert token_type is not None
                held = self.tokens(game, seat).get(token_type, 0)
                if n > held:
                    raise IllegalAction(f"You have {held} {token_type} token{'s' if held != 1 else ''}, not {n}.",
                                        "not_enough_dice")
            elif n > have.get(name, 0):
                raise IllegalAction(f"You have {have.get(name, 0)} {name} dice, not {n}.", "not_enough_dice")
        for name, n in payment:
            if name == TOKEN:
                assert token_type is not None
                self.tokens(game, seat)[token_type] -= n
                self.data(game)["supply"][token_type] += n
            else:
                for _ in range(n):
                    dice.remove(name)

    def _reroll(self, game: Game, action: RerollDice) -> None:
        seat = action.player
        dice = self.dice(game, seat)
        keep = _face_counts(action.keep)
        have = _face_counts(dice)
        short = [f for f, n in keep.items() if n > have.get(f, 0)]
        if short:
            raise IllegalAction(f"You cannot keep {keep[short[0]]} {card_word(short[0])} dice; you rolled "
                                f"{have.get(short[0], 0)}.", "bad_dice")
        if len(action.keep) >= len(dice):
            raise IllegalAction("Keep fewer dice than you rolled, or just use them.", "bad_dice")
        idx = []
        for i, face in enumerate(dice):
            if keep.get(face, 0):
                keep[face] -= 1
            else:
                idx.append(i)
        new = roll(game, len(idx), TRAIN_FACES)
        for i, face in zip(idx, new, strict=True):
            dice[i] = face
        game.emit("dice_rolled", player=seat, dice=list(dice), reroll=True)
        game.set_pending("dice_action")

    def _claim(self, game: Game, action: ClaimRoute) -> None:
        seat = action.player
        route = find_route(game, action.route)
        n = self.length(route)
        if n is None:
            raise IllegalAction(f"{route_name(game, route)} cannot be claimed with dice.", "route_blocked")
        reason = blocked_reason(game, seat, _as_length(route, n))
        if reason:
            raise IllegalAction(reason, "route_blocked")
        kind = route_type(game.map, route)
        payment = action.payment
        label = game.map.route_label(route.id)
        if count(payment) != n:
            raise IllegalAction(f"{label} takes {n} {kind} dice or tokens; you offered {count(payment)}.",
                                "bad_payment")
        other = [name for name, _ in payment if name not in (kind, WILD, TOKEN)]
        if other:
            raise IllegalAction(f"{label} is a {kind} route: {card_word(other[0])} faces cannot pay for it.",
                                "bad_payment")
        wilds = dict(payment).get(WILD, 0)
        if wilds < route.ferry_locos:
            raise IllegalAction(f"{label} is a ferry: it needs at least {route.ferry_locos} wild "
                                f"{'die' if route.ferry_locos == 1 else 'dice'}.", "bad_payment")
        self._spend(game, seat, payment, {kind, WILD}, kind)
        self.turn(game)["acted"] = True
        game.emit("dice_paid", player=seat, route=route.id, payment=dict(payment))
        if route.tunnel:
            faces = (TUNNEL,) * self.tunnel_die_faces + (BLANK,) * (6 - self.tunnel_die_faces)
            tunnel_dice = roll(game, N_TUNNEL_DICE, faces)
            extra = tunnel_dice.count(TUNNEL)
            game.emit("tunnel_dice_rolled", player=seat, route=route.id, dice=tunnel_dice, extra=extra)
            if extra:
                game.set_pending("dice_tunnel", route=route.id, payment=dict(payment), tunnel_dice=tunnel_dice,
                                 extra=extra, type=kind)
                if not self._pay_options(game, seat, kind, extra, 0):
                    self._fail_tunnel(game, seat, declined=False)
                return
        self._complete(game, seat, route, n)

    def _complete(self, game: Game, seat: int, route: Route, n: int) -> None:
        complete_claim(game, seat, _as_length(route, n), ())

    def _pay_tunnel(self, game: Game, action: PayTunnel) -> None:
        seat = action.player
        p = game.state.pending
        kind, extra = p["type"], p["extra"]
        if count(action.payment) != extra or any(name not in (kind, WILD, TOKEN) for name, _ in action.payment):
            raise IllegalAction(f"The tunnel needs {extra} more {kind} dice, wild dice or {kind} tokens; "
                                f"you offered {_payment_words(action.payment)}.", "bad_payment")
        self._spend(game, seat, action.payment, {kind, WILD}, kind)
        route = game.map.routes[p["route"]]
        n = self.length(route)
        assert n is not None
        self._complete(game, seat, route, n)

    def _fail_tunnel(self, game: Game, seat: int, declined: bool) -> None:
        """D8: nothing claimed, the laid tokens come back, no token bought, the turn ends."""
        p = game.state.pending
        laid = dict(p["payment"]).get(TOKEN, 0)
        if laid:
            self.tokens(game, seat)[p["type"]] += laid
            self.data(game)["supply"][p["type"]] -= laid
        self.turn(game)["no_token"] = True
        game.emit("tunnel_abandoned", player=seat, route=p["route"], payment=dict(p["payment"]),
                  reason="declined" if declined else "cannot_pay")
        game.end_turn()

    def _draw_tickets(self, game: Game, action: DrawTicketsWithDice) -> None:
        seat = action.player
        n = count(action.payment)
        if n < 1 or any(name not in (STATION, WILD) for name, _ in action.payment):
            raise IllegalAction("Draw tickets with one or more station (or wild) dice.", "bad_payment")
        tickets, order = self._ticket_decks(game)
        decks = game.state.ticket_decks
        if sum(len(decks.get(d, [])) for d in order) < n:
            raise IllegalAction("There are not that many destination tickets left to draw.", "no_tickets")
        self._spend(game, seat, action.payment, {STATION, WILD}, None)
        self.turn(game)["acted"] = True
        offer: list[str] = []
        for deck in order:
            offer.extend(tickets._take(game, deck, n - len(offer)))
        offers: list[Any] = [None] * game.n_players
        offers[seat] = offer
        game.emit("tickets_drawn", player=seat, count=len(offer), mix=[])
        game.tell(seat, "tickets_offered", tickets=list(offer), keep=0)
        game.set_pending("choose_tickets", offers=offers, setup=False)

    def _build_station(self, game: Game, action: BuildStation) -> None:
        seat = action.player
        stations = self._stations(game)
        if stations is None:
            raise IllegalAction("There are no stations in this game.", "not_in_these_rules")
        player = game.player(seat)
        city = find_city(game, action.city)
        if player.stations <= 0:
            raise IllegalAction("You have built all your stations.", "no_stations")
        owner = game.state.stations.get(city.id)
        if owner is not None:
            raise IllegalAction(f"{game.map.city_label(city.id)} already has {game.name(owner)}'s station.",
                                "station_taken")
        n = stations.cost(game, seat)
        if count(action.payment) != n or any(name not in (STATION, WILD) for name, _ in action.payment):
            raise IllegalAction(f"This station costs {n} station {'die' if n == 1 else 'dice'} (wilds may stand "
                                f"in); you offered {_payment_words(action.payment)}.", "bad_payment")
        self._spend(game, seat, action.payment, {STATION, WILD}, None)
        self.turn(game)["acted"] = True
        player.stations -= 1
        game.state.stations[city.id] = seat
        game.emit("station_built", player=seat, city=city.id, payment=dict(action.payment))
        game.end_turn()

    def _buy_token(self, game: Game, action: BuyToken) -> None:
        seat = action.player
        turn = self.turn(game)
        token = action.token
        if token not in TOKEN_TYPES:
            raise IllegalAction("A token is single or double.", "bad_token")
        tokens = self.tokens(game, seat)
        if token in turn.get("capped", ()):
            raise IllegalAction(f"You started this turn with {TOKEN_CAP} {token} tokens, so you cannot take "
                                f"another this turn.", "token_cap")
        if tokens.get(token, 0) >= TOKEN_CAP:
            raise IllegalAction(f"You may hold at most {TOKEN_CAP} {token} tokens.", "token_cap")
        if self.data(game)["supply"][token] <= 0:
            raise IllegalAction(f"There are no {token} tokens left.", "token_supply")
        if count(action.payment) != 2:
            raise IllegalAction("A token costs exactly two unused dice.", "bad_payment")
        self._spend(game, seat, action.payment, {SINGLE, DOUBLE, STATION, WILD}, None)
        tokens[token] = tokens.get(token, 0) + 1
        self.data(game)["supply"][token] -= 1
        turn["bought"] = turn.get("bought", 0) + 1
        game.emit("token_taken", player=seat, token=token, payment=dict(action.payment))
        if not self.token_options(game, seat):
            turn["token_done"] = True
            game.end_turn()

    def _deadlocked(self, game: Game) -> bool:
        """Nothing can ever change: no player can claim, draw tickets or build (X4)."""
        data = self.data(game)
        if data.get("idle_turns", 0) + 1 < game.n_players:
            return False
        _, order = self._ticket_decks(game)
        if any(game.state.ticket_decks.get(d) for d in order):
            return False
        stations = self._stations(game)
        free_city = stations is not None and any(c not in game.state.stations for c in _station_cities(game))
        for seat in range(game.n_players):
            if free_city and game.player(seat).stations > 0:
                return False
            is_open = open_route_test(game, seat)
            for route in game.map.routes.values():
                n = self.length(route)
                if n is not None and is_open(_as_length(route, n)):
                    return False
        return True


# --- the transformation ----------------------------------------------------------------------


def with_dice(rules: RuleSet, options: Mapping[str, Any]) -> RuleSet:
    """The dice version of a board's rule set (see the module docstring)."""
    faces = options.get("tunnel_die_faces", DICE_OPTIONS["tunnel_die_faces"])
    exchanges = options.get("dice_token_exchanges_per_turn", DICE_OPTIONS["dice_token_exchanges_per_turn"])
    nine = options.get("dice_nordic_9_route", DICE_OPTIONS["dice_nordic_9_route"])
    if not isinstance(faces, int) or isinstance(faces, bool) or not 0 <= faces <= 6:
        raise IllegalAction("tunnel_die_faces must be a whole number from 0 to 6.", "bad_option")
    if exchanges not in (1, 2):
        raise IllegalAction("dice_token_exchanges_per_turn must be 1 or 2.", "bad_option")
    if nine not in ("as_8", "disabled"):
        raise IllegalAction("dice_nordic_9_route must be as_8 or disabled.", "bad_option")
    # First, so that the dice are rolled before any other turn-start rule opens a decision
    # that resumes the turn afterwards (Alsace calling time).
    modules: list[RuleModule] = [
        DiceRules(tunnel_die_faces=faces, token_exchanges=exchanges, options=(("dice_nordic_9_route", nine),))
    ]
    for module in rules.modules:
        if getattr(module, "needs_train_cards", False):
            continue
        if isinstance(module, DestinationTickets):
            module = dataclasses.replace(module, draw_keep=0)  # D7
        modules.append(module)
    game_map = load_map(rules.map_id)
    as_8 = {r.id: MAX_LENGTH for r in game_map.routes.values() if r.length > MAX_LENGTH} if nine == "as_8" else {}
    return dataclasses.replace(
        rules,
        modules=tuple(modules),
        payment=PaymentRule(),
        options={**rules.options, "dice": True},
        route_lengths={**rules.route_lengths, **as_8},
    )


__all__ = ["BuyToken", "DiceRules", "DrawTicketsWithDice", "RerollDice", "with_dice"]
