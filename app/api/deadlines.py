"""How long a client may take over a request's line and headers (issue 31, item 7).

uvicorn bounds the quiet between two requests of a connection (`timeout_keep_alive`), but
not a connection that says nothing at all, nor one that sends its headers a byte at a
time: every byte cancels the keep-alive timer, and such a connection is held for as long
as its client likes (300 of them were held for a whole test). Here each connection's
request line and headers must be complete within `MIDWAY_HEADER_SECONDS` of its opening
(or of the first byte of its next request); past that the connection is closed, with a
log line that says so. A socket's handshake is a request like another until its headers
are in. Bodies are bounded by the body limit (app.api.limits).

`midway serve` runs uvicorn with `http=PROTOCOL` (app.cli).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.settings import get_settings

PROTOCOL = "app.api.deadlines:HeaderDeadline"  # uvicorn's `http` setting
log = logging.getLogger("midway.access")


class HeaderDeadline(HttpToolsProtocol):
    """uvicorn's HTTP protocol, with a deadline on each request's line and headers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_seconds = get_settings().header_seconds
        self.header_timer: asyncio.TimerHandle | None = None

    def arm(self) -> None:
        self.disarm()
        if self.header_seconds > 0:
            self.header_timer = self.loop.call_later(self.header_seconds, self.too_slow)

    def disarm(self) -> None:
        if self.header_timer is not None:
            self.header_timer.cancel()
            self.header_timer = None

    def too_slow(self) -> None:
        self.header_timer = None
        if not self.transport.is_closing():
            client = self.client[0] if self.client else None
            log.info(
                "closed a connection whose request headers took more than %s s",
                self.header_seconds,
                extra={"kind": "http", "status": 408, "client": client, "slow": "headers"},
            )
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.header_timer is None:  # the next request of a kept-alive connection
            self.arm()

    def on_headers_complete(self) -> None:
        self.disarm()
        super().on_headers_complete()

    def handle_websocket_upgrade(self) -> None:
        self.disarm()
        super().handle_websocket_upgrade()
