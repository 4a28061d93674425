"""The bench's endpoints, only when MIDWAY_BENCH=1: WS /api/_bench/floor echoes each
message after one committed insert, so the bench can measure the floor that an action's
latency is compared with; GET /api/_bench/stages gives the process's CPU time and the
CPU time per stage so far (app.games.stages)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.games.stages import STAGES

router = APIRouter(include_in_schema=False)


@router.get("/api/_bench/stages")
async def stages() -> dict[str, Any]:
    return STAGES.read()


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
