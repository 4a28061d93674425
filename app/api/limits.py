"""Request bodies larger than the limit are refused with 413 and a JSON message, before
any route sees them (huge bodies are a 4xx with a message, never a 5xx); so are JSON
bodies nested deeper than the server reads (400, app.api.inbound)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.api.inbound import MAX_DEPTH, nesting_depth


class BodyLimit:
    """Pure ASGI middleware: buffer the body up to `limit` bytes, then hand it on."""

    def __init__(self, app: ASGIApp, limit: int, paths: dict[str, int] | None = None) -> None:
        self.app = app
        self.limit = limit
        self.paths = paths or {}  # a larger limit for these exact paths (game records)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.paths.get(scope.get("path", ""), self.limit)
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > limit:
            await self.refuse(send, 413, f"request body larger than {limit} bytes")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message]), send)
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self.refuse(send, 413, f"request body larger than {limit} bytes")
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        data = b"".join(chunks)
        if _is_json(scope) and nesting_depth(data, MAX_DEPTH) > MAX_DEPTH:
            await self.refuse(send, 400, f"JSON body nested deeper than {MAX_DEPTH} levels")
            return
        body = {"type": "http.request", "body": data, "more_body": False}
        await self.app(scope, _replay([body], receive), send)

    async def refuse(self, send: Send, status: int, detail: str) -> None:
        body = json.dumps({"detail": detail}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
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
