"""GET /metrics (issue 16, Health and operations): prometheus-client's text format with the
actions posted (by answer), their latency, the sockets open now and the games, counted
exactly on a server of the test's own with a database of its own."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect

from server.client import Api, receive
from server.scrape import Samples, scrape, total, value

ACTIONS = "/api/games/{game_id}/actions"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def own_database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database no other test writes to (its games are counted)."""
    if request.param == "postgres":
        url: str = request.getfixturevalue("fresh_pg_database")
        return url
    return f"sqlite:///{tmp_path / 'metrics.db'}"


def wait_until(base: str, check: Any, seconds: float = 10) -> Samples:
    deadline = time.monotonic() + seconds
    while True:
        samples = scrape(base)
        if check(samples) or time.monotonic() > deadline:
            return samples
        time.sleep(0.1)


def test_metrics_count_actions_latency_sockets_and_games(
    make_server: Any, own_database: str
) -> None:
    """Two games, accepted and refused actions, three sockets: every figure says so, and
    the sockets' gauge falls back to zero when they close."""
    server = make_server(own_database)
    rng = random.Random(3)

    async def run() -> tuple[int, Samples]:
        with Api(server.url) as api:
            games = [api.create(seed=3), api.create(seed=4)]
            one = games[0]
            base = f"{server.ws_url}/api/games/{one.id}/ws"
            async with (
                connect(f"{base}?token={one.tokens['japan']}") as jp,
                connect(f"{base}?token={one.tokens['usa']}") as us,
                connect(f"{server.ws_url}/games/{games[1].id}/live") as page,
            ):
                await receive(jp), await receive(us)
                await page.send(json.dumps({"token": games[1].tokens["usa"], "version": 0}))
                await asyncio.wait_for(page.recv(), 10)
                accepted = await asyncio.to_thread(api.play, one, 12, rng)
                found = api.acting_seat(one)
                assert found is not None
                seat, view = found
                action = view["prompt"]["actions"][0]
                stale = api.act(one, seat, view["version"] - 1, action)
                assert stale.status_code == 409, stale.text
                malformed = api.act(one, seat, view["version"], {"kind": "no such action"})
                assert malformed.status_code == 422, malformed.text
                samples = await asyncio.to_thread(
                    wait_until, server.url, lambda s: value(s, "midway_sockets_following") == 3
                )
                assert value(samples, "midway_actions_total", status="409") == 1
                assert value(samples, "midway_actions_total", status="422") == 1
                return accepted, samples

    accepted, samples = asyncio.run(run())
    assert accepted == 12
    assert value(samples, "midway_actions_total", status="200") == 12
    assert value(samples, "midway_action_seconds_count") == 12
    assert 0 < value(samples, "midway_action_seconds_sum") < 12 * 5
    posted = value(
        samples, "midway_http_requests_total", method="POST", route=ACTIONS, status="200"
    )
    assert posted == 12
    assert value(samples, "midway_games_created_total") == 2
    assert total(samples, "midway_games") == 2  # in the database, by status
    assert value(samples, "midway_live_sockets", route="/api/games/{game_id}/ws") == 2
    assert value(samples, "midway_live_sockets", route="/games/{game_id}/live") == 1
    assert value(samples, "midway_sockets_following") == 3
    assert value(samples, "midway_games_followed") == 2
    after = wait_until(server.url, lambda s: total(s, "midway_live_sockets") == 0)
    assert total(after, "midway_live_sockets") == 0
    assert value(after, "midway_sockets_following") == 0
    assert value(after, "midway_games_followed") == 0
    sessions = total(after, "midway_http_requests_total", method="WEBSOCKET", status="101")
    assert sessions == 3


def test_a_game_created_by_the_home_page_form_is_counted(make_server: Any, tmp_path: Path) -> None:
    """The form's creation answers 303 to its created page (issue 13): counted as the
    API's 201 is; a refused one is not."""
    server = make_server(f"sqlite:///{tmp_path / 'form.db'}")
    with Api(server.url) as api:
        assert api.http.post("/games", data={"scenario": "one"}).status_code == 303
        assert api.http.post("/games", data={"scenario": "nine"}).status_code == 422
        assert api.http.post("/api/games", json={"scenario": "one"}).status_code == 201
    assert value(scrape(server.url), "midway_games_created_total") == 2
