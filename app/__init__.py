"""The application layer: `GameService` is the only way the Discord layer changes a game."""

from app.errors import (
    GameBroken,
    GameNotFound,
    LimitReached,
    LobbyError,
    NotAPlayer,
    OtherServer,
    ServiceError,
    StaleAction,
)
from app.limits import Limits
from app.models import (
    Actor,
    Caller,
    Delivery,
    GameSummary,
    HandData,
    Lobby,
    LogEntry,
    Panel,
    PlayerSettings,
    PlayerStats,
    PostData,
    Seat,
    SubmitResult,
    Timer,
)
from app.service import GameService

__all__ = [
    "PostData",
    "Panel",
    "HandData",
    "Delivery",
    "Caller",
    "Actor",
    "GameBroken",
    "GameNotFound",
    "GameService",
    "GameSummary",
    "LimitReached",
    "Limits",
    "LobbyError",
    "Lobby",
    "LogEntry",
    "NotAPlayer",
    "OtherServer",
    "PlayerSettings",
    "PlayerStats",
    "Seat",
    "ServiceError",
    "StaleAction",
    "SubmitResult",
    "Timer",
]
