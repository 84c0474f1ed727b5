"""Claiming routes, tunnels and the end of the game: the claimed trains themselves are drawn
by the board (they are the game's core state); these parts add the key's symbols."""

from __future__ import annotations

from engine.maps import GameMap
from render.parts.base import KeyEntry, PicturePart, register

# Whether a map has ferries / tunnels, by the map (asked for every board's key; a map's
# routes do not change once loaded): id -> (the map, ferries, tunnels).
_KINDS: dict[int, tuple[GameMap, bool, bool]] = {}


def _kinds(game_map: GameMap) -> tuple[bool, bool]:
    got = _KINDS.get(id(game_map))
    if got is None or got[0] is not game_map:
        if len(_KINDS) >= 64:
            _KINDS.clear()
        got = _KINDS[id(game_map)] = (game_map, any(r.is_ferry for r in game_map.routes.values()),
                                      any(r.tunnel for r in game_map.routes.values()))
    return got[1], got[2]


class _Ferries(PicturePart):
    def key(self, game_map: GameMap) -> list[KeyEntry]:
        if _kinds(game_map)[0]:
            return [KeyEntry("ferry", "ferry")]
        return []


class _Tunnels(PicturePart):
    def key(self, game_map: GameMap) -> list[KeyEntry]:
        if _kinds(game_map)[1]:
            return [KeyEntry("tunnel", "tunnel")]
        return []


@register("claim_route")
class ClaimRoute(_Ferries):
    """Claiming with cards: ferries need locomotives, so the key explains the ferry mark."""


@register("dice_claims")
class DiceClaims(_Ferries):
    """Claiming with dice: a ferry's locomotive spaces need wild faces (the same mark)."""


@register("tunnels")
class Tunnels(_Tunnels):
    """Tunnels: drawn with a heavy dark frame; the key says so."""


@register("dice_tunnels")
class DiceTunnels(_Tunnels):
    """Tunnels under dice (tunnel dice instead of cards): the same frame on the map."""


@register("controller")
class Controller(PicturePart):
    """USSR's Controller card removes a claim: the board simply shows the route open again."""


@register("end_trigger")
class EndTrigger(PicturePart):
    """The end of the game (the last round, or calling time): the legend's status line says it
    from the view's final round count."""


@register("dice_no_action")
class DiceNoAction(PicturePart):
    """Passing under dice: nothing to draw."""


@register("dice_tickets")
class DiceTickets(PicturePart):
    """Drawing tickets with station faces: the tickets part shows the tickets."""


@register("dice_stations")
class DiceStations(PicturePart):
    """Building stations with station faces: the stations part shows the stations."""


@register("dice_tokens")
class DiceTokens(PicturePart):
    """Buying route tokens: the dice part shows each player's tokens."""


@register("dice_token_discard")
class DiceTokenDiscard(PicturePart):
    """Discarding route tokens: the dice part shows the tokens each player has left."""
