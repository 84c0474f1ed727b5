"""The roll and the re-roll: at the start of a turn the 5 train dice are rolled (D1); the
player may keep some faces and re-roll the other dice once, or use them at once."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from engine.actions import Action, register
from engine.cards import card_word
from engine.decisions import Decision
from engine.errors import IllegalAction
from engine.events import Payload
from engine.rules.dice.faces import N_DICE, TOKEN_CAP, TOKEN_TYPES, TRAIN_FACES, face_counts
from engine.rules.dice.purse import DiceView, dice_data, dice_view, fresh_data, tokens, unused_dice
from engine.rules.module import RuleModule

if TYPE_CHECKING:
    from engine.core import Game
    from engine.maps import GameMap
    from engine.state import GameState


# --- the decisions this rule opens -----------------------------------------------------------
@dataclass(frozen=True)
class ChooseReroll(Decision):
    """The dice are rolled: reroll some, or act."""

    kind = "dice_roll"
    is_turn = True  # the Dice Expansion's turn: the claim or the ticket draw is chosen here


@dataclass(frozen=True)
class DiceAction(Decision):
    """The reroll is done: act with the dice."""

    kind = "dice_action"
    is_turn = True



# --- the events this rule emits --------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class DiceRolled(Payload):
    kind = "dice_rolled"
    player: int
    dice: list[str]
    reroll: bool



@register
@dataclasses.dataclass(slots=True, unsafe_hash=True)
class RerollDice(Action):
    """Keep the dice showing these faces (`keep`, sorted, may be empty) and re-roll all the
    others, once per turn. Faces are interchangeable, so naming them is enough."""

    TYPE: ClassVar[str] = "reroll_dice"
    DOES: ClassVar[str] = "re-roll dice"
    keep: tuple[str, ...] = ()


def roll(game: Game, n: int, faces: tuple[str, ...]) -> list[str]:
    """Roll n dice with these faces (train or tunnel dice) through the game's chance."""
    return [game.chance.roll(faces) for _ in range(n)]


# The re-rolls per (seat, unused dice sorted): made once and reused (actions are values), as
# every first decision of a dice turn asks.
_REROLLS: dict[tuple[int, tuple[str, ...]], list[Action]] = {}


def _rerolls(seat: int, dice: list[str]) -> list[Action]:
    have = sorted(face_counts(dice).items())
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


@dataclasses.dataclass(frozen=True)
class DiceRoll(RuleModule):
    """Rolls the train dice when a turn starts (pending `dice_roll`), re-rolls them once on
    request (then `dice_action`), and clears the unused dice when the turn ends."""

    name: ClassVar[str] = "dice_roll"
    events: ClassVar[tuple[str, ...]] = ("dice_rolled",)
    actions: ClassVar = {"dice_roll": (RerollDice,)}
    # The other modules of the turn handle the actions of both decisions; the roll opens them.
    prompts: ClassVar = {
        "dice_roll": "re-roll dice or use them (claim a route, draw tickets, build a station, take a token, "
                     "or pass)",
        "dice_action": "use your dice (claim a route, draw tickets, build a station, take a token, or pass)",
    }

    def view_part(self, state: GameState, seat: int | None, game_map: GameMap) -> DiceView:
        return dice_view(state)

    def setup(self, game: Game) -> None:
        game.state.extra["dice"] = fresh_data()
        for p in game.state.players:
            p.public["dice"] = []
            p.public["tokens"] = {t: 0 for t in TOKEN_TYPES}

    def on_turn_start(self, game: Game) -> None:
        # Another turn-start rule may have opened a decision first (Alsace calling time); the
        # dice wait until the turn resumes.
        if game.state.pending.get("kind") != "turn":
            return
        seat = game.state.current
        game.state.extra.setdefault("dice", fresh_data())
        held = tokens(game, seat)
        faces = roll(game, N_DICE, TRAIN_FACES)
        game.player(seat).public["dice"] = faces
        dice_data(game)["turn"] = {
            "seat": seat,
            "capped": [t for t in TOKEN_TYPES if held.get(t, 0) >= TOKEN_CAP],
            "acted": False,
            "bought": 0,
            "token_done": False,
            "no_token": False,
        }
        game.emit(DiceRolled(player=seat, dice=list(faces), reroll=False))
        game.set_pending(ChooseReroll())

    def on_turn_end(self, game: Game) -> None:
        data = game.state.extra.get("dice")
        if data is None:
            return
        turn = data.pop("turn", None)
        if turn is not None:
            # Idle turns in a row tell the no-action rule when nobody can move any more.
            data["idle_turns"] = 0 if turn["acted"] or turn["bought"] else data.get("idle_turns", 0) + 1
            game.player(turn["seat"]).public["dice"] = []

    def legal_actions(self, game: Game, seat: int) -> Iterable[Action]:
        """One re-roll per multiset of faces kept (keeping every die is no re-roll)."""
        dice = unused_dice(game, seat)
        key = (seat, tuple(sorted(dice)))
        hit = _REROLLS.get(key)
        if hit is None:
            hit = _REROLLS[key] = _rerolls(seat, dice)
        return list(hit)

    def apply(self, game: Game, action: Action) -> None:
        assert isinstance(action, RerollDice)
        seat = action.player
        dice = unused_dice(game, seat)
        keep = face_counts(action.keep)
        have = face_counts(dice)
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
        game.emit(DiceRolled(player=seat, dice=list(dice), reroll=True))
        game.set_pending(DiceAction())
