"""Dependencies: the game service, and the seat a Bearer token opens (authorisation is a
dependency, never pasted into routes)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from app.games import GameService, NotAuthorised
from app.settings import Settings

# Dependencies are coroutines: FastAPI runs a plain function dependency in a worker
# thread, a thread hop per request for a dictionary lookup.


async def get_service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


async def get_app_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


ServiceDep = Annotated[GameService, Depends(get_service)]
SettingsDep = Annotated[Settings, Depends(get_app_settings)]


def bearer_token(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotAuthorised("expected the header Authorization: Bearer <seat token>")
    return token.strip()


async def get_seat(
    game_id: str,
    request: Request,
    authorization: Annotated[
        str | None, Header(alias="Authorization", description="Bearer <seat token>")
    ] = None,
) -> str:
    """The seat whose token came with the request: 404 unknown game, 401 bad token. (The
    service is read from the request, not a dependency of its own: every level of
    dependencies is a walk of FastAPI's per request, and this one is on every seat's.)"""
    service: GameService = request.app.state.service
    return await service.authenticate(game_id, bearer_token(authorization))


SeatDep = Annotated[str, Depends(get_seat)]
