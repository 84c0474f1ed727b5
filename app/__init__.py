"""The application layer: `GameService` is the only way the Discord layer changes a game."""

from app.errors import GameBroken, GameNotFound, LobbyError, NotAPlayer, ServiceError, StaleAction
from app.models import Actor, GameSummary, Lobby, LogEntry, PlayerStats, Seat, SubmitResult, Timer
from app.service import GameService

__all__ = [
    "Actor",
    "GameBroken",
    "GameNotFound",
    "GameService",
    "GameSummary",
    "LobbyError",
    "Lobby",
    "LogEntry",
    "NotAPlayer",
    "PlayerStats",
    "Seat",
    "ServiceError",
    "StaleAction",
    "SubmitResult",
    "Timer",
]
