"""The games resource of the HTTP contract (DESIGN.md, HTTP API). Routes parse, call the
game service and shape the answer; every check lives in app/games."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, status

from app.api.answers import Event, Replay, SeatView
from app.api.contract import operation_id, refusals
from app.api.deps import SeatDep, ServiceDep
from app.api.schemas import (
    ActionAccepted,
    ActionPost,
    GameCreated,
    NewGame,
    SeatLink,
    Standing,
    StandingOrder,
    TakeBackPost,
)
from app.games import Created, GameService
from app.games.store import CreatedSeat

router = APIRouter(prefix="/api/games", tags=["games"], generate_unique_id_function=operation_id)


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


def created_body(created: Created, computer: frozenset[str] = frozenset()) -> GameCreated:
    """The new game's seat links, but for the seats the computer plays (issue 35)."""
    return GameCreated(
        id=created.id,
        seats=[seat_link(created.id, s) for s in created.seats if s.seat not in computer],
        replay_url=f"/api/games/{created.id}/replay",
    )


SEATED = (401, 404, 410)  # a seat's token opens the game, whose log the rules replay

# POST /api/games and POST /api/lobby (app.games.service refuses the seed for both).
SEED_REFUSED = {
    403: "a seed sent to a server not run with MIDWAY_ALLOW_SEED=1 (the seed is secret)"
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    responses=refusals(
        422,
        why=SEED_REFUSED,
    ),
)
async def create_game(body: NewGame, service: ServiceDep, request: Request) -> GameCreated:
    computer = body.computer.levels() if body.computer is not None else {}
    created = await service.create(
        body.scenario, body.options, body.mode, body.seed, body.teams, computer
    )
    if body.pace_days is not None:
        await request.app.state.between.set_pace(created.id, body.pace_days, body.vacation_days)
    return created_body(created, frozenset(computer))


@router.get("/{game_id}", response_model=None, responses=refusals(*SEATED, ok=SeatView))
async def get_view(game_id: str, seat: SeatDep, service: ServiceDep) -> dict[str, Any]:
    return await service.view(game_id, seat)


@router.post(
    "/{game_id}/actions",
    responses=refusals(
        *SEATED,
        why={
            403: "the seat has nothing to do now, or the game is over",
            409: "the seat's view is stale: `version` says its current one",
            422: "a malformed action, or one the rules forbid (`rule` names the rule)",
        },
    ),
)
async def post_action(
    game_id: str, body: ActionPost, seat: SeatDep, request: Request
) -> ActionAccepted:
    # the API's busiest route: the service read from the request, one level of
    # dependencies less for FastAPI to walk on each request
    service: GameService = request.app.state.service
    version = await service.act(game_id, seat, body.version, body.action)
    return ActionAccepted(version=version)


@router.post(
    "/{game_id}/takeback",
    responses=refusals(
        *SEATED,
        why={
            403: "the game is over: it was claimed on its pace",
            409: "the seat's view is stale: `version` says its current one",
            422: "nothing of the seat's can be taken back: a die was rolled (1f), another "
            "seat has seen it (1c) or has the move (3); or the body is malformed",
        },
    ),
)
async def post_takeback(
    game_id: str, body: TakeBackPost, seat: SeatDep, service: ServiceDep
) -> ActionAccepted:
    """Take back the seat's last action (issue 14): 409 stale version, 422 with the
    reason and the rule when nothing can be (a die rolled: 1f, seen by another: 1c, the
    move passed on: 3)."""
    version = await service.take_back(game_id, seat, body.version)
    return ActionAccepted(version=version)


def _standing(order: Any) -> Standing:
    return Standing(order=None if order is None else StandingOrder(**order.to_json()))


@router.get("/{game_id}/standing", responses=refusals(*SEATED))
async def get_standing(game_id: str, seat: SeatDep, service: ServiceDep) -> Standing:
    """The seat's standing "Done for this Turn" (issue 30), if it gave one."""
    return _standing(await service.standing_order(game_id, seat))


@router.post(
    "/{game_id}/standing",
    responses=refusals(
        *SEATED,
        why={
            403: "the seat has nothing to do now, or the game is over",
            422: "the seat has a decision to make now (the message says which): Done for "
            "this Turn stands only from a quiet step",
        },
    ),
)
async def post_standing(game_id: str, seat: SeatDep, service: ServiceDep) -> Standing:
    """Done for this Turn (issue 30): the server says the seat's Done now and in each
    quiet step until the Turn ends, each an ordinary action of the seat; the order stops
    where the seat has a decision it cannot skip (a battle, air units in the air, a task
    force that must enter), and ends when the seat takes an action back."""
    return _standing(await service.stand(game_id, seat))


@router.delete("/{game_id}/standing", responses=refusals(*SEATED))
async def delete_standing(game_id: str, seat: SeatDep, service: ServiceDep) -> Standing:
    """The seat's standing Done, if any, is cancelled."""
    await service.cancel_standing(game_id, seat)
    return Standing(order=None)


@router.get(
    "/{game_id}/log",
    response_model=None,
    responses=refusals(401, 404, ok=list[Event]),
)
async def get_log(game_id: str, seat: SeatDep, service: ServiceDep) -> list[dict[str, Any]]:
    return await service.log(game_id, seat)


@router.get(
    "/{game_id}/replay",
    response_model=Replay,
    responses=refusals(
        404, why={403: "the replay and its seed are revealed when the game is finished"}
    ),
)
async def get_replay(game_id: str, service: ServiceDep) -> dict[str, Any]:
    return await service.replay(game_id)
