"""GET /metrics: this process's figures in Prometheus's text format (prometheus-client).

Each server process has its own registry and answers for itself (scrape every process,
not the proxy in front: nginx refuses /metrics from outside). What is counted:

- `midway_http_requests_total{method,route,status}`, `midway_http_request_seconds{route}`
- `midway_actions_total{status}`: actions posted (API and page), by answer;
  `midway_action_seconds`: from request to answer for accepted actions
- `midway_games_created_total`; `midway_games{status}`: games in the database by status
- `midway_live_sockets{route}`: websockets open now; `midway_sockets_following`: those
  past authentication; `midway_games_followed`: games with a socket on this process
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, FastAPI, Request, Response
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from app.games import GameService
from app.games.models import Game

router = APIRouter(include_in_schema=False)

ACTION_ROUTES = frozenset({"/api/games/{game_id}/actions", "/games/{game_id}/act"})
# a creation's success: the API's 201, the home page form's 303 to its created page
CREATE_ROUTES = {"/api/games": 201, "/games": 303}
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


class Metrics:
    """The registry of one app and the figures the request log feeds it."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._children: dict[tuple[Any, ...], Any] = {}
        self.requests = Counter(
            "midway_http_requests",
            "HTTP requests and websocket sessions answered, by route and status",
            ["method", "route", "status"],
            registry=self.registry,
        )
        self.request_seconds = Histogram(
            "midway_http_request_seconds",
            "Seconds from request to the end of the answer (HTTP only)",
            ["route"],
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.actions = Counter(
            "midway_actions",
            "Actions posted, by the status of the answer",
            ["status"],
            registry=self.registry,
        )
        self.action_seconds = Histogram(
            "midway_action_seconds",
            "Seconds from an action's request to its answer, accepted actions only",
            buckets=LATENCY_BUCKETS,
            registry=self.registry,
        )
        self.live_sockets = Gauge(
            "midway_live_sockets",
            "Websockets open on this process, by route",
            ["route"],
            registry=self.registry,
        )
        self.games_created = Counter(
            "midway_games_created", "Games created by this process", registry=self.registry
        )

    def observe(self, method: str, route: str, status: int, seconds: float | None) -> None:
        """One finished request (`seconds` None for a websocket session)."""
        self._child(self.requests, method, route, str(status)).inc()
        if seconds is not None:
            self._child(self.request_seconds, route).observe(seconds)
        if method == "POST" and route in ACTION_ROUTES:
            self._child(self.actions, str(status)).inc()
            if status == 200 and seconds is not None:
                self.action_seconds.observe(seconds)
        elif method == "POST" and CREATE_ROUTES.get(route) == status:
            self.games_created.inc()

    def _child(self, metric: Any, *labels: str) -> Any:
        """The metric's child for these labels, looked up once (prometheus-client's
        `labels` checks and locks on every call: a third of a request's bookkeeping).
        Routes are the app's templates and statuses HTTP's, so the children are few."""
        key = (id(metric), *labels)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    def watch(self, app: FastAPI) -> None:
        """Add the figures read at scrape time from the app's game service."""
        self.registry.register(_Live(app))


class _Live(Collector):
    """Sockets and games, read when scraped."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    def describe(self) -> Iterable[Metric]:
        return []  # read at scrape time only; nothing to check at registration

    def collect(self) -> Iterator[Metric]:
        service: GameService | None = getattr(self.app.state, "service", None)
        if service is None:
            return
        yield GaugeMetricFamily(
            "midway_sockets_following",
            "Websockets on this process following a seat's view (past authentication)",
            value=service.hub.count(),
        )
        yield GaugeMetricFamily(
            "midway_games_followed",
            "Games with at least one open websocket on this process",
            value=len(service.hub.games),
        )
        games = GaugeMetricFamily("midway_games", "Games in the database", labels=["status"])
        for status, count in _games_by_status(service):
            games.add_metric([status], count)
        yield games


def _games_by_status(service: GameService) -> list[tuple[str, int]]:
    query = sa.select(Game.status, sa.func.count()).group_by(Game.status)
    with service.store.db.read() as session:
        return [(str(status), int(count)) for status, count in session.execute(query).all()]


@router.get("/metrics")
async def metrics(request: Request) -> Response:
    found: Any = request.app.state.metrics
    assert isinstance(found, Metrics)
    body = await to_thread.run_sync(generate_latest, found.registry)
    return Response(body, media_type=CONTENT_TYPE)
