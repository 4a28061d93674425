"""What clients send, read once with limits: JSON text no deeper than MAX_DEPTH and no
longer than a bound, and websocket frames that may be binary, too long or a close.

Python's JSON parser recurses once per nesting level, and a few thousand `[` exhaust the
interpreter's stack (RecursionError, a 500). Nothing in the contract nests deeper than a
few levels, so the nesting is counted first, in one pass over the text that never
recurses, and anything deeper is refused before it is parsed. Every place that parses a
client's JSON (the API's request bodies, the pages' action form, both websockets) goes
through `parse_json`.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

MAX_DEPTH = 32
OPEN = frozenset(b"[{")
CLOSE = frozenset(b"]}")
QUOTE, ESCAPE = ord('"'), ord("\\")


class BadJson(ValueError):
    """The text is not JSON the server will read; the message says why."""


def nesting_depth(text: bytes, limit: int) -> int:
    """The deepest nesting of arrays and objects in `text` (strings skipped), counted
    without recursion; stops early once past `limit`."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in text:
        if in_string:
            if escaped:
                escaped = False
            elif byte == ESCAPE:
                escaped = True
            elif byte == QUOTE:
                in_string = False
        elif byte == QUOTE:
            in_string = True
        elif byte in OPEN:
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest
        elif byte in CLOSE:
            depth -= 1
    return deepest


def parse_json(raw: str | bytes, max_bytes: int, max_depth: int = MAX_DEPTH) -> Any:
    """`raw` parsed, or BadJson naming the problem (never RecursionError)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if len(data) > max_bytes:
        raise BadJson(f"JSON text too long ({len(data)} bytes > {max_bytes})")
    if nesting_depth(data, max_depth) > max_depth:
        raise BadJson(f"JSON nested deeper than {max_depth} levels")
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:
        raise BadJson(f"not JSON: {str(exc)[:80]}") from exc


class BadFrame(ValueError):
    """A websocket message the protocol does not expect (binary, too long, not JSON)."""


async def receive_text(ws: WebSocket) -> str:
    """The next text message. A close (1009 for an oversized frame included) is
    WebSocketDisconnect, also when the socket had closed before this call; a binary
    message is BadFrame."""
    if ws.client_state == WebSocketState.DISCONNECTED:
        raise WebSocketDisconnect(1000)
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code") or 1000, message.get("reason"))
    text = message.get("text")
    if text is None:
        raise BadFrame("expected a text message, got a binary one")
    return str(text)


async def receive_object(ws: WebSocket, max_bytes: int) -> dict[str, Any]:
    """The next message, which must be a JSON object of at most `max_bytes`."""
    text = await receive_text(ws)
    try:
        message = parse_json(text, max_bytes)
    except BadJson as exc:
        raise BadFrame(f"expected a JSON object: {exc}") from exc
    if not isinstance(message, dict):
        raise BadFrame(f"expected a JSON object, got {text[:40]!r}")
    return message
