"""WS /api/_bench/floor, only when MIDWAY_BENCH=1: echoes each message after one committed
insert, so the bench can measure the floor that an action's latency is compared with."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

router = APIRouter()


@router.websocket("/api/_bench/floor")
async def floor(ws: WebSocket) -> None:
    service = ws.app.state.service
    await ws.accept()
    try:
        while True:
            message = await ws.receive_text()
            await service.bench_insert()
            await ws.send_text(message)
    except WebSocketDisconnect:
        return
