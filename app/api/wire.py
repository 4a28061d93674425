"""The websocket protocol the server speaks: uvicorn's sans-I/O one, its messages
compressed (permessage-deflate, RFC 7692) at zlib level 1 rather than the default 6.

A page socket's message is re-rendered HTML (a few regions, often tens of kB): along
random Scenario One games, level 6 took 0.48 ms of CPU a message and made 3,902 bytes of
it, level 1 0.16 ms and 4,514 bytes. The server compresses every message it sends and
the browser only inflates, so the cheaper level is the better trade: a sixth more bytes
for a third of the CPU. Window and memory settings are uvicorn's own.

`midway serve` runs uvicorn with `ws=WIRE` (app.cli).
"""

from __future__ import annotations

import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.server import ServerProtocol

WIRE = "app.api.wire:QuickDeflate"  # uvicorn's `ws` setting: this module's protocol
LEVEL = 1
WINDOW_BITS = 12  # as uvicorn's
MEM_LEVEL = 5  # as uvicorn's


def deflate() -> ServerPerMessageDeflateFactory:
    return ServerPerMessageDeflateFactory(
        server_max_window_bits=WINDOW_BITS,
        client_max_window_bits=WINDOW_BITS,
        compress_settings={"memLevel": MEM_LEVEL, "level": LEVEL},
    )


class QuickDeflate(WebSocketsSansIOProtocol):
    """uvicorn's protocol with the connection's extensions made here (`deflate`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.config.ws_per_message_deflate:
            self.conn = ServerProtocol(
                extensions=[deflate()],
                max_size=self.config.ws_max_size,
                logger=logging.getLogger("uvicorn.error"),
            )
