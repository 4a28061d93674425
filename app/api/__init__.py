"""The web layer: FastAPI routes and sockets over the game service (DESIGN.md, HTTP API).

`create_app()` builds the app from the environment's settings; uvicorn runs it through
the factory `app.api:create_app`.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI
from fastapi.telemetry import TelemetryConfig

from app.api import bench, between, contract, errors, games, health, metrics, scenarios, sockets
from app.api.access import AccessLog
from app.api.caching import NoStore
from app.api.limits import BodyLimit
from app.api.quotas import Quotas
from app.games import GameService
from app.games.between import Between
from app.games.stages import STAGES
from app.settings import Settings, get_settings

# Worker threads apply actions while the event loop answers sockets: a shorter GIL
# switch interval than the default 5 ms keeps one from stalling the other.
SWITCH_INTERVAL = 0.001
# The cyclic collector's youngest generation is collected after this many more container
# objects were made than freed (Python's default is 700). An action's objects are nearly
# all freed by their reference counts: at 700 the collector took 1.18 ms of CPU an action
# in `make bench`'s 200-game run (0.39, 0.35 and 0.43 ms by generation), at this
# threshold none in its window, with the same resident memory (211 MB against 213).
GC_THRESHOLDS = (50_000, 20, 20)


# FastAPI's own OpenTelemetry, off: the server's figures are its Prometheus metrics
# (app.api.metrics) and its access log. On, FastAPI asks on every request and socket
# whether a provider was set up (three environment lookups and three provider checks,
# about 8 us a request); off, three flags.
NO_TELEMETRY: TelemetryConfig = {"tracing": False, "metrics": False, "logs": False}


def add_routes(app: FastAPI, *routers: APIRouter) -> None:
    """The routers' routes, in order, on the app's own router, as one flat list (each
    route carries its router's prefix and tags already). FastAPI's `include_router` keeps
    a router as a branch that every request walks, and the one that matches twice: about
    40% of the CPU of a request that does little else."""
    for router in routers:
        app.router.routes.extend(router.routes)


# The route of most requests, tried first: Starlette tries the routes in order, a regular
# expression each (a seat page's click was the 33rd of 41). No other route matches its
# paths (tests/server/test_route_cost.py), so it shadows none; the API's routes keep
# their order, which is the OpenAPI document's.
HOT_ROUTES = ("/games/{game_id}/act",)


def hot_first(app: FastAPI) -> None:
    hot = [r for r in app.router.routes if getattr(r, "path", None) in HOT_ROUTES]
    app.router.routes[:] = hot + [r for r in app.router.routes if r not in hot]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service = GameService.build(settings)
        app.state.service = service
        await service.start()
        app.state.between = Between.build(service, settings)
        app.state.between.start(settings.notice_tick_seconds)
        # The engine's tables and the app are loaded for good: keep the cyclic collector
        # from walking them again and again (long pauses show up as latency spikes).
        service.scenarios()  # loads the scenario catalogue
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        sys.setswitchinterval(SWITCH_INTERVAL)
        try:
            yield
        finally:
            await app.state.between.stop()
            await service.stop()

    app = FastAPI(
        title="Midway Online",
        lifespan=lifespan,
        generate_unique_id_function=contract.operation_id,
        telemetry=NO_TELEMETRY,
    )
    records = {"/api/records": settings.max_record_bytes}
    app.add_middleware(
        BodyLimit,
        limit=settings.max_body_bytes,
        paths=records,
        seconds=settings.body_seconds,
        max_buffered=settings.max_buffered_bytes,
    )
    app.add_middleware(NoStore)  # outside the body limit: its refusals get it too
    app.add_middleware(Quotas, settings=settings)  # refused before anything below it
    app.state.metrics = metrics.Metrics()
    app.state.metrics.watch(app)
    app.add_middleware(AccessLog, metrics=app.state.metrics)  # outermost: sees every answer
    app.state.settings = settings
    errors.install(app)
    add_routes(app, scenarios.router, games.router, sockets.router, health.router)
    add_routes(app, metrics.router, between.router)
    if settings.test_clock:
        add_routes(app, between.clock_router)
    from app.web import routers as web_routers  # the browser pages, their socket and files

    add_routes(app, *web_routers)
    hot_first(app)
    if settings.bench:
        STAGES.enabled = True
        if STAGES.collecting not in gc.callbacks:
            gc.callbacks.append(STAGES.collecting)
        add_routes(app, bench.router)
    contract.install(app, settings.rules_module)
    return app
