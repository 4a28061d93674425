"""Every JSON answer that carries a view, tokens, a log or a refusal about them says
`Cache-Control: no-store`, and so does every page that carries a token or a seat's
regions (issue 16). Through real HTTP on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from server.client import Api
from server.conftest import Server


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def no_store(r: httpx.Response) -> None:
    assert r.headers.get("cache-control") == "no-store", (r.request.url, r.status_code)


def test_every_json_answer_with_a_view_or_tokens_is_no_store(api: Api) -> None:
    r = api.http.post("/api/games", json={"scenario": "one", "seed": 3})
    assert r.status_code == 201 and r.json()["seats"][0]["token"]
    no_store(r)
    game_id = r.json()["id"]
    auth = {"Authorization": f"Bearer {r.json()['seats'][0]['token']}"}
    view = api.http.get(f"/api/games/{game_id}", headers=auth)
    assert view.status_code == 200
    no_store(view)
    action = view.json()["prompt"]["actions"][0]
    r = api.http.post(
        f"/api/games/{game_id}/actions", json={"version": 1, "action": action}, headers=auth
    )
    assert r.status_code == 200
    no_store(r)
    no_store(api.http.get(f"/api/games/{game_id}/log", headers=auth))
    # refusals too: stale version, bad token, unfinished replay, bad body, too large
    answers = [
        api.http.post(
            f"/api/games/{game_id}/actions", json={"version": 1, "action": action}, headers=auth
        ),
        api.http.get(f"/api/games/{game_id}", headers={"Authorization": "Bearer nope"}),
        api.http.get(f"/api/games/{game_id}/replay"),
        api.http.post("/api/games", json={"scenario": "one", "x": 1}),
        api.http.post("/api/games", content=b"[" * 70_000),
    ]
    assert [a.status_code for a in answers] == [409, 401, 403, 422, 413]
    for answer in answers:
        no_store(answer)


def test_pages_that_carry_tokens_or_regions_are_no_store(api: Api, server: Server) -> None:
    created = httpx.post(f"{server.url}/games", data={"scenario": "one"})
    assert created.status_code == 303 and "#japan=" in created.headers["location"]
    no_store(created)
    no_store(httpx.get(server.url + created.headers["location"]))
    game = api.create(seed=3)
    regions = api.http.get(f"/games/{game.id}/regions", headers=game.auth("japan"))
    assert regions.status_code == 200
    no_store(regions)
    no_store(api.http.get(f"/games/{game.id}/seat/japan"))
    no_store(api.http.get(f"/games/{game.id}/log", headers=game.auth("japan")))
