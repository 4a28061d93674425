"""Why the server refuses a request. Each maps to one status code of the HTTP contract
(DESIGN.md, HTTP API); the API layer does the mapping in one place."""

from __future__ import annotations


class GameError(Exception):
    """A refusal with a message for the client."""

    status = 400

    def __init__(self, message: str, **extra: object) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra


class BadRequest(GameError):
    """The request is well-formed JSON but asks for something that does not exist."""

    status = 422


class NotAuthorised(GameError):
    """No seat token, or not a token of this game."""

    status = 401


class NotYourMove(GameError):
    """The seat has no legal action now."""

    status = 403


class GameNotFound(GameError):
    status = 404


class StaleVersion(GameError):
    """The seat acted on a view it no longer has."""

    status = 409


class IllegalMove(GameError):
    """The rules forbid the action (`extra["rule"]` names the rule)."""

    status = 422


class NotFinished(GameError):
    """The replay (and its seed) opens only when the game is finished."""

    status = 403


class SeedNotAllowed(GameError):
    """A seed was sent to a server not run with MIDWAY_ALLOW_SEED=1 (the seed is secret)."""

    status = 403


class Unreplayable(GameError):
    """The game's log cannot be replayed by the rules this server runs (an action of it
    is refused now): the game cannot be loaded, and nothing is changed."""

    status = 410
