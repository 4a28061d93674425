"""Between moves (issue 14): my games' glance, the page's pulse, chat, the lobby and game
records. Routes parse, call app.games.between, shape the answer."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response, status
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from app.api.answers import (
    ChatMessage,
    Claimed,
    GameRecord,
    Glance,
    LobbyGame,
    NoticeSettings,
    PulseAnswer,
    RecordImported,
)
from app.api.contract import operation_id, refusals
from app.api.deps import SeatDep
from app.api.games import SEATED, SEED_REFUSED, seat_link, seat_url
from app.api.inbound import BadJson, parse_json
from app.api.schemas import GameId, Mode, Name, OptionName, ScenarioId, SeatLink, Whole
from app.games.between import Between
from app.games.errors import BadRequest
from app.games.notices import EMAIL, MAX_REMIND_HOURS, WEBHOOK
from app.games.presence import PLACE
from app.games.seeds import MAX_SEED
from app.settings import Settings

router = APIRouter(tags=["between moves"], generate_unique_id_function=operation_id)
# Only on a server run with MIDWAY_TEST_CLOCK=1: the tests say what time it is.
clock_router = APIRouter(tags=["tests"], generate_unique_id_function=operation_id)


async def get_between(request: Request) -> Between:
    between: Between = request.app.state.between
    return between


BetweenDep = Annotated[Between, Depends(get_between)]


class Pulse(BaseModel):
    """POST /api/games/{id}/pulse: the page's place (a random name per tab) and the last
    chat message it has."""

    model_config = ConfigDict(extra="forbid")

    place: StrictStr = Field(
        min_length=8, max_length=32, json_schema_extra={"pattern": f"^{PLACE.pattern}$"}
    )
    since: Whole = Field(default=0, ge=0, lt=2**31)


class ChatPost(BaseModel):
    model_config = ConfigDict(extra="forbid")

    audience: StrictStr = Field(default="all", max_length=48)
    text: StrictStr = Field(max_length=20_000)  # longer than a message may be: 413 below


class OpenGame(BaseModel):
    """POST /api/lobby: a game opened to anyone; `keep` is the seat its creator keeps."""

    model_config = ConfigDict(extra="forbid")

    scenario: ScenarioId
    options: list[OptionName] = Field(default_factory=list, max_length=64)
    mode: Mode = "two-player"
    teams: StrictBool = False  # 17a
    keep: Name | None = None
    seed: Whole | None = Field(default=None, ge=0, lt=MAX_SEED)
    pace_days: Whole | None = Field(default=None, ge=1, le=60)
    vacation_days: Whole = Field(default=0, ge=0, le=60)


class OpenedGame(BaseModel):
    id: GameId
    seats: list[SeatLink]  # the kept seat's link, if any
    seats_free: list[str]


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: Name | None = None


@router.get("/api/games/{game_id}/glance", response_model=Glance, responses=refusals(*SEATED))
async def get_glance(game_id: str, seat: SeatDep, between: BetweenDep) -> dict[str, Any]:
    return await between.glance(game_id, seat)


@router.post(
    "/api/games/{game_id}/pulse",
    response_model=PulseAnswer,
    responses=refusals(*SEATED, 422),
)
async def post_pulse(
    game_id: str, body: Pulse, seat: SeatDep, between: BetweenDep
) -> dict[str, Any]:
    return await between.pulse(game_id, seat, body.place, body.since)


@router.get(
    "/api/games/{game_id}/chat",
    response_model=list[ChatMessage],
    responses=refusals(401, 404, 422),
)
async def get_chat(
    game_id: str,
    seat: SeatDep,
    between: BetweenDep,
    since: Annotated[int, Query(ge=0, lt=2**31, description="the last message seen")] = 0,
) -> list[dict[str, Any]]:
    return await between.messages(game_id, seat, since)


@router.post(
    "/api/games/{game_id}/chat",
    status_code=status.HTTP_201_CREATED,
    response_model=ChatMessage,
    responses=refusals(
        401,
        404,
        422,
        why={
            413: "a message longer than a message may be",
            429: "too many messages from this seat in a short time, or in this game",
        },
    ),
)
async def post_chat(
    game_id: str, body: ChatPost, seat: SeatDep, between: BetweenDep
) -> dict[str, Any]:
    return await between.say(game_id, seat, body.audience, body.text)


@router.get(
    "/api/games/{game_id}/record",
    response_model=None,
    responses=refusals(
        404,
        why={403: "a record is made when the game is finished"},
        ok=GameRecord,
        headers={
            "Content-Disposition": {
                "description": "a file to keep: attachment; filename=midway-<id>.json",
                "schema": {"type": "string"},
            }
        },
    ),
)
async def get_record(game_id: str, between: BetweenDep) -> Response:
    """A finished game's record, as a file to keep (anyone with the game's id)."""
    record = await between.export(game_id)
    return Response(
        json.dumps(record),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="midway-{game_id}.json"'},
    )


@router.post(
    "/api/records",
    status_code=status.HTTP_201_CREATED,
    response_model=RecordImported,
    responses=refusals(422, why={422: "not a record this server's rules replay; it says why"}),
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/GameRecord"}}
            },
        }
    },
)
async def import_record(request: Request, between: BetweenDep) -> dict[str, Any]:
    """Import a record as a finished game on this server, checked by replaying it."""
    settings: Settings = request.app.state.settings
    try:  # whatever its content type says: read with the guarded parser (app.api.inbound)
        record = parse_json(await request.body(), settings.max_record_bytes)
    except BadJson as exc:
        raise BadRequest(f"a record is a JSON document: {exc}") from exc
    if not isinstance(record, dict):
        raise BadRequest("a record is a JSON object")
    game_id = await between.import_(record)
    return {
        "id": game_id,
        "replay_url": f"/games/{game_id}/replay",
        "record_url": f"/api/games/{game_id}/record",
    }


@router.get("/api/lobby", response_model=list[LobbyGame])
async def get_lobby(between: BetweenDep) -> list[dict[str, Any]]:
    return await between.listing()


@router.post(
    "/api/lobby",
    status_code=status.HTTP_201_CREATED,
    responses=refusals(422, why=SEED_REFUSED),
)
async def open_game(body: OpenGame, between: BetweenDep) -> OpenedGame:
    created, free = await between.open_game(
        body.scenario,
        body.options,
        body.mode,
        body.keep,
        body.seed,
        (body.pace_days, body.vacation_days),
        body.teams,
    )
    kept = [seat_link(created.id, s) for s in created.seats if s.seat not in free]
    return OpenedGame(id=created.id, seats=kept, seats_free=list(free))


@router.post(
    "/api/lobby/{game_id}/join",
    responses=refusals(
        422,
        why={
            404: "no open game with this id in the lobby",
            409: "the seat asked for is not free, or none is",
        },
    ),
)
async def join_game(game_id: str, body: Join, between: BetweenDep) -> SeatLink:
    """Take a free seat: its link, handed out this once."""
    seat, token = await between.join(game_id, body.seat)
    return SeatLink(seat=seat, token=token, url=seat_url(game_id, seat, token))


class OptIn(BaseModel):
    """PUT /api/games/{id}/notices: how this seat is told it is its move (null: not)."""

    model_config = ConfigDict(extra="forbid")

    # The patterns and bounds are app.games.notices's, which refuses the rest in words.
    email: StrictStr | None = Field(
        default=None, max_length=254, json_schema_extra={"pattern": f"^{EMAIL.pattern}$"}
    )
    webhook: StrictStr | None = Field(
        default=None, max_length=2000, json_schema_extra={"pattern": f"^{WEBHOOK.pattern}$"}
    )
    remind_hours: Whole | None = Field(
        default=None, json_schema_extra={"minimum": 1, "maximum": MAX_REMIND_HOURS}
    )


@router.put(
    "/api/games/{game_id}/notices",
    response_model=NoticeSettings,
    responses=refusals(401, 404, 422),
)
async def put_notices(
    game_id: str, body: OptIn, seat: SeatDep, between: BetweenDep
) -> dict[str, Any]:
    return await between.opt_in(game_id, seat, body.email, body.webhook, body.remind_hours)


@router.post(
    "/api/games/{game_id}/claim",
    response_model=Claimed,
    responses=refusals(*SEATED, why={409: "the game has no pace, or no opponent is overdue"}),
)
async def post_claim(game_id: str, seat: SeatDep, between: BetweenDep) -> dict[str, Any]:
    """Claim the game: the pace's opponent is overdue (409 says why not)."""
    await between.claim(game_id, seat)
    return {"claimed_by": seat}


class Tick(BaseModel):
    model_config = ConfigDict(extra="forbid")

    at: datetime


@clock_router.post("/api/_clock/tick")
async def post_tick(body: Tick, between: BetweenDep) -> dict[str, Any]:
    """Look at every seat's clock as if it were `at` (tests only)."""
    at = body.at if body.at.tzinfo else body.at.replace(tzinfo=UTC)
    sent = await between.tick(at)
    return {"sent": [{"how": how, "kind": n.kind, "seat": n.seat} for how, n in sent]}
