"""Teams of two a side through the HTTP contract (17a, 17b): one seat per command, each
with its own link and view, each offered and allowed only its own units' actions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.client import Api, Game
from server.conftest import Server
from server.test_between import heard, say

TEAM_SEATS = ["japan-i", "japan-vi", "usa-tf16", "usa-tf17"]


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def test_17a_scenarios_list_the_team_seats_where_17_offers_them(api: Api) -> None:
    """GET /api/scenarios: Scenarios Two and Three give one seat per command with teams."""
    listed = {s["id"]: s for s in api.http.get("/api/scenarios").json()}
    for sid in ("two", "three"):
        seatings = {x["teams"]: x["seats"] for x in listed[sid]["modes"][0]["seatings"]}
        assert [s["seat"] for s in seatings[True]] == TEAM_SEATS
        assert {s["seat"]: s["side"] for s in seatings[True]}["usa-tf16"] == "usa"
    assert not listed["one"]["teams"] and not listed["four"]["teams"]


def test_17_teams_outside_scenarios_two_and_three_are_a_422_citing_17(api: Api) -> None:
    r = api.http.post("/api/games", json={"scenario": "one", "teams": True})
    assert r.status_code == 422
    assert r.json()["rule"] == "17" and "not offered" in r.json()["detail"]


def test_17a_a_team_game_has_a_link_and_a_view_per_seat(api: Api) -> None:
    game = api.create(scenario="three", teams=True)
    assert list(game.tokens) == TEAM_SEATS
    links = {s["seat"]: s for s in game.body["seats"]}
    assert links["usa-tf17"]["side"] == "usa" and links["usa-tf17"]["command"] == "tf17"
    assert links["usa-tf17"]["url"].startswith(f"/games/{game.id}/seat/usa-tf17#token=")
    for seat in TEAM_SEATS:
        view = api.view(game, seat)
        assert view["seat"] == seat and view["viewer"]["seat"] == seat
        assert view["teams"] is True


def test_17b_an_action_for_another_commands_units_is_a_422_naming_17b(api: Api) -> None:
    """17b through the API: TF 16's player may not place TF 17; nothing changes."""
    game = api.create(scenario="three", teams=True)
    mine = api.view(game, "usa-tf16")
    place = next(a for a in mine["prompt"]["actions"] if a["kind"] == "place")
    assert place["force"] == "TF16", "17b: only his own task force is offered"
    before = {seat: api.view(game, seat) for seat in TEAM_SEATS}
    r = api.act(game, "usa-tf16", mine["version"], {**place, "force": "TF17"})
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "17b" and "usa-tf17" in r.json()["detail"]
    assert {seat: api.view(game, seat) for seat in TEAM_SEATS} == before
    r = api.act(game, "usa-tf16", mine["version"], place)
    assert r.status_code == 200, r.text
    assert api.view(game, "usa-tf17")["searchboard"]["forces"] == {"TF16": place["hex"]}


def set_up_every_seat(api: Api, game: Game) -> None:
    """Each player places his own task forces, names his flagship (17c2) and is done."""
    for seat in TEAM_SEATS:
        view = api.view(game, seat)
        while True:
            placed = view["searchboard"]["forces"]
            named = view["searchboard"]["commands"]["flagships"]
            todo = [
                a
                for a in view["prompt"]["actions"]
                if (a["kind"] == "place" and a["force"] not in placed)
                or (a["kind"] == "flagship" and view["viewer"]["command"] not in named)
            ]
            action = todo[0] if todo else {"kind": "done"}
            assert action in view["prompt"]["actions"], (seat, view["prompt"])
            r = api.act(game, seat, view["version"], action)
            assert r.status_code == 200, r.text
            view = api.view(game, seat)
            if action["kind"] == "done":
                break


def test_17a_a_team_game_plays_through_the_api(api: Api) -> None:
    """Play starts when all four players are done setting up; then every seat acts only
    on its own prompt."""
    game = api.create(scenario="three", teams=True, seed=3)
    set_up_every_seat(api, game)
    assert api.view(game, "japan-i")["status"] == "playing"
    assert api.play(game, 40, random.Random(3)) == 40


def test_17c1_teammates_confer_before_play_and_never_after(api: Api) -> None:
    """17c1: the players of a side meet secretly before the game begins (their side's
    channel, unheard by the enemy); "after the game begins, no talking is allowed among
    the players on a side": a 422 naming 17c3 (radio only), nothing stored."""
    game = api.create(scenario="three", teams=True, seed=4)
    r = say(api, game, "usa-tf16", "I take the north", audience="side:usa")
    assert r.status_code == 201, r.text
    assert [m["text"] for m in heard(api, game, "usa-tf17")] == ["I take the north"]
    assert heard(api, game, "japan-i") == [] and heard(api, game, "japan-vi") == []
    set_up_every_seat(api, game)
    r = say(api, game, "usa-tf17", "where are you?", audience="side:usa")
    assert r.status_code == 422 and r.json()["rule"] == "17c3"
    assert len(heard(api, game, "usa-tf16")) == 1
