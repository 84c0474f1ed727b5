"""Where a player's dice and tokens live in the state, what they can pay, and paying.

All public: `player.public["dice"]` (the dice not yet used this turn), `player.public["tokens"]`,
and in `state.extra["dice"]` the token supply, the count of idle turns in a row and this turn's
bookkeeping (`turn`: `seat`, `capped`, `acted`, `bought`, `token_done`, `no_token`, and after
a tunnel failed or given up `tunnel_given_up` and `discard_offered`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from engine.cards import Cards, card_word, cards
from engine.errors import IllegalAction
from engine.rules.dice.faces import DOUBLE, SINGLE, TOKEN, TOKEN_SUPPLY, WILD, face_counts

if TYPE_CHECKING:
    from engine.core import Game
    from engine.state import GameState


@dataclass(frozen=True, slots=True)
class DiceView:
    """The Dice Expansion as anyone may see it: each seat's dice not yet used this turn, each
    seat's tokens ({single/double: count}), the tokens left in the supply, the turns in a
    row nobody could act (the deadlock count), and this turn's bookkeeping (`turn`, None between
    turns: whose turn, the token types capped at its start, whether the player has acted, the
    tokens bought, …) — what everyone at the table saw happen, which a game sampled from the
    view needs to go on from the middle of a dice turn."""

    unused: tuple[tuple[str, ...], ...]
    tokens: tuple[Mapping[str, int], ...]
    supply: Mapping[str, int]
    idle_turns: int = 0
    turn: Mapping[str, Any] | None = None


def dice_view(state: GameState) -> DiceView:
    data = state.extra.get("dice", {})
    turn = data.get("turn")
    return DiceView(
        unused=tuple(tuple(p.public.get("dice", ())) for p in state.players),
        tokens=tuple(dict(p.public.get("tokens", {SINGLE: 0, DOUBLE: 0})) for p in state.players),
        supply=dict(data.get("supply", {})),
        idle_turns=int(data.get("idle_turns", 0)),
        turn={k: list(v) if isinstance(v, list) else v for k, v in turn.items()} if turn is not None else None,
    )


def fresh_data() -> dict[str, Any]:
    """`state.extra["dice"]` at the start of a game."""
    return {"supply": {SINGLE: TOKEN_SUPPLY, DOUBLE: TOKEN_SUPPLY}, "idle_turns": 0}


# The dice's bookkeeping lives in the state's free-form dicts (`extra`, a seat's `public`), which
# the store keeps as JSON; each reader below states the type of what it takes out.
def dice_data(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = game.state.extra["dice"]
    return data


def this_turn(game: Game) -> dict[str, Any]:
    """This turn's bookkeeping (set when the dice are rolled)."""
    turn: dict[str, Any] = game.state.extra["dice"].setdefault("turn", {})
    return turn


def unused_dice(game: Game, seat: int) -> list[str]:
    dice: list[str] = game.player(seat).public.setdefault("dice", [])
    return dice


def tokens(game: Game, seat: int) -> dict[str, int]:
    held: dict[str, int] = game.player(seat).public.setdefault("tokens", {SINGLE: 0, DOUBLE: 0})
    return held


def pay_options(game: Game, seat: int, kind: str, n: int, wilds_needed: int) -> list[Cards]:
    """Every payment of n spaces of `kind` from the unused dice and the tokens, with at least
    `wilds_needed` wilds (a ferry's locomotives, D2)."""
    have = face_counts(unused_dice(game, seat))
    return list(payments(kind, n, wilds_needed, have.get(kind, 0), have.get(WILD, 0),
                         tokens(game, seat).get(kind, 0))[1])


# The payments for each (kind, n, wilds needed, faces, wilds, tokens held), each with a serial
# number, worked out once per process: listing claims asks for them at every decision of every
# dice game. Counts above n are clipped, so there are a few thousand keys at most.
_PAYMENTS: dict[tuple[str, int, int, int, int, int], tuple[int, tuple[Cards, ...]]] = {}


def payments(kind: str, n: int, wilds_needed: int, n_face: int, n_wild: int,
             n_token: int) -> tuple[int, tuple[Cards, ...]]:
    """`pay_options` from counts: (a serial number for this list, the payments), fewest wilds
    first, then fewest tokens. The serial number names the list in caches of actions."""
    key = (kind, n, wilds_needed, min(n_face, n), min(n_wild, n), min(n_token, n))
    hit = _PAYMENTS.get(key)
    if hit is None:
        out = []
        for w in range(wilds_needed, min(n_wild, n) + 1):
            for t in range(0, min(n_token, n - w) + 1):
                f = n - w - t
                if f <= n_face:
                    out.append(cards({kind: f, WILD: w, TOKEN: t}))
        hit = _PAYMENTS[key] = (len(_PAYMENTS), tuple(out))
    return hit


def spend(game: Game, seat: int, payment: Cards, allowed: set[str], token_type: str | None) -> None:
    """Check that `payment` is there (faces among `allowed`, tokens of `token_type`) and take
    it: dice leave `public["dice"]`, tokens go back to the supply."""
    odd = [name for name, _ in payment if name not in allowed and not (name == TOKEN and token_type)]
    if odd:
        raise IllegalAction(f"A {card_word(odd[0])} cannot pay for that.", "bad_payment")
    dice = unused_dice(game, seat)
    have = face_counts(dice)
    for name, n in payment:
        if name == TOKEN:
            assert token_type is not None
            held = tokens(game, seat).get(token_type, 0)
            if n > held:
                raise IllegalAction(f"You have {held} {token_type} token{'s' if held != 1 else ''}, not {n}.",
                                    "not_enough_dice")
        elif n > have.get(name, 0):
            raise IllegalAction(f"You have {have.get(name, 0)} {name} dice, not {n}.", "not_enough_dice")
    for name, n in payment:
        if name == TOKEN:
            assert token_type is not None
            tokens(game, seat)[token_type] -= n
            dice_data(game)["supply"][token_type] += n
        else:
            for _ in range(n):
                dice.remove(name)
