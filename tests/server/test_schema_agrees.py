"""Requests the schema allows are not refused for their form (issue 31, item 8).

JSON Schema's `integer` is any number without a fraction: `449.0` and
`3.4028236692093843e38` (the float just under 2^128, a seed) are integers to the schema,
which every client's validator and schemathesis go by; the server refused them with
"Input should be a valid integer" on seven operations. A record's `seed_salt` may be null
by the schema, and its seed was unbounded there while the server refused any seed out of
range. Each is checked through real HTTP on both databases."""

from __future__ import annotations

import copy
import json
from typing import Any

import httpx
import pytest

from server.client import Api
from server.conftest import Server
from server.test_record_limits import _umpired_record

JUST_UNDER = "3.4028236692093843e38"  # 2**128 - 2**104, a whole number as a float


def post(api: Api, path: str, text: str, token: str | None = None) -> httpx.Response:
    headers = {"content-type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return api.http.post(path, content=text, headers=headers)


def not_refused_for_form(r: httpx.Response) -> None:
    assert "valid integer" not in r.text and "invalid request" not in r.text, r.text
    assert r.status_code < 500


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def test_8_whole_numbers_written_as_floats_are_read(api: Api) -> None:
    for body in (
        f'{{"scenario": "one", "seed": {JUST_UNDER}}}',
        '{"scenario": "one", "seed": 449.0, "pace_days": 2.0, "vacation_days": 1.0}',
    ):
        r = post(api, "/api/games", body)
        assert r.status_code == 201, r.text
    r = post(api, "/api/lobby", f'{{"scenario": "one", "seed": {JUST_UNDER}, "pace_days": 3.0}}')
    assert r.status_code == 201, r.text
    game = api.create(seed=449)
    token = game.tokens["japan"]
    view = api.view(game, "japan")
    action = json.dumps(view["prompt"]["actions"][0])
    r = post(
        api,
        f"/api/games/{game.id}/actions",
        f'{{"version": {view["version"]}.0, "action": {action}}}',
        token,
    )
    assert r.status_code == 200, r.text
    version = r.json()["version"]
    not_refused_for_form(
        post(api, f"/api/games/{game.id}/takeback", f'{{"version": {version}.0}}', token)
    )
    r = post(api, f"/api/games/{game.id}/pulse", '{"place": "abcdefgh12", "since": 0.0}', token)
    assert r.status_code == 200, r.text
    r = api.http.put(
        f"/api/games/{game.id}/notices",
        content='{"remind_hours": 4.0}',
        headers={**game.auth("japan"), "content-type": "application/json"},
    )
    assert r.status_code == 200, r.text


def test_8_a_record_as_the_schema_allows_it_imports(api: Api) -> None:
    """A seed written `3.0`-style and a null seed_salt: both imported; the schema bounds
    the seed as the server does."""
    record = copy.deepcopy(_umpired_record())
    record["seed_salt"] = None
    text = json.dumps(record).replace(f'"seed": {record["seed"]}', f'"seed": {record["seed"]}.0')
    assert f'"seed": {record["seed"]}.0' in text
    r = post(api, "/api/records", text)
    assert r.status_code == 201, r.text
    schema = api.http.get("/openapi.json").json()["components"]["schemas"]["GameRecord"]
    seed = schema["properties"]["seed"]
    assert seed["minimum"] == 0 and seed["exclusiveMaximum"] == 2**128
