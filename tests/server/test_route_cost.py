"""Issue 17: the cost of a seat page's click before the game service sees it. Starlette
tries the routes in order, a regular expression each: the click's route is tried first
(app.api.hot_first), which changes no answer since no other route matches its paths; its
only parameter is the request, and it is Starlette's own route (no FastAPI request
handler, no dependency to solve); and the cleared flash
that answers a click from a live page is made once (render.flash). An API action's
dependencies are one level deep (FastAPI walks each level on every request), with the
OpenAPI document as it was: the seat's token still a documented header."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from prometheus_client import generate_latest
from prometheus_client.metrics import MetricWrapperBase
from starlette.routing import Match, Route

from app.api import HOT_ROUTES, create_app
from app.api.metrics import Metrics
from app.settings import Settings
from app.web import render

GAME = "0123456789abcdef"


def scope(method: str, path: str) -> dict[str, object]:
    return {"type": "http", "method": method, "path": path, "root_path": "", "headers": []}


def test_17_a_click_is_matched_by_the_first_route_tried(tmp_path: Path) -> None:
    app = create_app(Settings(DATABASE_URL=f"sqlite:///{tmp_path / 'r.db'}"))
    click = scope("POST", f"/games/{GAME}/act")
    tried = [r.matches(click)[0] for r in app.router.routes]
    assert tried[0] == Match.FULL
    assert getattr(app.router.routes[0], "path", None) == "/games/{game_id}/act"


def test_17_no_other_route_matches_the_paths_of_a_route_tried_first(tmp_path: Path) -> None:
    """So trying it first shadows nothing, whatever the method."""
    app = create_app(Settings(DATABASE_URL=f"sqlite:///{tmp_path / 'r.db'}"))
    for hot in HOT_ROUTES:
        path = hot.replace("{game_id}", GAME)
        for method in ("GET", "POST", "PUT", "DELETE"):
            others = [
                getattr(r, "path", r)
                for r in app.router.routes
                if getattr(r, "path", None) != hot
                and r.matches(scope(method, path))[0] != Match.NONE
            ]
            assert others == [], f"{method} {path} is matched by {others} too"


def test_17_the_click_route_is_starlettes_own_with_nothing_to_solve(tmp_path: Path) -> None:
    """The click's route is a plain Starlette route (its endpoint takes the request and
    reads it itself): FastAPI's request handler, with its dependencies to solve and its
    response to check, is not run for it."""
    app = create_app(Settings(DATABASE_URL=f"sqlite:///{tmp_path / 'r.db'}"))
    route = next(r for r in app.router.routes if getattr(r, "path", None) in HOT_ROUTES)
    assert isinstance(route, Route) and not isinstance(route, APIRoute)
    assert route.methods == {"POST"}
    assert list(inspect.signature(route.endpoint).parameters) == ["request"]


def test_17_the_cleared_flash_is_made_once() -> None:
    assert render.flash() is render.flash()
    assert render.flash("Stale", "stale") is render.flash("Stale", "stale")
    assert 'id="flash"' in render.flash()


def test_17_an_api_action_has_one_level_of_dependencies(tmp_path: Path) -> None:
    app = create_app(Settings(DATABASE_URL=f"sqlite:///{tmp_path / 'r.db'}"))
    route = next(
        r
        for r in app.router.routes
        if isinstance(r, APIRoute) and r.path == "/api/games/{game_id}/actions"
    )
    (seat,) = route.dependant.dependencies
    assert seat.dependencies == []
    operation = app.openapi()["paths"]["/api/games/{game_id}/actions"]["post"]
    names = {(p["in"], p["name"]) for p in operation["parameters"]}
    assert names == {("path", "game_id"), ("header", "Authorization")}
    assert "requestBody" in operation


def test_17_a_request_counted_again_reuses_its_metric_children(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """/metrics: the children of a route's and status's figures are looked up once, and
    every request is still counted."""
    figures = Metrics()
    looked_up: list[tuple[str, ...]] = []
    labels = MetricWrapperBase.labels

    def counted(self: MetricWrapperBase, *values: str) -> MetricWrapperBase:
        looked_up.append(values)
        return labels(self, *values)

    monkeypatch.setattr(MetricWrapperBase, "labels", counted)
    for _ in range(5):
        figures.observe("POST", "/games/{game_id}/act", 200, 0.003)
    assert len(looked_up) == 3  # requests, request_seconds, actions: once each
    text = generate_latest(figures.registry).decode()
    assert 'midway_actions_total{status="200"} 5.0' in text
    assert (
        'midway_http_requests_total{method="POST",route="/games/{game_id}/act",status="200"} 5.0'
        in text
    )


def test_17_a_request_does_not_look_for_an_opentelemetry_provider(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FastAPI's own telemetry is off: the server's figures are its Prometheus metrics and
    its access log. On, every request and socket asked whether a provider was set up."""
    from fastapi.telemetry import _asgi

    app = create_app(Settings(DATABASE_URL=f"sqlite:///{tmp_path / 'r.db'}"))
    asked: list[object] = []
    monkeypatch.setattr(_asgi, "_unconfigured", lambda provider: asked.append(provider) or True)
    assert not app._native_telemetry.enabled()
    assert asked == []
