"""Issue 35 through the HTTP contract: a seat left to the computer, which the server
plays itself (app.games.computer) through the same path as a player's action."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from server.client import Api, Game
from server.conftest import Server


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def wait_for_move(api: Api, game: Game, seat: str, timeout: float = 30) -> dict[str, Any]:
    """The seat's view once it has something to do or the game is over (the computer
    moves meanwhile)."""
    deadline = time.monotonic() + timeout
    while True:
        view = api.view(game, seat)
        if view["prompt"]["actions"] or view["status"] == "finished":
            return view
        assert time.monotonic() < deadline, f"the computer did not answer: {view['prompt']}"
        time.sleep(0.05)


def human_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A person clicking about: Done half the time, else any offered action."""
    actions = view["prompt"]["actions"]
    done = [a for a in actions if a["kind"] == "done"]
    if done and rng.random() < 0.5:
        return dict(done[0])
    return dict(rng.choice(actions))


def test_issue35_scenarios_offer_the_computer(api: Api) -> None:
    for s in api.http.get("/api/scenarios").json():
        assert s["computer"] == {"seats": "any", "levels": ["quick", "strong"]}


def test_issue35_the_computers_seat_has_no_link(api: Api) -> None:
    game = api.create(scenario="one", computer={"seats": ["usa"], "level": "strong"})
    assert list(game.tokens) == ["japan"]
    assert all("usa" not in s["url"] for s in game.body["seats"])
    page = api.http.get(f"/games/{game.id}/created")
    assert page.status_code == 200
    assert f"/games/{game.id}/seat/usa" not in page.text
    assert f"/games/{game.id}/seat/japan" in page.text


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["two-player", "double-blind"])
def test_issue35_a_person_plays_scenario_one_against_the_computer_to_the_end(
    api: Api, mode: str
) -> None:
    """The person (Japan) moves; the computer (USA) answers each time, until the end."""
    game = api.create(scenario="one", mode=mode, computer={"seats": ["usa"], "level": "quick"})
    rng = random.Random(35)
    moves = 0
    while True:
        view = wait_for_move(api, game, "japan")
        if view["status"] == "finished":
            break
        r = api.act(game, "japan", view["version"], human_action(view, rng))
        assert r.status_code in (200, 409), r.text  # 409: the computer moved meanwhile
        moves += 1
        assert moves < 3000
    told = api.http.get(f"/api/games/{game.id}/log", headers=game.auth("japan")).json()
    assert view["victory"]["winner"] in ("usa", "japan", "tie")
    assert any(e.get("kind") == "game-over" for e in told)
    replay = api.http.get(f"/api/games/{game.id}/replay").json()
    assert any(a["seat"] == "usa" for a in replay["actions"]), "the computer played"


def test_issue35_a_team_game_with_two_computer_seats(api: Api) -> None:
    """17a: the computer plays both American commands; the Japanese players play a Turn."""
    game = api.create(
        scenario="two", teams=True, computer={"seats": ["usa-tf16", "usa-tf17"], "level": "quick"}
    )
    assert sorted(game.tokens) == ["japan-i", "japan-vi"]
    rng = random.Random(17)
    first = api.view(game, "japan-i")["turn"]
    for _ in range(2000):
        views = {s: api.view(game, s) for s in game.tokens}
        if views["japan-i"]["turn"] > first or views["japan-i"]["status"] == "finished":
            break
        acting = [s for s, v in views.items() if v["prompt"]["actions"]]
        if not acting:
            time.sleep(0.05)
            continue
        seat = acting[0]
        action = human_action(views[seat], rng)
        if action.get("text") == "":
            action["text"] = "Holding course"
        r = api.act(game, seat, views[seat]["version"], action)
        assert r.status_code in (200, 409), r.text
    assert api.view(game, "japan-i")["turn"] > first


@pytest.mark.parametrize(
    ("computer", "named"),
    [
        ({"seats": ["umpire"]}, "umpire"),  # no umpire in a two-player game
        ({"seats": ["usa"], "level": "grand"}, "level"),
        ({"seats": ["usa", "usa"]}, "twice"),
        ({"seats": []}, "seats"),
        ({"seat": ["usa"]}, "seat"),
        ("usa", "computer"),
    ],
)
def test_issue35_a_bad_computer_field_is_a_422_naming_it(
    api: Api, computer: Any, named: str
) -> None:
    r = api.http.post("/api/games", json={"scenario": "one", "computer": computer})
    assert r.status_code == 422, r.text
    assert named in r.text


def test_issue35_the_computer_may_umpire(api: Api) -> None:
    """18: in an umpired game the umpire's seat too may be left to the computer (it
    releases every report as it is); the players play a Turn."""
    game = api.create(scenario="one", mode="umpired", computer={"seats": ["umpire"]})
    assert sorted(game.tokens) == ["japan", "usa"]
    rng = random.Random(18)
    for _ in range(400):
        views = {s: api.view(game, s) for s in game.tokens}
        if views["usa"]["turn"] > views["usa"]["first_turn"]:
            break
        acting = [s for s, v in views.items() if v["prompt"]["actions"]]
        if not acting:
            time.sleep(0.05)
            continue
        seat = rng.choice(acting)
        r = api.act(game, seat, views[seat]["version"], human_action(views[seat], rng))
        assert r.status_code in (200, 409), r.text
    assert api.view(game, "usa")["turn"] > api.view(game, "usa")["first_turn"]


@pytest.mark.slow
def test_issue35_computer_seats_survive_a_restart(make_server: Any, tmp_path: Path) -> None:
    """A server stopped while the computer was to move: the next one, on the same
    database, resumes it at start-up."""
    url = f"sqlite:///{tmp_path / 'midway.db'}"
    first = make_server(url, MIDWAY_COMPUTER_PAUSE_SECONDS="60")
    with Api(first.url) as api:
        game = api.create(scenario="one", mode="double-blind", computer={"seats": ["usa"]})
        view = api.view(game, "japan")
        assert "usa" in view["prompt"]["waiting_for"]  # 18c1: both set up at once
        time.sleep(0.5)
        assert "usa" in api.view(game, "japan")["prompt"]["waiting_for"], "paused"
    first.stop()
    second = make_server(url)
    with Api(second.url) as api:
        deadline = time.monotonic() + 30
        while "usa" in api.view(game, "japan")["prompt"]["waiting_for"]:
            assert time.monotonic() < deadline, "the computer was not resumed"
            time.sleep(0.1)


def test_issue35_no_seat_token_for_the_computers_seat_leaves(api: Api) -> None:
    """The answer holds one token, the person's; the computer's seat cannot be opened."""
    game = api.create(scenario="one", computer={"seats": ["japan"]})
    assert list(game.tokens) == ["usa"]
    r = api.http.get(f"/api/games/{game.id}", headers={"Authorization": "Bearer x"})
    assert r.status_code == 401
