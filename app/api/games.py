"""The games resource of the HTTP contract (DESIGN.md, HTTP API). Routes parse, call the
game service and shape the answer; every check lives in app/games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, status

from app.api.deps import SeatDep, ServiceDep
from app.api.schemas import ActionAccepted, ActionPost, GameCreated, NewGame, SeatLink
from app.games import Created
from app.games.store import CreatedSeat

router = APIRouter(prefix="/api/games", tags=["games"])


def seat_url(game_id: str, seat: str, token: str) -> str:
    """The seat's page; the token rides in the fragment, which browsers never send."""
    return f"/games/{game_id}/seat/{seat}#token={token}"


def seat_link(game_id: str, seat: CreatedSeat) -> SeatLink:
    return SeatLink(
        seat=seat.seat,
        side=seat.about.get("side"),
        command=seat.about.get("command"),
        label=str(seat.about.get("label") or ""),
        token=seat.token,
        url=seat_url(game_id, seat.seat, seat.token),
    )


def created_body(created: Created) -> GameCreated:
    return GameCreated(
        id=created.id,
        seats=[seat_link(created.id, s) for s in created.seats],
        replay_url=f"/api/games/{created.id}/replay",
    )


@router.post("", status_code=status.HTTP_201_CREATED)
async def create_game(body: NewGame, service: ServiceDep, request: Request) -> GameCreated:
    created = await service.create(body.scenario, body.options, body.mode, body.seed, body.teams)
    if body.pace_days is not None:
        await request.app.state.between.set_pace(created.id, body.pace_days, body.vacation_days)
    return created_body(created)


@router.get("/{game_id}")
async def get_view(game_id: str, seat: SeatDep, service: ServiceDep) -> dict[str, Any]:
    return await service.view(game_id, seat)


@router.post("/{game_id}/actions")
async def post_action(
    game_id: str, body: ActionPost, seat: SeatDep, service: ServiceDep
) -> ActionAccepted:
    version = await service.act(game_id, seat, body.version, body.action)
    return ActionAccepted(version=version)


@router.get("/{game_id}/log")
async def get_log(game_id: str, seat: SeatDep, service: ServiceDep) -> list[dict[str, Any]]:
    return await service.log(game_id, seat)


@router.get("/{game_id}/replay")
async def get_replay(game_id: str, service: ServiceDep) -> dict[str, Any]:
    return await service.replay(game_id)
