"""Games: the only writer of game state (DESIGN.md, Data flows one way).

`GameService` is what the web layer calls; `GameStore` holds the one transaction.
"""

from app.games.errors import (
    BadRequest,
    GameError,
    GameNotFound,
    IllegalMove,
    NotAuthorised,
    NotFinished,
    NotYourMove,
    SeedNotAllowed,
    StaleVersion,
    Unreplayable,
)
from app.games.hub import Subscriber
from app.games.service import GameService
from app.games.store import Created, GameStore

__all__ = [
    "BadRequest",
    "Created",
    "GameError",
    "GameNotFound",
    "GameService",
    "GameStore",
    "IllegalMove",
    "NotAuthorised",
    "NotFinished",
    "NotYourMove",
    "SeedNotAllowed",
    "StaleVersion",
    "Subscriber",
    "Unreplayable",
]
