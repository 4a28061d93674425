"""GET /healthz and GET /readyz, for the proxy and the container runtime.

- `/healthz`: the process is up and answering (200 `{"status": "ok"}`), nothing else.
- `/readyz`: it can serve games: the database answers a query and the broker (Redis or
  PostgreSQL LISTEN, when there is one) is connected. 200 `{"status": "ready", ...}`, or
  503 with `detail` naming what is unreachable. The answer never names a URL or password.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.api.answers import Health, Ready
from app.api.contract import operation_id
from app.games import GameService
from app.games.fanout import Broker, PostgresBroker, RedisBroker

router = APIRouter(tags=["operations"], generate_unique_id_function=operation_id)

CHECK_SECONDS = 3.0


@router.get("/healthz", response_model=Health)
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get(
    "/readyz",
    response_model=None,
    responses={
        200: {"model": Ready, "description": "the database and the broker answer"},
        503: {"model": Ready, "description": "database or broker unreachable (`detail`)"},
    },
)
async def readyz(request: Request) -> JSONResponse:
    service: GameService | None = getattr(request.app.state, "service", None)
    if service is None:
        return JSONResponse({"detail": "not ready: the server is starting"}, status_code=503)
    checks = {
        "database": await _check(to_thread.run_sync(_ping_database, service)),
        "broker": await _check(_ping_broker(service.broker)),
    }
    failed = [f"{name} unreachable ({why})" for name, why in checks.items() if why != "ok"]
    body: dict[str, Any] = {"checks": checks}
    if failed:
        body["detail"] = "not ready: " + "; ".join(failed)
        return JSONResponse(body, status_code=503)
    body["status"] = "ready"
    return JSONResponse(body)


async def _check(probe: Coroutine[Any, Any, Any]) -> str:
    """ "ok", or why not in a few words (the exception's class, never its text: a driver's
    message may name the server's address or user)."""
    try:
        await asyncio.wait_for(probe, CHECK_SECONDS)
    except TimeoutError:
        return f"no answer within {CHECK_SECONDS:g} s"
    except Exception as exc:
        return type(exc).__name__
    return "ok"


def _ping_database(service: GameService) -> None:
    with service.store.db.read() as session:
        session.execute(sa.text("SELECT 1 FROM games WHERE 1 = 0")).all()


class BrokerDisconnected(Exception):
    """The broker's listener has lost its connection (it is retrying)."""


async def _ping_broker(broker: Broker) -> None:
    if isinstance(broker, RedisBroker):
        await broker.client.ping()
    if isinstance(broker, PostgresBroker | RedisBroker) and not broker.connected:
        raise BrokerDisconnected
