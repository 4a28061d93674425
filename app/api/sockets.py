"""WS /api/games/{id}/ws: one seat's view, live (DESIGN.md, Realtime).

An explicit state machine:

    AUTHENTICATING --token ok--> LIVE --client leaves / server stops--> CLOSED
          |                        |
          +--bad token/game--> CLOSED (4401 / 4404)     protocol error --> CLOSED (4400)

The token comes as the query parameter `token` or in the first message
`{"token": "...", "version": N}`; `version` (query or first message) is the last version
the client holds, so a reconnecting client gets only the patches it missed (or a fresh
view when it is too far behind). Server messages:

    {"type": "view", "version": V, "view": {...}}          the whole view
    {"type": "patch", "version": V, "patch": [...]}        RFC 6902, from V-1 to V
    {"type": "heartbeat", "version": V}                     every heartbeat interval
    {"type": "pong"}                                        answer to {"type": "ping"}
    {"type": "error", "status": 4xx, "message": "..."}      then the socket closes

Client messages once live: `{"type": "ping"}` and `{"type": "pong"}`. The server closes
with 1012 when it shuts down (uvicorn sends it to every open socket).
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.inbound import BadFrame, receive_object
from app.games import GameError, GameService, Subscriber
from app.games.stages import STAGES
from app.settings import Settings

router = APIRouter()

AUTH_TIMEOUT_SECONDS = 10.0
MAX_MESSAGE_BYTES = 4096
CLOSE_PROTOCOL_ERROR = 4400


class Phase(enum.Enum):
    AUTHENTICATING = "authenticating"
    LIVE = "live"
    CLOSED = "closed"


NEXT: dict[Phase, frozenset[Phase]] = {
    Phase.AUTHENTICATING: frozenset({Phase.LIVE, Phase.CLOSED}),
    Phase.LIVE: frozenset({Phase.CLOSED}),
    Phase.CLOSED: frozenset(),
}


class ProtocolError(Exception):
    """The client sent something other than what the current phase expects."""


def parse_version(raw: object) -> int | None:
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise ProtocolError(f"expected an integer version, got {raw!r:.40}")
    try:
        version = int(raw)
    except ValueError as exc:
        raise ProtocolError(f"expected an integer version, got {raw!r:.40}") from exc
    return version if version >= 0 else None


class GameSocket:
    """One connection: authenticate, then follow the seat's view until either side ends."""

    def __init__(self, ws: WebSocket, game_id: str, service: GameService, settings: Settings):
        self.ws = ws
        self.game_id = game_id
        self.service = service
        self.heartbeat = settings.heartbeat_seconds
        self.phase = Phase.AUTHENTICATING
        self.sub: Subscriber | None = None

    async def run(self) -> None:
        await self.ws.accept()
        try:
            seat, version = await self.authenticate()
            self.sub = Subscriber(self.game_id, seat, self.send, version)
            self.enter(Phase.LIVE)
            await self.service.follow(self.sub)
            await self.live()
        except GameError as exc:
            await self.fail(exc.status, exc.message, 4000 + exc.status)
        except ProtocolError as exc:
            await self.fail(400, str(exc), CLOSE_PROTOCOL_ERROR)
        except WebSocketDisconnect:
            pass
        finally:
            self.enter(Phase.CLOSED)
            if self.sub is not None:
                self.service.unfollow(self.sub)

    def enter(self, phase: Phase) -> None:
        if phase not in NEXT[self.phase]:
            raise RuntimeError(f"socket cannot go from {self.phase.value} to {phase.value}")
        self.phase = phase

    async def authenticate(self) -> tuple[str, int | None]:
        params = self.ws.query_params
        token, version = params.get("token"), parse_version(params.get("version"))
        if token is None:
            first = await self.receive(timeout=AUTH_TIMEOUT_SECONDS)
            token = first.get("token")
            if not isinstance(token, str):
                raise ProtocolError('expected {"token": "<seat token>"} as the first message')
            version = parse_version(first.get("version"))
        seat = await self.service.authenticate(self.game_id, token)
        return seat, version

    async def live(self) -> None:
        beat = asyncio.create_task(self.beat())
        try:
            while True:
                message = await self.receive()
                kind = message.get("type")
                if kind == "ping":
                    assert self.sub is not None
                    async with self.sub.lock:
                        await self.send({"type": "pong"})
                elif kind != "pong":
                    raise ProtocolError(f'expected {{"type": "ping"}} or "pong", got {kind!r:.40}')
        finally:
            beat.cancel()
            with contextlib.suppress(BaseException):
                await beat

    async def beat(self) -> None:
        """Heartbeats; each also re-checks the seat's version against the database."""
        assert self.sub is not None
        while True:
            await asyncio.sleep(self.heartbeat)
            await self.service.recheck(self.sub)
            async with self.sub.lock:
                await self.ws.send_json({"type": "heartbeat", "version": self.sub.version})

    async def receive(self, timeout: float | None = None) -> dict[str, Any]:
        """The next client message, which must be a JSON object (app.api.inbound)."""
        try:
            return await asyncio.wait_for(receive_object(self.ws, MAX_MESSAGE_BYTES), timeout)
        except TimeoutError as exc:
            raise ProtocolError("expected the first message within 10 seconds") from exc
        except BadFrame as exc:
            raise ProtocolError(str(exc)) from exc

    async def send(self, message: dict[str, Any]) -> None:
        t = STAGES.clock()
        await self.ws.send_json(message)
        STAGES.lap("send", t)

    async def fail(self, status: int, message: str, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.send_json({"type": "error", "status": status, "message": message})
            await self.ws.close(code=code, reason=message.encode()[:120].decode(errors="ignore"))


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    await GameSocket(ws, game_id, ws.app.state.service, ws.app.state.settings).run()
