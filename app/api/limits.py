"""Request bodies, read with limits before any route sees them (huge or slow bodies are a
4xx with a message, never a 5xx):

- larger than the limit: 413 (a larger limit for the paths given, game records);
- JSON nested deeper than the server reads: 400 (app.api.inbound);
- not all there within `body_seconds` of the request's headers: 408 (a client that
  dribbles its body, or stops halfway, holds a connection and its buffer no longer);
- more bytes than `max_buffered` held by all the bodies being read and handled at once:
  503 with Retry-After (20 unfinished 15 MB bodies held 294 MB; now what every body in
  flight holds together is bounded, each reserving its declared length up front);
- a client that goes away before its body is all there: no route runs, and the access
  log says the client disconnected (status 499) rather than a traceback and a 500.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.inbound import MAX_DEPTH, nesting_depth

DISCONNECTED = "midway.disconnected"  # set in the scope when the client left mid-body
RETRY_SECONDS = 5


@dataclass
class Buffered:
    """The bytes of request bodies held at once, against a limit (0: none)."""

    limit: int
    held: int = 0

    def take(self, size: int) -> bool:
        if self.limit and self.held + size > self.limit:
            return False
        self.held += size
        return True

    def give_back(self, size: int) -> None:
        self.held -= size


class Refused(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class Gone(Exception):
    """The client disconnected before its body was all there."""


class BodyLimit:
    """Pure ASGI middleware: buffer the body up to `limit` bytes, then hand it on."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int,
        paths: dict[str, int] | None = None,
        seconds: float = 0,
        max_buffered: int = 0,
    ) -> None:
        self.app = app
        self.limit = limit
        self.paths = paths or {}  # a larger limit for these exact paths (game records)
        self.seconds = seconds
        self.buffered = Buffered(max_buffered)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.limit)
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > limit:
            await self.refuse(send, 413, f"request body larger than {limit} bytes")
            return
        held = int(declared)
        if not self.buffered.take(held):
            await self.refuse(send, 503, "the server is reading too many request bodies")
            return
        try:
            try:
                data, held = await self.read(receive, limit, held)
            except Refused as exc:
                await self.refuse(send, exc.status, exc.detail)
                return
            except Gone:
                scope[DISCONNECTED] = True
                return
            if _is_json(scope) and nesting_depth(data, MAX_DEPTH) > MAX_DEPTH:
                await self.refuse(send, 400, f"JSON body nested deeper than {MAX_DEPTH} levels")
                return
            body = {"type": "http.request", "body": data, "more_body": False}
            await self.app(scope, _replay([body], receive), send)
        finally:
            self.buffered.give_back(held)

    async def read(self, receive: Receive, limit: int, held: int) -> tuple[bytes, int]:
        """The whole body, and the bytes now reserved for it (more than declared when it
        came without a length)."""
        deadline = time.monotonic() + self.seconds if self.seconds else None
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                message = await asyncio.wait_for(receive(), left)
            except TimeoutError:
                raise Refused(408, f"request body not received within {self.seconds:g} s") from None
            if message["type"] == "http.disconnect":
                raise Gone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                raise Refused(413, f"request body larger than {limit} bytes")
            if size > held:
                if not self.buffered.take(size - held):
                    raise Refused(503, "the server is reading too many request bodies")
                held = size
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks), held

    async def refuse(self, send: Send, status: int, detail: str) -> None:
        body = json.dumps({"detail": detail}).encode()
        headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        if status == 503:
            headers.append((b"retry-after", str(RETRY_SECONDS).encode()))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _is_json(scope: Scope) -> bool:
    """A body FastAPI would read as JSON (no content type is read as JSON too)."""
    headers: dict[bytes, bytes] = dict(scope["headers"])
    media = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
    return media in (b"", b"application/json") or media.endswith(b"+json")


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    async def receive() -> Message:
        if messages:
            return messages.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive
