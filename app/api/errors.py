"""Every refusal is a 4xx with a `detail` message a person can read (DESIGN.md, HTTP API).

The mapping from the game layer's errors to status codes lives here, in one place.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.routing import Match

from app.games import GameError

log = logging.getLogger(__name__)


async def game_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, GameError)
    body: dict[str, Any] = {"detail": exc.message}
    body.update((k, v) for k, v in exc.extra.items() if v is not None)
    return JSONResponse(body, status_code=exc.status)


def _where(loc: Any) -> str:
    return ".".join(str(part) for part in loc) if isinstance(loc, list | tuple) else str(loc)


async def invalid_request(_request: Request, exc: Exception) -> JSONResponse:
    """422 with one line per problem; the offending input is not echoed back."""
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"loc": _where(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": str(e.get("type"))}
        for e in exc.errors()[:20]
    ]
    summary = "; ".join(f"{e['loc']}: {e['msg']}" for e in errors)
    return JSONResponse({"detail": f"invalid request: {summary}", "errors": errors}, 422)


METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def allowed_methods(request: Request) -> list[str]:
    """Every method some route of this path answers (Starlette's 405 names only those of
    the first route that matched the path: GET, when the same path also takes a POST).
    Each method is tried against the app's routes as the router itself matches them."""
    routes = request.app.router.routes
    allowed = []
    for method in METHODS:
        probe = {**request.scope, "method": method, "fastapi": {}}
        if any(route.matches(probe)[0] == Match.FULL for route in routes):
            allowed.append(method)
    return allowed


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's refusals (404 no route, 405 ...), with a 405's `Allow` made whole."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 405:
        allow = ", ".join(allowed_methods(request))
        return JSONResponse({"detail": exc.detail}, status_code=405, headers={"Allow": allow})
    return await http_exception_handler(request, exc)


async def internal_error(_request: Request, exc: Exception) -> JSONResponse:
    """A bug, not a refusal: logged with its traceback, answered without one."""
    log.error("unhandled error", exc_info=exc)
    return JSONResponse({"detail": "internal server error"}, status_code=500)


def install(app: FastAPI) -> None:
    app.add_exception_handler(GameError, game_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(Exception, internal_error)
