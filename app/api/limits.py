"""Request bodies larger than the limit are refused with 413 and a JSON message, before
any route sees them (huge bodies are a 4xx with a message, never a 5xx)."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send


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
            await self.refuse(send, limit)
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
                await self.refuse(send, limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = {"type": "http.request", "body": b"".join(chunks), "more_body": False}
        await self.app(scope, _replay([body], receive), send)

    async def refuse(self, send: Send, limit: int) -> None:
        body = json.dumps({"detail": f"request body larger than {limit} bytes"}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _replay(messages: list[Message], then: Receive | None = None) -> Receive:
    async def receive() -> Message:
        if messages:
            return messages.pop(0)
        if then is not None:
            return await then()
        return {"type": "http.disconnect"}

    return receive
