"""Between moves (issue 14), over a live server on SQLite and PostgreSQL: chat by
audience with its limits, the lobby, my games' glance and the page's pulse (presence)."""

from __future__ import annotations

import secrets
from typing import Any

import httpx
import pytest

from server.client import Api, Game
from server.conftest import Server


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def say(api: Api, game: Game, seat: str, text: str, audience: str = "all") -> httpx.Response:
    return api.http.post(
        f"/api/games/{game.id}/chat",
        json={"audience": audience, "text": text},
        headers=game.auth(seat),
    )


def heard(api: Api, game: Game, seat: str, since: int = 0) -> list[dict[str, Any]]:
    r = api.http.get(f"/api/games/{game.id}/chat?since={since}", headers=game.auth(seat))
    assert r.status_code == 200, r.text
    messages: list[dict[str, Any]] = r.json()
    return messages


# -- chat ----------------------------------------------------------------------------------


def test_chat_to_all_players_reaches_both_seats_as_text(api: Api) -> None:
    """A message to all players is stored and read by both seats, verbatim (as text:
    markup is not interpreted, only carried)."""
    game = api.create(seed=1)
    r = say(api, game, "japan", "<b>Good luck</b> & have fun")
    assert r.status_code == 201, r.text
    assert say(api, game, "usa", "You too").status_code == 201
    for seat in ("japan", "usa"):
        texts = [(m["seat"], m["text"]) for m in heard(api, game, seat)]
        assert texts == [("japan", "<b>Good luck</b> & have fun"), ("usa", "You too")]
    assert [m["text"] for m in heard(api, game, "usa", since=1)] == ["You too"]
    assert api.http.get(f"/api/games/{game.id}/chat").status_code == 401


def test_17c1_side_channel_refused_for_a_side_of_one_player(api: Api) -> None:
    """A side's own channel is for a side of two players (17c1): with one seat a side it
    is refused, naming the rule; another side's channel is refused too."""
    game = api.create(seed=2)
    r = say(api, game, "usa", "TF16 goes north", audience="side:usa")
    assert r.status_code == 422 and r.json()["rule"] == "17c1"
    r = say(api, game, "usa", "where are you?", audience="side:japan")
    assert r.status_code == 422 and "no chat channel" in r.json()["detail"]
    assert heard(api, game, "usa") == [] and heard(api, game, "japan") == []


def test_chat_huge_messages_and_floods_are_refused_with_4xx(api: Api) -> None:
    """Over 500 characters: 413; a body over the request limit: 413; empty: 422; more
    than 5 messages in 10 seconds from one seat: 429. Each says why; nothing stored."""
    game = api.create(seed=3)
    r = say(api, game, "japan", "x" * 501)
    assert r.status_code == 413 and "500 characters" in r.json()["detail"]
    r = say(api, game, "japan", "x" * 200_000)
    assert r.status_code == 413 and "larger than" in r.json()["detail"]
    r = say(api, game, "japan", "   ")
    assert r.status_code == 422 and "empty" in r.json()["detail"]
    r = say(api, game, "japan", "bell\x07")
    assert r.status_code == 422
    for i in range(5):
        assert say(api, game, "japan", f"message {i}").status_code == 201
    r = say(api, game, "japan", "one too many")
    assert r.status_code == 429 and "wait" in r.json()["detail"]
    assert say(api, game, "usa", "the other seat still may").status_code == 201
    assert len(heard(api, game, "usa")) == 6


# -- the lobby -----------------------------------------------------------------------------


def test_lobby_lists_an_open_game_and_joining_hands_one_seat_link_once(api: Api) -> None:
    """POST /api/lobby opens a game, its creator keeping Japan; the lobby lists it with
    its scenario, options, mode and free seats; joining hands the USA link once, which
    opens the USA seat; then the game leaves the lobby and a second join is 409."""
    r = api.http.post("/api/lobby", json={"scenario": "one", "keep": "japan", "seed": 4})
    assert r.status_code == 201, r.text
    opened = r.json()
    assert [s["seat"] for s in opened["seats"]] == ["japan"] and opened["seats_free"] == ["usa"]
    listed = {g["id"]: g for g in api.http.get("/api/lobby").json()}
    entry = listed[opened["id"]]
    assert entry["seats_free"] == ["usa"] and entry["scenario"] == "one"
    assert entry["mode"] == "two-player" and entry["options"] == []
    r = api.http.post(f"/api/lobby/{opened['id']}/join", json={})
    assert r.status_code == 200, r.text
    link = r.json()
    assert link["seat"] == "usa" and link["token"] in link["url"]
    view = api.http.get(
        f"/api/games/{opened['id']}", headers={"Authorization": f"Bearer {link['token']}"}
    )
    assert view.status_code == 200 and view.json()["seat"] == "usa"
    assert opened["id"] not in {g["id"] for g in api.http.get("/api/lobby").json()}
    again = api.http.post(f"/api/lobby/{opened['id']}/join", json={})
    assert again.status_code == 409 and "taken" in again.json()["detail"]
    kept = opened["seats"][0]["token"]
    mine = api.http.get(f"/api/games/{opened['id']}", headers={"Authorization": f"Bearer {kept}"})
    assert mine.json()["seat"] == "japan"


def test_lobby_refusals(api: Api) -> None:
    """Keeping a seat the game has not: 422; joining an unknown game: 404; a seat that
    is not free: 409."""
    r = api.http.post("/api/lobby", json={"scenario": "one", "keep": "umpire"})
    assert r.status_code == 422 and "no seat" in r.json()["detail"]
    assert api.http.post("/api/lobby/0123456789abcdef/join", json={}).status_code == 404
    assert api.http.post("/api/lobby/nonsense/join", json={}).status_code == 404
    opened = api.http.post("/api/lobby", json={"scenario": "one"}).json()
    assert opened["seats"] == [] and opened["seats_free"] == ["japan", "usa"]
    r = api.http.post(f"/api/lobby/{opened['id']}/join", json={"seat": "usa"})
    assert r.json()["seat"] == "usa"
    r = api.http.post(f"/api/lobby/{opened['id']}/join", json={"seat": "usa"})
    assert r.status_code == 409
    assert api.http.post(f"/api/lobby/{opened['id']}/join", json={}).json()["seat"] == "japan"


# -- my games and presence -------------------------------------------------------------------


def test_glance_says_your_move_waiting_and_the_turn(api: Api) -> None:
    """GET /api/games/{id}/glance: scenario, Turn, and whether it is this seat's move."""
    game = api.create(seed=5)
    glances = {
        s: api.http.get(f"/api/games/{game.id}/glance", headers=game.auth(s)).json()
        for s in ("japan", "usa")
    }
    views = {s: api.view(game, s) for s in ("japan", "usa")}
    for seat, g in glances.items():
        assert g["scenario"] == "one" and g["turn"] == views[seat]["turn"]
        expected = "your move" if views[seat]["prompt"]["actions"] else "waiting"
        assert g["state"] == expected and g["seat"] == seat
    assert {g["state"] for g in glances.values()} <= {"your move", "waiting"}


def test_pulse_reports_presence_and_a_seat_open_in_two_places(api: Api) -> None:
    """A page's pulse marks its place online; the other seat sees it online with a last
    seen time; the same seat from a second place is told it is open elsewhere."""
    game = api.create(seed=6)

    def pulse(seat: str, place: str) -> dict[str, Any]:
        r = api.http.post(
            f"/api/games/{game.id}/pulse", json={"place": place}, headers=game.auth(seat)
        )
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        return body

    first, second = secrets.token_hex(8), secrets.token_hex(8)
    alone = pulse("japan", first)
    assert alone["presence"]["elsewhere"] == 0
    seen = pulse("usa", secrets.token_hex(8))["presence"]["seats"]["japan"]
    assert seen["online"] and seen["last_seen"]
    assert pulse("japan", second)["presence"]["elsewhere"] == 1
    assert pulse("japan", first)["presence"]["elsewhere"] == 1
    r = api.http.post(f"/api/games/{game.id}/pulse", json={"place": "x"}, headers=game.auth("usa"))
    assert r.status_code == 422


def test_the_home_page_form_sets_a_pace_for_a_created_and_an_opened_game(api: Api) -> None:
    """Paces from the page's form: a created game carries its days per move and vacation
    (the glance shows them to its seats); a game opened in the lobby is listed with its
    pace; a pace out of range or not a number is a 422 naming it, and no game is made."""
    r = api.http.post("/games", data={"scenario": "one", "pace_days": "2", "vacation_days": "3"})
    assert r.status_code == 303, r.text
    location = r.headers["location"]
    game_id = location.split("/games/")[1].split("/")[0]
    token = location.split("japan=")[1].split("&")[0]
    glance = api.http.get(
        f"/api/games/{game_id}/glance", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert glance["pace"]["days_per_move"] == 2 and glance["pace"]["vacation_days"] == 3

    r = api.http.post("/games/open", data={"scenario": "one", "keep": "usa", "pace_days": "7"})
    assert r.status_code == 303 and "/opened#usa=" in r.headers["location"], r.text
    listed = [g["pace"] for g in api.http.get("/api/lobby").json()]
    assert "7 days a move" in listed, listed

    before = len(api.http.get("/api/lobby").json())
    for form in ({"pace_days": "99"}, {"pace_days": "two"}, {"vacation_days": "-1"}):
        for route in ("/games", "/games/open"):
            r = api.http.post(route, data={"scenario": "one", **form})
            assert r.status_code == 422, (route, form, r.text)
            assert "pace" in r.text or "vacation" in r.text
    assert len(api.http.get("/api/lobby").json()) == before
