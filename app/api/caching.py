"""`Cache-Control: no-store` on every answer of the JSON API: views, tokens, logs and the
refusals about them are one seat's at one moment, and no cache between the server and
the client (a proxy's, the browser's disk) may keep them. The pages set it themselves
(app.web.responses.html); the static files, which may be kept forever, are not under
/api."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

PREFIX = "/api/"
NO_STORE = (b"cache-control", b"no-store")


class NoStore:
    """Pure ASGI middleware: add the header to HTTP answers under /api/ that set none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith(PREFIX):
            await self.app(scope, receive, send)
            return

        async def send_no_store(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                if not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append(NO_STORE)
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_no_store)
