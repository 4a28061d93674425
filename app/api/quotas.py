"""Quotas: how many games a client may create (or import) a minute, how many sockets it
may hold open, and how many requests a seat token may make a minute. Past one, the answer
is 429 with a message saying which and when to try again (`Retry-After`); a socket past
its quota is refused at the handshake with the same 429.

Every way to make a game counts against the same quota (CREATE): the API's and the home
page's creation, the lobby's opening (API and page) and a record's import.

A client is the address the connection comes from. Behind a proxy it is the address
uvicorn takes from X-Forwarded-For, and only when the connection comes from the proxy
itself (FORWARDED_ALLOW_IPS names it: docker-compose.yml gives nginx a fixed address, and
nginx sets the header to the address it was reached from rather than appending to what
the client sent, deploy/nginx). A token is
counted by its SHA-256, never kept in the clear. The counts live in this process: with
several processes behind one entry point each allows its quota. Every limit is a setting
(`MIDWAY_GAMES_PER_MINUTE`, `MIDWAY_SOCKETS_PER_CLIENT`, `MIDWAY_REQUESTS_PER_MINUTE`),
0 for none.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import defaultdict, deque
from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

from app.settings import Settings

WINDOW_SECONDS = 60.0
CREATE = frozenset(
    {
        ("POST", "/api/games"),
        ("POST", "/games"),
        ("POST", "/api/lobby"),
        ("POST", "/games/open"),
        ("POST", "/api/records"),
    }
)
MAX_KEYS = 100_000  # past this many clients or tokens, forget the idle ones

Clock = Callable[[], float]


class SlidingWindow:
    """At most `limit` events per key in any `seconds`-long window."""

    def __init__(self, limit: int, seconds: float, clock: Clock) -> None:
        self.limit = limit
        self.seconds = seconds
        self.clock = clock
        self.events: dict[str, deque[float]] = {}

    def take(self, key: str) -> float | None:
        """Count one event for `key`: None when within the limit, else the seconds until
        one more would be."""
        now = self.clock()
        times = self.events.get(key)
        if times is None:
            if len(self.events) >= MAX_KEYS:
                self._forget(now)
            times = self.events[key] = deque()
        while times and times[0] <= now - self.seconds:
            times.popleft()
        if len(times) >= self.limit:
            return times[0] + self.seconds - now
        times.append(now)
        return None

    def _forget(self, now: float) -> None:
        self.events = {k: t for k, t in self.events.items() if t and t[-1] > now - self.seconds}


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def bearer_key(scope: Scope) -> str | None:
    """The SHA-256 of the request's Bearer token, if it has one."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, token = value.partition(b" ")
            if scheme.lower() == b"bearer" and token.strip():
                return hashlib.sha256(token.strip()).hexdigest()
    return None


class Quotas:
    """Pure ASGI middleware over the whole app."""

    def __init__(self, app: ASGIApp, settings: Settings, clock: Clock = time.monotonic) -> None:
        self.app = app
        self.games_per_minute = settings.games_per_minute
        self.sockets_per_client = settings.sockets_per_client
        self.requests_per_minute = settings.requests_per_minute
        self.games = SlidingWindow(settings.games_per_minute, WINDOW_SECONDS, clock)
        self.requests = SlidingWindow(settings.requests_per_minute, WINDOW_SECONDS, clock)
        self.sockets: defaultdict[str, int] = defaultdict(int)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self._http_refusal(scope)
            if refusal is not None:
                await _refuse(send, "http", *refusal)
                return
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket" and self.sockets_per_client:
            client = client_of(scope)
            if self.sockets[client] >= self.sockets_per_client:
                message = (
                    f"too many open sockets from this client: at most "
                    f"{self.sockets_per_client}; close one first"
                )
                await _refuse_socket(scope, receive, send, message)
                return
            self.sockets[client] += 1
            try:
                await self.app(scope, receive, send)
            finally:
                self.sockets[client] -= 1
                if not self.sockets[client]:
                    del self.sockets[client]
        else:
            await self.app(scope, receive, send)

    def _http_refusal(self, scope: Scope) -> tuple[str, float] | None:
        if self.games_per_minute and (scope["method"], scope["path"]) in CREATE:
            wait = self.games.take(client_of(scope))
            if wait is not None:
                return (
                    f"too many games created: at most {self.games_per_minute} a minute "
                    f"from one client (created, opened in the lobby or imported); "
                    f"try again in {math.ceil(wait)} s",
                    wait,
                )
        if self.requests_per_minute:
            key = bearer_key(scope)
            if key is not None and (wait := self.requests.take(key)) is not None:
                return (
                    f"too many requests with this seat token: at most "
                    f"{self.requests_per_minute} a minute; try again in {math.ceil(wait)} s",
                    wait,
                )
        return None


async def _refuse_socket(scope: Scope, receive: Receive, send: Send, message: str) -> None:
    """A socket's handshake answered 429 (or, where the server cannot answer a handshake
    with a response of its own, closed with 4429 before it opens)."""
    connect = await receive()
    if connect["type"] != "websocket.connect":
        return
    if "websocket.http.response" in scope.get("extensions", {}):
        await _refuse(send, "websocket", message, 5.0)
    else:
        await send({"type": "websocket.close", "code": 4429, "reason": message[:120]})


async def _refuse(send: Send, kind: str, message: str, wait: float) -> None:
    """429 with `{"detail": message}` (over HTTP, or as a socket handshake's answer)."""
    body = json.dumps({"detail": message}).encode()
    prefix = "http" if kind == "http" else "websocket.http"
    await send(
        {
            "type": f"{prefix}.response.start",
            "status": 429,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(max(1, math.ceil(wait))).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": f"{prefix}.response.body", "body": body})
