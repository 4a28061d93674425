"""One JSON log line per request (`midway.access`), and the request figures of /metrics.

A line names the method, the path without its query string (a websocket's token may ride
there), the route, the game id when the path has one, the status and the time taken; a
websocket's line is written when it ends, with the close code. Headers are never read
(`Authorization` carries tokens), nor bodies.

    {"ts": ..., "level": "info", "logger": "midway.access",
     "message": "POST /api/games/G/actions 200", "kind": "http", "method": "POST",
     "path": "/api/games/G/actions", "route": "/api/games/{game_id}/actions",
     "game": "G", "status": 200, "ms": 4.2, "client": "10.0.0.7"}

A client that went away before its request's body was all there is status 499 (as
nginx logs it): no answer was sent, and nothing failed.
"""

from __future__ import annotations

import contextlib
import gzip
import logging
import re
import time
import zlib
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.limits import DISCONNECTED
from app.api.metrics import Metrics

log = logging.getLogger("midway.access")

GAME_IN_PATH = re.compile(r"^/(?:api/)?games/([0-9a-f]{16})(?:/|$)")
GAME_IN_BODY = re.compile(rb"/games/([0-9a-f]{16})/")
CREATE_PATHS = frozenset({"/api/games", "/games"})
UNMATCHED = "(unmatched)"  # a path no route knows: never a label per path
CLIENT_GONE = 499  # nginx's status for a client that left before its answer (no answer)


def game_of(scope: Scope) -> str | None:
    params = scope.get("path_params") or {}
    game = params.get("game_id")
    if isinstance(game, str) and GAME_IN_PATH.match(f"/games/{game}"):
        return game
    found = GAME_IN_PATH.match(scope.get("path", ""))
    return found.group(1) if found else None


def created_game(body: bytes, gzipped: bool) -> str | None:
    """The id of the game a creation's answer links to (the JSON, or the Location of the
    form's redirect to its created page; never logged itself: it carries the tokens)."""
    with contextlib.suppress(OSError, EOFError, zlib.error):
        body = gzip.decompress(body) if gzipped else body
        found = GAME_IN_BODY.search(body)
        return found.group(1).decode() if found else None
    return None


def route_of(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else UNMATCHED


class AccessLog:
    """Pure ASGI middleware around the whole app."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = time.perf_counter()
        status = 500  # what the client gets if the app fails before answering
        answer: list[bytes] = []  # a creation's answer, for the new game's id
        gzipped = False
        creating = scope["method"] == "POST" and scope.get("path") in CREATE_PATHS

        async def sending(message: Message) -> None:
            nonlocal status, gzipped
            if message["type"] == "http.response.start":
                status = int(message["status"])
                headers = message.get("headers", [])
                gzipped = (b"content-encoding", b"gzip") in headers
                if creating and status == 303:  # the form's redirect to the created page
                    answer.extend(v for k, v in headers if k.lower() == b"location")
            elif creating and status == 201:
                answer.append(message.get("body", b""))
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            seconds = time.perf_counter() - start
            if scope.get(DISCONNECTED):
                status = CLIENT_GONE  # left before its body was all there: no answer sent
            route = route_of(scope)
            self.metrics.observe(scope["method"], route, status, seconds)
            game = created_game(b"".join(answer), gzipped and status == 201) if answer else None
            self._line(scope, "http", route, status, seconds, method=scope["method"], game=game)

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = time.perf_counter()
        status, close = 403, None  # a socket closed before its accept is refused (403)
        counted: str | None = None

        async def receiving() -> Message:
            nonlocal close
            message = await receive()
            if message["type"] == "websocket.disconnect" and close is None:
                close = int(message.get("code", 1000))
            return message

        async def sending(message: Message) -> None:
            nonlocal status, close, counted
            if message["type"] == "websocket.accept":
                status = 101
                counted = route_of(scope)
                self.metrics.live_sockets.labels(counted).inc()
            elif message["type"] == "websocket.close" and close is None:
                close = int(message.get("code", 1000))
            await send(message)

        try:
            await self.app(scope, receiving, sending)
        finally:
            if counted is not None:
                self.metrics.live_sockets.labels(counted).dec()
            seconds = time.perf_counter() - start
            route = route_of(scope)
            self.metrics.observe("WEBSOCKET", route, status, None)
            self._line(scope, "websocket", route, status, seconds, method="WEBSOCKET", close=close)

    def _line(
        self, scope: Scope, kind: str, route: str, status: int, seconds: float, **more: Any
    ) -> None:
        path = scope.get("path", "")  # never the query string
        client = scope.get("client")
        fields: dict[str, Any] = {
            "kind": kind,
            "method": more.pop("method"),
            "path": path,
            "route": route,
            "game": more.pop("game", None) or game_of(scope),
            "status": status,
            "ms": round(seconds * 1000, 2),
            "client": client[0] if client else None,
            **more,
        }
        log.info("%s %s %s", fields["method"], path, status, extra=fields)
