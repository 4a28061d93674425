"""Issue 30, quiet Turns: Done on an empty Turn is one click, in every mode. A seat's
standing "Done for this Turn" (app/games/standing.py) is kept by the server, which says
the seat's Done in each quiet step of the Turn through the same path as a player's click
(app/games/computer.py), stops at a decision the seat cannot skip, and ends with the Turn
or a take-back. Every Done is an ordinary action of the seat: the other seats learn of it
what they learn of a Done (1c, 18a)."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest

from app.bots import choose
from server.client import Api, Game
from server.conftest import Server

PLAYERS = ("japan", "usa")


@pytest.fixture
def api(server: Server) -> Any:
    with Api(server.url) as client:
        yield client


def set_up(api: Api, game: Game) -> int:
    """Set-up (7) played by the computer's quick level for every seat; the first Turn."""
    for _ in range(400):
        found = api.acting_seat(game)
        assert found is not None
        seat, view = found
        if view["step"] != "setup":
            return int(view["turn"])
        r = api.act(game, seat, view["version"], choose(view, [], "quick"))
        assert r.status_code == 200, r.text
    raise AssertionError("set-up never ended")


def stand(api: Api, game: Game, seat: str) -> Any:
    return api.http.post(f"/api/games/{game.id}/standing", headers=game.auth(seat))


def order(api: Api, game: Game, seat: str) -> Any:
    r = api.http.get(f"/api/games/{game.id}/standing", headers=game.auth(seat))
    assert r.status_code == 200, r.text
    return r.json()["order"]


def clicks_through_turn(
    api: Api, game: Game, turn: int, standing: bool, decisions: Counter[str] | None = None
) -> Counter[str]:
    """The clicks each player makes to get through Turn `turn` doing nothing: Done at
    each prompt, or once "Done for this Turn" (the server says the rest). Where Done is
    not offered (a decision the seat must make), the computer's quick choice, counted in
    `decisions` when given."""
    clicks: Counter[str] = Counter()
    stood: set[str] = set()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        views = {s: api.view(game, s) for s in game.tokens}
        if all(v["turn"] != turn or v["status"] == "finished" for v in views.values()):
            return clicks
        acting = [s for s, v in views.items() if v["prompt"]["actions"] and v["turn"] == turn]
        if not acting:
            time.sleep(0.02)  # the server is saying someone's Done
            continue
        waiting = [s for s in acting if s in stood]  # its order says Done in a moment
        for s in waiting:
            mine = order(api, game, s)
            assert mine is None or mine["stands"], f"{s}'s order stopped: {mine}"
        if len(waiting) == len(acting):
            time.sleep(0.02)
            continue
        seat = next(s for s in acting if s not in stood)
        view = views[seat]
        kinds = {a["kind"] for a in view["prompt"]["actions"]}
        if decisions is not None and "done" not in kinds:
            r = api.act(game, seat, view["version"], choose(view, [], "quick"))
            assert r.status_code in (200, 409), r.text
            decisions[seat] += 1
            continue
        assert "done" in kinds, (seat, view["step"], kinds)
        if standing:
            r = stand(api, game, seat)
            assert r.status_code == 200, r.text
            stood.add(seat)
        else:
            r = api.act(game, seat, view["version"], {"kind": "done"})
            assert r.status_code in (200, 409), r.text
        clicks[seat] += 1
    raise AssertionError(f"Turn {turn} never ended: {clicks}")


# The Done clicks a player made to get through an empty Turn before the order (issue 30):
# every step of the Turn that asks a seat asks it, whether or not it can do anything.
BEFORE = {
    ("one", "two-player"): (3, 4),  # (Turn 7, a night; Turn 8, a day)
    ("one", "umpired"): (3, 6),
    ("one", "double-blind"): (3, 6),
    ("coral-sea", "two-player"): (4, 4),  # (Turn 1, Turn 2: both days)
    ("coral-sea", "umpired"): (6, 6),
    ("coral-sea", "double-blind"): (6, 6),
}


@pytest.mark.parametrize(("scenario", "mode"), sorted(BEFORE))
def test_issue30_done_for_this_turn_is_one_click_on_an_empty_turn(
    api: Api, scenario: str, mode: str
) -> None:
    """Two Turns, the first said Done by Done, the second (and third) by one click each."""
    game = api.create(scenario=scenario, mode=mode, seed=30)
    first = set_up(api, game)
    before = clicks_through_turn(api, game, first, standing=False)
    assert {s: before[s] for s in PLAYERS} == dict.fromkeys(PLAYERS, BEFORE[scenario, mode][0])
    before = clicks_through_turn(api, game, first + 1, standing=False)
    assert {s: before[s] for s in PLAYERS} == dict.fromkeys(PLAYERS, BEFORE[scenario, mode][1])
    after = clicks_through_turn(api, game, first + 2, standing=True)
    assert {s: after[s] for s in PLAYERS} == dict.fromkeys(PLAYERS, 1)
    assert after.get("umpire", 0) == 0
    # the order ended with its Turn: the next Turn asks again
    view = api.view(game, "japan") if api.view(game, "japan")["prompt"]["actions"] else None
    assert all(order(api, game, s) is None for s in PLAYERS)
    assert view is None or view["turn"] == first + 3


@pytest.mark.parametrize("mode", ["two-player", "double-blind"])
def test_issue30_done_for_this_turn_with_teams(api: Api, mode: str) -> None:
    """17a: each command's seat gives its own order; one click each. Before, Turn 7 (a
    night) cost each seat 4 Done (17c3's radio note first), Turn 8 5 or 7; the Japanese
    reinforcement that must enter at Turn 8 (3c) is a decision, not a Done."""
    game = api.create(scenario="three", mode=mode, teams=True, seed=30)
    first = set_up(api, game)
    decided: Counter[str] = Counter()
    before = clicks_through_turn(api, game, first, standing=False, decisions=decided)
    assert set(before.values()) == {4} and len(before) == 4, before
    before = clicks_through_turn(api, game, first + 1, standing=False, decisions=decided)
    assert set(before.values()) == {5 if mode == "two-player" else 7}, before
    assert decided == {"japan-i": 1}  # 3c: entering is no Done
    after = clicks_through_turn(api, game, first + 2, standing=True)
    assert after == dict.fromkeys(game.tokens, 1)


def test_issue30_the_other_side_learns_only_the_done(api: Api) -> None:
    """1c: a Turn said Done by the order and one said Done by Done, same seed: the
    enemy's log and view are the same."""
    seen = []
    for standing in (False, True):
        game = api.create(scenario="one", mode="two-player", seed=31)
        first = set_up(api, game)
        clicks_through_turn(api, game, first, standing=standing)
        log = api.http.get(f"/api/games/{game.id}/log", headers=game.auth("japan")).json()
        view = api.view(game, "japan")
        assert "standing" not in view
        seen.append(([{k: v for k, v in e.items() if k not in ("at",)} for e in log], view))
    assert seen[0][0] == seen[1][0]
    own = ("id", "seed_sha256", "version")  # each game's own (the seed is salted)
    assert {k: v for k, v in seen[0][1].items() if k not in own} == {
        k: v for k, v in seen[1][1].items() if k not in own
    }


def test_issue30_the_order_stops_at_air_units_in_the_air(api: Api) -> None:
    """3d, 3f: air units launched at Assembly fly and land: decisions the order does not
    take; it stops there, says why, and the seat still has its choices."""
    game = api.create(scenario="one", mode="two-player", seed=32)
    first = set_up(api, game)
    clicks_through_turn(api, game, first, standing=False)
    # Turn 8 (a day): the United States launches its scout, then stands
    for _ in range(20):
        view = api.view(game, "usa")
        if view["prompt"]["actions"] and view["step"] == "assembly":
            break
        japan = api.view(game, "japan")
        if japan["prompt"]["actions"]:
            api.act(game, "japan", japan["version"], {"kind": "done"})
    launch = next(a for a in view["prompt"]["actions"] if a["kind"] == "launch")
    assert api.act(game, "usa", view["version"], launch).status_code == 200
    assert stand(api, game, "usa").status_code == 200
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        japan = api.view(game, "japan")
        if japan["prompt"]["actions"]:
            api.act(game, "japan", japan["version"], {"kind": "done"})
        mine = order(api, game, "usa")
        if mine and not mine["stands"]:
            break
        time.sleep(0.02)
    assert mine == {"turn": first + 1, "stands": False, "stopped": mine["stopped"]}
    assert "air units in the air" in mine["stopped"]
    view = api.view(game, "usa")
    assert view["step"] == "air movement and search"
    assert {"fly", "done"} <= {a["kind"] for a in view["prompt"]["actions"]}
    # the enemy is told nothing of it
    assert order(api, game, "japan") is None


def test_issue30_not_from_a_decision_and_not_out_of_turn(api: Api) -> None:
    """The order is given only where the seat is to act in a quiet step: at set-up (7)
    it is refused (422, saying why), and a seat with nothing to do gets a 403."""
    game = api.create(scenario="one", mode="two-player", seed=33)
    r = stand(api, game, "japan")
    assert r.status_code == 422, r.text
    assert "setup" in r.json()["detail"]
    set_up(api, game)
    idle = api.idle_seat(game)  # Side B acts first (3): the other waits
    assert idle is not None
    r = stand(api, game, idle[0])
    assert r.status_code == 403, r.text
    assert order(api, game, "japan") is None
    assert order(api, game, "usa") is None


def test_issue30_the_orders_done_is_taken_back_as_a_clicked_one(api: Api) -> None:
    """Issue 14 with the order: its Done is the seat's own action, as final as a clicked
    Done (the umpire saw it, 18a: 1c). The take-back is refused with the same reason,
    and the order, which a take-back would end, still stands."""
    refusals = []
    for standing in (False, True):
        game = api.create(scenario="one", mode="umpired", seed=34)
        first = set_up(api, game)
        clicks_through_turn(api, game, first, standing=False)
        view = api.view(game, "japan")
        assert view["step"] == "assembly" and view["prompt"]["actions"]
        if standing:
            assert stand(api, game, "japan").status_code == 200
        else:
            api.act(game, "japan", view["version"], {"kind": "done"})
        deadline = time.monotonic() + 10
        while api.view(game, "japan")["prompt"]["actions"]:  # both sides at once (18c1)
            assert time.monotonic() < deadline
            time.sleep(0.02)
        view = api.view(game, "japan")
        r = api.http.post(
            f"/api/games/{game.id}/takeback",
            json={"version": view["version"]},
            headers=game.auth("japan"),
        )
        assert r.status_code == 422, r.text
        refusals.append(r.json())
        if standing:
            assert order(api, game, "japan") == {"turn": first + 1, "stands": True, "stopped": None}
    assert refusals[0] == refusals[1]


def test_issue30_an_order_owed_at_start_up_is_carried_out(make_server: Any, tmp_path: Any) -> None:
    """A server stopped between an order and the Done it owed says that Done once it is
    started again (as the computer's seats resume, issue 35)."""
    import sqlite3
    from contextlib import closing

    url = f"sqlite:///{tmp_path / 'resume.db'}"
    server = make_server(url)
    with Api(server.url) as api:
        game = api.create(scenario="one", mode="two-player", seed=35)
        first = set_up(api, game)
        seat, view = api.acting_seat(game) or ("", {})
        assert view["step"] == "ready"
    server.stop()
    # as if the server stopped at once
    with closing(sqlite3.connect(tmp_path / "resume.db")) as db, db:
        db.execute(
            "UPDATE seats SET standing_turn = ? WHERE game_id = ? AND seat = ?",
            (first, game.id, seat),
        )
    server = make_server(url)
    with Api(server.url) as api:
        deadline = time.monotonic() + 20
        while api.view(game, seat)["version"] == view["version"]:
            assert time.monotonic() < deadline, "the order owed was never carried out"
            time.sleep(0.05)
        log = api.http.get(f"/api/games/{game.id}/replay")
        assert api.view(game, seat)["turn"] == first
        assert log.status_code == 403  # the game goes on
