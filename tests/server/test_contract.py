"""Every status code of the HTTP contract (DESIGN.md, HTTP API; issue 3), against a live
server on SQLite and on PostgreSQL."""

from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from server.client import Api
from server.conftest import Server

ILLEGAL_IN_SETUP = {"kind": "search", "hex": "H4"}  # 7a: not an action of the setup step


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def test_get_scenarios_200_lists_scenario_one(api: Api) -> None:
    """GET /api/scenarios: the scenarios and optional rules available."""
    r = api.http.get("/api/scenarios")
    assert r.status_code == 200
    one = next(s for s in r.json() if s["id"] == "one")
    assert one["rule"] == "7b" and "options" in one and "modes" in one


def test_get_scenarios_lists_each_modes_seats_by_teams(api: Api) -> None:
    """GET /api/scenarios: each scenario's modes, and the seats each mode gives without
    teams (one seat a side, named after its side) and, where 17 offers them, with."""
    for scenario in api.http.get("/api/scenarios").json():
        modes = {m["mode"]: m for m in scenario["modes"]}
        # 2c: the rulebook's game; 18: with an umpire, or the server as the umpire
        assert list(modes) == ["two-player", "umpired", "double-blind"]
        for mode, umpire in (("two-player", []), ("umpired", [("umpire", None, None)])):
            seatings = {s["teams"]: s["seats"] for s in modes[mode]["seatings"]}
            assert [(s["seat"], s["side"], s["command"]) for s in seatings[False]] == [
                ("japan", "japan", None),
                ("usa", "usa", None),
                *umpire,
            ]
            assert (True in seatings) == scenario["teams"]


def test_post_games_422_a_mode_not_offered_says_so(api: Api) -> None:
    """A mode the engine does not offer is a 422 that says so and names those offered."""
    r = api.http.post("/api/games", json={"scenario": "one", "mode": "solitaire"})
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert "not offered" in detail
    assert all(m in detail for m in ("two-player", "umpired", "double-blind"))


def test_post_games_201_seats_tokens_urls_replay_url(api: Api) -> None:
    """POST /api/games -> 201 {id, seats: [{seat, token, url}], replay_url}."""
    r = api.http.post("/api/games", json={"scenario": "one", "options": [], "mode": "two-player"})
    assert r.status_code == 201, r.text
    body = r.json()
    assert [s["seat"] for s in body["seats"]] == ["japan", "usa"]
    assert [s["side"] for s in body["seats"]] == ["japan", "usa"]
    for seat in body["seats"]:
        assert len(seat["token"]) >= 22  # >= 128 bits in url-safe base64
        assert seat["url"] == f"/games/{body['id']}/seat/{seat['seat']}#token={seat['token']}"
    assert body["replay_url"] == f"/api/games/{body['id']}/replay"
    assert len({s["token"] for s in body["seats"]}) == 2


@pytest.mark.parametrize(
    "body",
    [
        {"scenario": "nine"},
        {"scenario": "one", "options": ["no-such-rule"]},
        {"scenario": "one", "mode": "solitaire"},
    ],
    ids=["unknown-scenario", "unknown-option", "unknown-mode"],
)
def test_post_games_422_unknown_scenario_option_mode(api: Api, body: dict[str, Any]) -> None:
    """new_game raises ValueError -> 422 with the engine's message."""
    r = api.http.post("/api/games", json=body)
    assert r.status_code == 422 and r.json()["detail"]


def test_get_view_200_has_contract_fields_and_seed_hash(api: Api) -> None:
    """GET /api/games/{id} -> {id, version, seat, status, turn, step, prompt{text, actions}};
    the seed's SHA-256 is in every view from the start, the seed itself is not."""
    game = api.create(seed=1234)
    for seat in ("japan", "usa"):
        view = api.view(game, seat)
        assert view["id"] == game.id and view["seat"] == seat and view["version"] == 1
        for key in ("status", "turn", "step"):
            assert key in view
        assert isinstance(view["prompt"]["text"], str)
        assert isinstance(view["prompt"]["actions"], list)
        # salted (app.games.seeds): the bare seed's hash would let a guess be checked
        assert re.fullmatch(r"[0-9a-f]{64}", view["seed_sha256"])
        assert view["seed_sha256"] != hashlib.sha256(b"1234").hexdigest()
        assert "seed" not in view and "seed_salt" not in view


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic abc"}, {"Authorization": ""}],
    ids=["missing", "wrong-token", "wrong-scheme", "empty"],
)
def test_get_view_401_bad_token(api: Api, headers: dict[str, str]) -> None:
    """401 for a missing or bad seat token, with a message."""
    game = api.create()
    r = api.http.get(f"/api/games/{game.id}", headers=headers)
    assert r.status_code == 401 and r.json()["detail"]


def test_401_token_of_another_game(api: Api) -> None:
    """A seat token opens its own game only."""
    one, two = api.create(), api.create()
    r = api.http.get(f"/api/games/{one.id}", headers=two.auth("japan"))
    assert r.status_code == 401


@pytest.mark.parametrize("game_id", ["0123456789abcdef", "nope", "x" * 300, "%00", "é"])
def test_404_unknown_game(api: Api, game_id: str) -> None:
    """404 for a game id that does not exist, whatever it looks like."""
    game = api.create()
    for method, path in (
        ("GET", f"/api/games/{game_id}"),
        ("POST", f"/api/games/{game_id}/actions"),
        ("GET", f"/api/games/{game_id}/log"),
        ("GET", f"/api/games/{game_id}/replay"),
    ):
        r = api.http.request(
            method, path, json={"version": 1, "action": {"kind": "done"}}, headers=game.auth("usa")
        )
        assert r.status_code == 404, (path, r.text)
        assert r.json()["detail"]


def test_post_action_200_returns_new_version(api: Api) -> None:
    """POST /api/games/{id}/actions {version, action} -> 200 {version}."""
    game = api.create()
    view = api.view(game, "japan")
    r = api.act(game, "japan", view["version"], view["prompt"]["actions"][0])
    assert r.status_code == 200, r.text
    assert r.json() == {"version": view["version"] + 1}
    assert api.view(game, "japan")["version"] == view["version"] + 1


def test_post_action_409_stale_version(api: Api) -> None:
    """409 when the seat's version is stale; the game is unchanged."""
    game = api.create()
    view = api.view(game, "japan")
    action = view["prompt"]["actions"][0]
    assert api.act(game, "japan", view["version"], action).status_code == 200
    after = api.view(game, "japan")
    r = api.act(game, "japan", view["version"], after["prompt"]["actions"][0])
    assert r.status_code == 409 and r.json()["version"] == after["version"]
    assert api.view(game, "japan") == after


def test_post_action_403_when_not_the_seats_move(api: Api) -> None:
    """403 when the seat has no legal action now."""
    game = api.create(seed=3)
    rng = random.Random(3)
    for _ in range(2000):
        found = api.idle_seat(game)
        if found is not None:
            break
        api.play(game, 1, rng)
    assert found is not None, "no seat was ever idle"
    seat, view = found
    r = api.act(game, seat, view["version"], {"kind": "done"})
    assert r.status_code == 403 and seat in r.json()["detail"]
    assert api.view(game, seat) == view


def test_post_action_422_illegal_names_the_rule(api: Api) -> None:
    """422 with the rule that forbids an illegal action (IllegalAction.rule)."""
    game = api.create()
    view = api.view(game, "japan")
    r = api.act(game, "japan", view["version"], ILLEGAL_IN_SETUP)
    assert r.status_code == 422
    assert r.json()["rule"] == "7a" and "(7a)" in r.json()["detail"]
    assert api.view(game, "japan") == view


@pytest.mark.parametrize(
    "action",
    [{"kind": "warp"}, {"kind": "search"}, {"kind": "search", "hex": "H4", "x": 1}, {}],
    ids=["unknown-kind", "missing-field", "unknown-field", "empty"],
)
def test_post_action_422_malformed_action(api: Api, action: dict[str, Any]) -> None:
    """ActionParseError -> 422 with the parser's message; the game is unchanged."""
    game = api.create()
    view = api.view(game, "japan")
    r = api.act(game, "japan", view["version"], action)
    assert r.status_code == 422 and "malformed action" in r.json()["detail"]
    assert api.view(game, "japan") == view


@pytest.mark.parametrize(
    "body",
    [
        {"version": 1},
        {"action": {"kind": "done"}},
        {"version": "1", "action": {"kind": "done"}},
        {"version": 1, "action": {"kind": "done"}, "extra": True},
        {"version": 1, "action": "done"},
        [1, 2],
    ],
    ids=["no-action", "no-version", "string-version", "unknown-field", "action-not-object", "list"],
)
def test_post_action_422_bad_body(api: Api, body: Any) -> None:
    """Unknown fields and wrong types -> 422 naming the field; the game is unchanged."""
    game = api.create()
    view = api.view(game, "japan")
    r = api.http.post(f"/api/games/{game.id}/actions", json=body, headers=game.auth("japan"))
    assert r.status_code == 422 and r.json()["detail"].startswith("invalid request")
    assert api.view(game, "japan") == view


def test_malformed_json_422_and_huge_body_413(api: Api) -> None:
    """Bytes that are not JSON -> 422; a body over the limit -> 413; game unchanged."""
    game = api.create()
    view = api.view(game, "japan")
    url = f"/api/games/{game.id}/actions"
    headers = {**game.auth("japan"), "Content-Type": "application/json"}
    r = api.http.post(url, content=b'{"version": 1, "action": {', headers=headers)
    assert r.status_code == 422 and r.json()["detail"]
    r = api.http.post(url, content=b"[" * 50_000 + b"]" * 50_000, headers=headers)
    assert r.status_code == 413 and r.json()["detail"]
    r = api.http.post(url, content=b"[" * 30_000 + b"]" * 30_000, headers=headers)
    assert 400 <= r.status_code < 500 and r.json()["detail"]
    assert api.view(game, "japan") == view


def test_post_games_403_seed_without_allow_seed(make_server: Any, tmp_path: Path) -> None:
    """A seed is accepted only when the server runs with MIDWAY_ALLOW_SEED=1, by the
    lobby as by POST /api/games (the same 403), and nothing is created."""
    server = make_server(f"sqlite:///{tmp_path / 'noseed.db'}", MIDWAY_ALLOW_SEED="0")
    with Api(server.url) as api:
        r = api.http.post("/api/games", json={"scenario": "one", "seed": 5})
        assert r.status_code == 403 and "MIDWAY_ALLOW_SEED" in r.json()["detail"]
        r = api.http.post("/api/lobby", json={"scenario": "one", "keep": "japan", "seed": 5})
        assert r.status_code == 403 and "MIDWAY_ALLOW_SEED" in r.json()["detail"]
        assert api.http.get("/api/lobby").json() == []
        r = api.http.post("/api/games", json={"scenario": "one"})
        assert r.status_code == 201


def test_get_log_200_only_the_seats_events(api: Api) -> None:
    """GET /api/games/{id}/log: the events that seat may see (events_for)."""
    game = api.create(seed=11)
    rng = random.Random(11)
    while api.view(game, "usa")["status"] == "setup":
        assert api.play(game, 50, rng) == 50
    logs = {}
    for seat in ("japan", "usa"):
        r = api.http.get(f"/api/games/{game.id}/log", headers=game.auth(seat))
        assert r.status_code == 200
        logs[seat] = r.json()
        assert all(e["audience"] in ("all", seat) for e in logs[seat])
    assert logs["japan"] or logs["usa"]


def test_replay_403_while_playing(api: Api) -> None:
    """GET /api/games/{id}/replay is for finished games only: the seed stays secret."""
    game = api.create()
    r = api.http.get(f"/api/games/{game.id}/replay")
    assert r.status_code == 403 and "finished" in r.json()["detail"]
    assert set(r.json()) == {"detail"}


def test_tokens_stored_as_sha256_only(api: Api, database_url: str) -> None:
    """Seat tokens are >= 128 random bits and stored hashed (SHA-256), never in clear."""
    game = api.create()
    engine = sa.create_engine(database_url.replace("postgresql://", "postgresql+psycopg://"))
    try:
        with engine.connect() as conn:
            rows = dict(
                conn.execute(
                    sa.text("SELECT seat, token_sha256 FROM seats WHERE game_id = :g"),
                    {"g": game.id},
                ).all()
            )
    finally:
        engine.dispose()
    for seat, token in game.tokens.items():
        assert rows[seat] == hashlib.sha256(token.encode()).hexdigest()
        assert token not in rows.values()


def test_versions_count_only_the_seats_own_view_changes(api: Api) -> None:
    """A seat's version counts changes of its own view: an enemy action that changes
    nothing it may see leaves its version alone (it cannot count secret moves)."""
    game = api.create(seed=21)
    rng = random.Random(21)
    for _ in range(60):
        found = api.acting_seat(game)
        if found is None:
            break
        seat, view = found
        other = "usa" if seat == "japan" else "japan"
        before = api.view(game, other)
        r = api.act(game, seat, view["version"], rng.choice(view["prompt"]["actions"]))
        assert r.status_code == 200
        after = api.view(game, other)
        unchanged = {k: v for k, v in after.items() if k != "version"} == {
            k: v for k, v in before.items() if k != "version"
        }
        assert (after["version"] == before["version"]) == unchanged


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("DELETE", "/api/games/{id}/chat", "GET, POST"),
        ("PATCH", "/api/lobby", "GET, POST"),
        ("PUT", "/api/games/{id}", "GET"),
    ],
)
def test_405_allow_names_every_method_of_the_path(
    api: Api, method: str, path: str, allowed: str
) -> None:
    """Found by the schema run (issue 16): a path with a GET and a POST route answered 405
    with `Allow: GET`, the first route's methods only."""
    game = api.create()
    r = api.http.request(method, path.format(id=game.id), headers=game.auth("japan"))
    assert r.status_code == 405
    assert r.headers["allow"] == allowed
    assert r.json() == {"detail": "Method Not Allowed"}
