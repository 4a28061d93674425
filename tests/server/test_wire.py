"""Issue 17: the server's websocket messages are deflated (RFC 7692, permessage-deflate)
at zlib level 1 (app/api/wire.py): a live server's first message on a socket is, byte for
byte, its text compressed at that level from a fresh context, and not at the default 6."""

from __future__ import annotations

import asyncio
import zlib
from collections.abc import Sequence
from typing import Any

from websockets.asyncio.client import connect
from websockets.extensions.base import Extension
from websockets.extensions.permessage_deflate import (
    ClientPerMessageDeflateFactory,
    PerMessageDeflate,
)
from websockets.frames import Frame
from websockets.typing import ExtensionParameter

from app.api import wire
from server.client import Api
from server.conftest import Server

SYNC_TAIL = b"\x00\x00\xff\xff"  # a sync flush's end, left off the wire (RFC 7692 7.2.1)


class Recording(ClientPerMessageDeflateFactory):
    """The client's side of the extension, keeping each compressed frame as received."""

    def __init__(self) -> None:
        super().__init__(client_max_window_bits=True)
        self.frames: list[bytes] = []

    def process_response_params(
        self, params: Sequence[ExtensionParameter], accepted_extensions: Sequence[Extension]
    ) -> PerMessageDeflate:
        extension = super().process_response_params(params, accepted_extensions)
        decode = extension.decode

        def recorded(frame: Frame, *, max_size: int | None = None) -> Frame:
            if frame.rsv1:
                self.frames.append(bytes(frame.data))
            return decode(frame, max_size=max_size)

        extension.decode = recorded  # type: ignore[method-assign]
        return extension


def deflated(text: str, level: int) -> bytes:
    """`text` as the server's first message on a socket would carry it at `level`."""
    encoder = zlib.compressobj(level, zlib.DEFLATED, -wire.WINDOW_BITS, wire.MEM_LEVEL)
    data = encoder.compress(text.encode()) + encoder.flush(zlib.Z_SYNC_FLUSH)
    assert data.endswith(SYNC_TAIL)
    return data[: -len(SYNC_TAIL)]


def test_socket_messages_are_deflated_at_level_one(server: Server) -> None:
    with Api(server.url) as api:
        game = api.create(seed=3)
    recording = Recording()

    async def first_message() -> Any:
        url = f"{server.ws_url}/api/games/{game.id}/ws?token={game.tokens['japan']}"
        async with connect(url, compression=None, extensions=[recording]) as ws:
            return await asyncio.wait_for(ws.recv(), 10)

    text = asyncio.run(first_message())
    assert isinstance(text, str) and '"type":"view"' in text.replace(" ", "")
    assert recording.frames, "the server did not compress its message"
    assert recording.frames[0] == deflated(text, wire.LEVEL)
    assert deflated(text, 6) != deflated(text, wire.LEVEL)  # the levels are told apart
