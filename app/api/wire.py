"""The websocket protocol the server speaks: uvicorn's sans-I/O one, its messages
compressed (permessage-deflate, RFC 7692) at zlib level 1 rather than the default 6.

A page socket's message is re-rendered HTML (a few regions, often tens of kB): along
random Scenario One games, level 6 took 0.48 ms of CPU a message and made 3,902 bytes of
it, level 1 0.16 ms and 4,514 bytes. The server compresses every message it sends and
the browser only inflates, so the cheaper level is the better trade: a sixth more bytes
for a third of the CPU. The window is uvicorn's; the compressor's memory level one less
than uvicorn's 5: each socket holds its compressor for its whole life, and at level 1 a
memory level of 4 compresses the page messages as fast and as small (0.178 ms and 4,255
bytes a message against 0.171 ms and 4,256; level 3 took 0.279 ms) with about 5 kB less
a socket, 10 MB for a thousand live games' two thousand sockets.

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
MEM_LEVEL = 4


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
