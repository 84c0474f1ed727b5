"""Errors the service raises. Like the engine's IllegalAction, each has `message` (one plain
sentence a player may read) and `code` (a short stable word for programs)."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the service cannot carry out; nothing was changed."""

    code = "error"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        return self.message


class GameNotFound(ServiceError):
    code = "not_found"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"There is no game #{game_id}.")
        self.game_id = game_id


class StaleAction(ServiceError):
    """The request was made against an older point of the game (a double click, an old
    button): that already happened, and nothing was applied."""

    code = "stale"

    def __init__(self, game_id: int, current_seq: int | None,
                 message: str = "That already happened: the game has moved on since you saw it.") -> None:
        super().__init__(message)
        self.game_id = game_id
        self.current_seq = current_seq


class NotAPlayer(ServiceError):
    code = "not_a_player"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"You are not playing in game #{game_id}.")
        self.game_id = game_id


class LobbyError(ServiceError):
    """A lobby request that does not fit the table (full, not the host, not open …)."""

    code = "lobby"


class GameBroken(ServiceError):
    """The game's stored data cannot be read. The game is marked broken; others are fine."""

    code = "broken"

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(
            f"Game #{game_id} cannot be loaded and has been set aside: {reason} "
            "Other games are not affected; an administrator can restore it from a backup."
        )
        self.game_id = game_id
        self.reason = reason


class OtherServer(ServiceError):
    """The game exists but cannot be reached from where the request came from: it belongs to
    another server, or a direct message named a game the caller does not play in. The words
    do not say which, so nobody learns about other servers' games."""

    code = "other_server"

    def __init__(self, game_id: int) -> None:
        super().__init__(f"There is no game #{game_id} here.")
        self.game_id = game_id


class LimitReached(ServiceError):
    """A cap on open tables or running games (see app.limits)."""

    code = "limit"
