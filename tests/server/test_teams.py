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


def pass_to(api: Api, game: Game, turn: int) -> None:
    """Every player does nothing (Done, else the first action offered) up to the radio
    step of `turn` (17c3)."""
    for _ in range(400):
        views = {seat: api.view(game, seat) for seat in TEAM_SEATS}
        any_view = views["usa-tf16"]
        if any_view["turn"] >= turn and any_view["step"] == "radio":
            return
        seat, view = next((s, v) for s, v in views.items() if v["prompt"]["actions"])
        acts = view["prompt"]["actions"]
        action = {"kind": "done"} if {"kind": "done"} in acts else acts[0]
        r = api.act(game, seat, view["version"], action)
        assert r.status_code == 200, r.text
    raise AssertionError(f"Turn {turn}'s radio step not reached")


def log_of(api: Api, game: Game, seat: str) -> list[dict[str, Any]]:
    r = api.http.get(f"/api/games/{game.id}/log", headers=game.auth(seat))
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()
    return events


def test_17c3_a_radio_note_is_read_by_its_addressee_only_once_delivered(api: Api) -> None:
    """17c3: written at the start of the Assembly Step, delivered a Turn or two later as
    the dice say; 17c4: Japan is told the sender's flagship hex. Until delivery the note's
    text is in no view or log but its writer's."""
    game = api.create(scenario="three", teams=True, seed=5)
    set_up_every_seat(api, game)
    view = api.view(game, "usa-tf16")
    assert view["step"] == "radio"
    offered = {"kind": "radio", "to": "usa-tf17", "text": ""}
    assert offered in view["prompt"]["actions"]
    note = "Enterprise strikes at dawn from N3"
    r = api.act(game, "usa-tf16", view["version"], {**offered, "text": note})
    assert r.status_code == 200, r.text
    [sent] = [e for e in log_of(api, game, "japan-i") if e["kind"] == "radio"]
    assert sent["delivery"] in (view["turn"] + 1, view["turn"] + 2)
    for seat in ("usa-tf17", "japan-i", "japan-vi"):
        assert note not in str(api.view(game, seat)) and note not in str(log_of(api, game, seat))
    told = [e for e in log_of(api, game, "japan-vi") if e["kind"] == "flagship-revealed"]
    assert [e["hex"] for e in told] == [api.view(game, "usa-tf16")["searchboard"]["forces"]["TF16"]]
    assert note in str(api.view(game, "usa-tf16")["radio"])
    pass_to(api, game, sent["delivery"])
    assert [e["text"] for e in log_of(api, game, "usa-tf17") if e["kind"] == "radio-delivered"] == [
        note
    ]
    assert note not in str(log_of(api, game, "japan-i"))


def test_17c3_a_note_to_oneself_or_without_text_is_a_422_and_changes_nothing(api: Api) -> None:
    """17c3: a note goes to a teammate and says something; refused, the game unchanged."""
    game = api.create(scenario="three", teams=True, seed=6)
    set_up_every_seat(api, game)
    before = {seat: api.view(game, seat) for seat in TEAM_SEATS}
    version = before["usa-tf17"]["version"]
    r = api.act(game, "usa-tf17", version, {"kind": "radio", "to": "usa-tf17", "text": "hi"})
    assert r.status_code == 422 and r.json()["rule"] == "17c3", r.text
    assert "yourself" in r.json()["detail"]
    r = api.act(game, "usa-tf17", version, {"kind": "radio", "to": "usa-tf16", "text": "  "})
    assert r.status_code == 422 and "empty" in r.text, r.text
    r = api.act(game, "usa-tf17", version, {"kind": "radio", "to": "usa-tf16", "text": "x" * 501})
    assert r.status_code == 422 and "at most 500" in r.text, r.text
    assert {seat: api.view(game, seat) for seat in TEAM_SEATS} == before
